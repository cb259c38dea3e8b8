/** Delete a Sphere: a modal over the list; Delete opens only once the exact name is typed. */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { deleteConfirmationMatches } from '@domain';
import { Modal } from '../../../components/Modal';
import { processQueries, useDeleteProcess } from '../api';

export function ProcessDeleteModal() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const process = useQuery(processQueries.detail(id));
  const remove = useDeleteProcess();
  const [typed, setTyped] = useState('');
  const close = () => navigate('/entity/process', { replace: true });
  const name = process.data?.name ?? '';
  const matches = !!process.data && deleteConfirmationMatches(typed, name);

  const onDelete = () => {
    if (!matches) return;
    remove.mutate(id, { onSuccess: close });
  };

  return (
    <Modal
      title={t('entity.delete.title')}
      onClose={close}
      testId="process-delete-modal"
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={close}
            data-testid="delete-cancel"
          >
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={!matches || remove.isPending}
            onClick={onDelete}
            data-testid="delete-confirm-submit"
          >
            {t('global.common.delete')}
          </button>
        </>
      }
    >
      {process.isPending ? (
        <div
          className="spinner-border spinner-border-sm text-primary"
          role="status"
          aria-label={t('global.common.loading')}
        />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onDelete();
          }}
        >
          <p>
            <Trans
              i18nKey="soaApp.process.delete.question"
              values={{ name }}
              components={{ strong: <strong /> }}
            />
          </p>
          <label htmlFor="delete-confirm" className="form-label small text-body-secondary">
            {t('soaApp.process.delete.typeName')}
          </label>
          <input
            id="delete-confirm"
            className="form-control"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            autoFocus
            data-testid="delete-confirm-input"
          />
        </form>
      )}
    </Modal>
  );
}
