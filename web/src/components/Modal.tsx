/** A Bootstrap-styled modal rendered in a portal; Escape and the backdrop close it. */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

export interface ModalProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'lg' | 'xl';
  fullscreen?: boolean;
  testId?: string;
  closeTestId?: string;
  /** Extra class on the header (e.g. a danger header for destructive dialogs). */
  headerClassName?: string;
  /** Stack above another open modal. */
  level?: number;
}

let openCount = 0;

export function Modal({
  title,
  onClose,
  children,
  footer,
  size,
  fullscreen,
  testId,
  closeTestId,
  headerClassName,
  level = 0,
}: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    openCount += 1;
    document.body.classList.add('modal-open');
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && openCount - 1 === level) onCloseRef.current();
    };
    document.addEventListener('keydown', onKey);
    // Keep the focus an autoFocus field inside the dialog already took; else focus the dialog itself.
    if (!dialogRef.current?.contains(document.activeElement)) dialogRef.current?.focus();
    return () => {
      document.removeEventListener('keydown', onKey);
      openCount -= 1;
      if (openCount === 0) document.body.classList.remove('modal-open');
    };
  }, [level]);

  const dialogClass = [
    'modal-dialog',
    'modal-dialog-scrollable',
    fullscreen ? 'modal-fullscreen' : 'modal-dialog-centered',
    size ? `modal-${size}` : '',
  ]
    .filter(Boolean)
    .join(' ');

  return createPortal(
    <>
      <div className="modal-backdrop fade show" style={{ zIndex: 1050 + level * 20 }} />
      <div
        className="modal fade show d-block"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        ref={dialogRef}
        style={{ zIndex: 1055 + level * 20 }}
        data-testid={testId}
        onMouseDown={(e) => {
          if (e.target === e.currentTarget) onClose();
        }}
      >
        <div className={dialogClass}>
          <div className="modal-content">
            <div className={`modal-header ${headerClassName ?? ''}`}>
              <h5 className="modal-title" id={titleId}>
                {title}
              </h5>
              <button
                type="button"
                className="btn-close"
                aria-label={t('global.common.close')}
                onClick={onClose}
                data-testid={closeTestId ? `${closeTestId}-x` : undefined}
              />
            </div>
            <div className="modal-body">{children}</div>
            {footer && <div className="modal-footer">{footer}</div>}
          </div>
        </div>
      </div>
    </>,
    document.body,
  );
}
