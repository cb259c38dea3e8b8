/** A small confirmation dialog (node deletion, connection deletion, CRON "execute now", ...). */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Modal';

export interface ConfirmModalProps {
  title: ReactNode;
  children: ReactNode;
  confirmLabel?: ReactNode;
  danger?: boolean;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  testId?: string;
  confirmTestId?: string;
  level?: number;
}

export function ConfirmModal({
  title,
  children,
  confirmLabel,
  danger,
  pending,
  onConfirm,
  onClose,
  testId,
  confirmTestId,
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
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            disabled={pending}
            onClick={onConfirm}
            data-testid={confirmTestId}
          >
            {confirmLabel ?? t('global.common.save')}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
