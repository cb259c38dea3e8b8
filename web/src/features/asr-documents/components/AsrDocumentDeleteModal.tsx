/** Delete an asr document (/entity/asr-document/{id}/delete): a confirmation modal over the list. */
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { Modal } from '../../../components/Modal';
import { useDeleteAsrDocument } from '../api';

export function AsrDocumentDeleteModal() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const id = Number(useParams().id);
  const remove = useDeleteAsrDocument();
  const close = () => navigate(`/entity/asr-document${search}`, { replace: true });
  return (
    <Modal
      title={t('entity.delete.title')}
      onClose={close}
      testId="asr-document-delete-modal"
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
            disabled={remove.isPending}
            onClick={() => remove.mutate(id, { onSuccess: close })}
            data-testid="delete-confirm-submit"
          >
            {t('global.common.delete')}
          </button>
        </>
      }
    >
      <p>{t('soaApp.asrDocument.delete.question', { id })}</p>
    </Modal>
  );
}
