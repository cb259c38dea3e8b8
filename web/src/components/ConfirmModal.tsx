/**
 * A small confirmation dialog: deleting a node, a connection, a label, a rule group or a relation type (`danger`:
 * red title and button, "Delete" by default), or confirming an action such as the CRON "execute now".
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './Modal';

export interface ConfirmModalProps {
  title: ReactNode;
  children: ReactNode;
  /** The confirm button's text; "Delete" for a dangerous action, else "Save". */
  confirmLabel?: ReactNode;
  /** The other button's text; "Cancel" by default. */
  cancelLabel?: ReactNode;
  cancelTestId?: string;
  danger?: boolean;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
  /** The confirm button's test id; `<testId>-confirm` by default. */
  confirmTestId?: string;
  level?: number;
}

export function ConfirmModal({
  title,
  children,
  confirmLabel,
  cancelLabel,
  cancelTestId,
  danger,
  pending,
  onConfirm,
  onClose,
  testId,
  confirmTestId = testId && `${testId}-confirm`,
  level = 0,
}: ConfirmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      level={level}
      title={title}
      onClose={onClose}
      testId={testId}
      headerClassName={danger ? 'text-danger' : undefined}
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={onClose}
            data-testid={cancelTestId}
          >
            {cancelLabel ?? t('global.common.cancel')}
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            disabled={pending}
            onClick={onConfirm}
            data-testid={confirmTestId}
          >
            {pending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {confirmLabel ?? t(danger ? 'global.common.delete' : 'global.common.save')}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
