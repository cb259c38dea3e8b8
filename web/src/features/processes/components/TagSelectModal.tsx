/**
 * Select the tags of a Sphere: exactly one system tag (radio-style) and any user tags (checkboxes, with edit
 * and delete icons), a Create tag button and the count of selected tags. The selection is edited live.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { predefinedTagRule, type ProcessTagDTO } from '@domain';
import { ViolationMessage } from '../../../components/FormField';
import { IconPencil, IconPlus, IconTrash } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { TagBadge } from '../../../components/TagBadge';
import { TagDeleteModal } from './TagDeleteModal';
import { TagEditModal } from './TagEditModal';

export interface TagSelectModalProps {
  tags: readonly ProcessTagDTO[];
  selectedIds: readonly number[];
  onChange: (ids: number[]) => void;
  onClose: () => void;
  /** Create, edit and delete user tags (global process permission). */
  canManage: boolean;
  /** Create system tags (admins). */
  canCreateSystem: boolean;
  isLoading?: boolean;
  /** The modal's title (the plain "Select tags" by default). */
  title?: string;
  /**
   * Editing a stored Sphere's tags: the footer offers Cancel (onClose) and Save, which is refused with the
   * message in view while the selection lacks its one system tag.
   */
  onSave?: () => void;
  saving?: boolean;
}

type Dialog =
  { kind: 'create' } | { kind: 'edit'; tag: ProcessTagDTO } | { kind: 'delete'; tag: ProcessTagDTO } | null;

export function TagSelectModal({
  tags,
  selectedIds,
  onChange,
  onClose,
  canManage,
  canCreateSystem,
  isLoading,
  title,
  onSave,
  saving,
}: TagSelectModalProps) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const system = tags.filter((tag) => tag.predefined);
  const user = tags.filter((tag) => !tag.predefined);
  const selected = tags.filter((tag) => selectedIds.includes(tag.id));
  const violation = predefinedTagRule(selected);

  const chooseSystem = (id: number) => {
    const withoutSystem = selectedIds.filter((sid) => !system.some((s) => s.id === sid));
    onChange([...withoutSystem, id]);
  };
  const toggleUser = (id: number) =>
    onChange(selectedIds.includes(id) ? selectedIds.filter((sid) => sid !== id) : [...selectedIds, id]);

  return (
    <>
      <Modal
        title={title ?? t('soaApp.processTag.selectModal.title')}
        onClose={onClose}
        size="lg"
        testId="tag-modal"
        closeTestId="tag-modal-close"
        footer={
          <div className="d-flex w-100 align-items-center gap-3">
            <span className="text-body-secondary me-auto" data-testid="tag-selected-count">
              {t('soaApp.processTag.selectModal.selectedCount', { count: selected.length })}
            </span>
            {onSave ? (
              <>
                <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
                  {t('global.common.cancel')}
                </button>
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={!!violation || saving}
                  onClick={onSave}
                  data-testid="tag-modal-save"
                >
                  {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
                  {t('global.common.save')}
                </button>
              </>
            ) : (
              <button
                type="button"
                className="btn btn-primary"
                onClick={onClose}
                data-testid="tag-modal-close"
              >
                {t('global.common.close')}
              </button>
            )}
          </div>
        }
      >
        {isLoading ? (
          <div
            className="spinner-border spinner-border-sm text-primary"
            role="status"
            aria-label={t('global.common.loading')}
          />
        ) : (
          <>
            <section className="mb-4">
              <h6 className="tag-section-title">{t('soaApp.processTag.selectModal.systemTags')}</h6>
              {system.length === 0 && (
                <p className="text-body-secondary small mb-0">
                  {t('soaApp.processTag.selectModal.noSystemTags')}
                </p>
              )}
              <div
                className="tag-options"
                role="radiogroup"
                aria-label={t('soaApp.processTag.selectModal.systemTags')}
              >
                {system.map((tag) => (
                  <label key={tag.id} className="tag-option">
                    <input
                      type="radio"
                      name="system-tag"
                      className="form-check-input"
                      checked={selectedIds.includes(tag.id)}
                      onChange={() => chooseSystem(tag.id)}
                      data-testid="tag-system-radio"
                      data-tag-id={tag.id}
                      data-tag-name={tag.name}
                    />
                    <TagBadge tag={tag} />
                  </label>
                ))}
              </div>
              {violation && <ViolationMessage violation={violation} testId="tag-predefined-error" />}
            </section>
            <section>
              <div className="d-flex align-items-center mb-2">
                <h6 className="tag-section-title mb-0 me-auto">
                  {t('soaApp.processTag.selectModal.userTags')}
                </h6>
                {canManage && (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-primary"
                    onClick={() => setDialog({ kind: 'create' })}
                    data-testid="tag-create"
                  >
                    <IconPlus className="me-1" />
                    {t('soaApp.processTag.selectModal.createTag')}
                  </button>
                )}
              </div>
              {user.length === 0 && (
                <p className="text-body-secondary small mb-0">
                  {t('soaApp.processTag.selectModal.noUserTags')}
                </p>
              )}
              <div className="tag-options">
                {user.map((tag) => (
                  <div key={tag.id} className="tag-option">
                    <label className="d-flex align-items-center gap-2 mb-0">
                      <input
                        type="checkbox"
                        className="form-check-input mt-0"
                        checked={selectedIds.includes(tag.id)}
                        onChange={() => toggleUser(tag.id)}
                        data-testid="tag-user-checkbox"
                        data-tag-id={tag.id}
                        data-tag-name={tag.name}
                      />
                      <TagBadge tag={tag} />
                    </label>
                    {canManage && (
                      <span className="tag-option-actions">
                        <button
                          type="button"
                          className="btn btn-sm btn-link text-secondary p-1"
                          title={t('global.common.edit')}
                          aria-label={t('global.common.edit')}
                          onClick={() => setDialog({ kind: 'edit', tag })}
                          data-testid="tag-edit"
                          data-tag-id={tag.id}
                        >
                          <IconPencil />
                        </button>
                        <button
                          type="button"
                          className="btn btn-sm btn-link text-danger p-1"
                          title={t('global.common.delete')}
                          aria-label={t('global.common.delete')}
                          onClick={() => setDialog({ kind: 'delete', tag })}
                          data-testid="tag-delete"
                          data-tag-id={tag.id}
                        >
                          <IconTrash />
                        </button>
                      </span>
                    )}
                  </div>
                ))}
              </div>
            </section>
          </>
        )}
      </Modal>
      {dialog?.kind === 'create' && (
        <TagEditModal
          allTags={tags}
          canCreateSystem={canCreateSystem}
          onClose={() => setDialog(null)}
          onSaved={(tag) => (tag.predefined ? chooseSystem(tag.id) : onChange([...selectedIds, tag.id]))}
        />
      )}
      {dialog?.kind === 'edit' && (
        <TagEditModal tag={dialog.tag} allTags={tags} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'delete' && (
        <TagDeleteModal
          tag={dialog.tag}
          onClose={() => setDialog(null)}
          onDeleted={(id) => onChange(selectedIds.filter((sid) => sid !== id))}
        />
      )}
    </>
  );
}
