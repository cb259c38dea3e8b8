/** A destructive confirmation dialog (delete a label, a rule group, a relation type). */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';

export interface ConfirmModalProps {
  title: ReactNode;
  children: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
  pending?: boolean;
  confirmLabel?: ReactNode;
  testId?: string;
  level?: number;
}

export function ConfirmModal({
  title,
  children,
  onConfirm,
  onClose,
  pending,
  confirmLabel,
  testId = 'labels-confirm-modal',
  level = 0,
}: ConfirmModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      level={level}
      title={title}
      onClose={onClose}
      testId={testId}
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={pending}
            onClick={onConfirm}
            data-testid={`${testId}-confirm`}
          >
            {pending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {confirmLabel ?? t('global.common.delete')}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
