/** Delete a process tag; it will be removed from ALL Spheres. */
import { Trans, useTranslation } from 'react-i18next';
import type { ProcessTagDTO } from '@domain';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { TagBadge } from '../../../components/TagBadge';
import { useDeleteTag } from '../api';

export function TagDeleteModal({
  tag,
  onClose,
  onDeleted,
  level = 1,
}: {
  tag: ProcessTagDTO;
  onClose: () => void;
  onDeleted?: (id: number) => void;
  level?: number;
}) {
  const { t } = useTranslation();
  const remove = useDeleteTag();
  return (
    <ConfirmModal
      danger
      level={level}
      title={t('soaApp.processTag.deleteModal.title')}
      onClose={onClose}
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(tag.id, {
          onSuccess: () => {
            onDeleted?.(tag.id);
            onClose();
          },
        })
      }
      testId="tag-delete-modal"
    >
      <p className="d-flex align-items-center gap-2 flex-wrap">
        {t('soaApp.processTag.deleteModal.question')} <TagBadge tag={tag} />
      </p>
      <div className="alert alert-warning mb-0" role="alert" data-testid="tag-delete-warning">
        <Trans i18nKey="soaApp.processTag.deleteModal.warning" components={{ strong: <strong /> }} />
      </div>
    </ConfirmModal>
  );
}
