/** Delete an asr document (/entity/asr-document/{id}/delete): a confirmation modal over the list. */
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { useDeleteAsrDocument } from '../api';

export function AsrDocumentDeleteModal() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const id = Number(useParams().id);
  const remove = useDeleteAsrDocument();
  const close = () => navigate(`/entity/asr-document${search}`, { replace: true });
  return (
    <ConfirmModal
      title={t('entity.delete.title')}
      danger
      pending={remove.isPending}
      onConfirm={() => remove.mutate(id, { onSuccess: close })}
      onClose={close}
      testId="asr-document-delete-modal"
      cancelTestId="delete-cancel"
      confirmTestId="delete-confirm-submit"
    >
      <p>{t('soaApp.asrDocument.delete.question', { id })}</p>
    </ConfirmModal>
  );
}
