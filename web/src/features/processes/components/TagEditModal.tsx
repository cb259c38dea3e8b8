/** Create or edit a process tag: a name (at most 50 characters, unique) and a colour from the palette. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { colorRule, tagNameRule, type ProcessTagDTO } from '@domain';
import { ViolationMessage, inputClass } from '../../../components/FormField';
import { IconCheck } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { TagBadge, readableTextColor } from '../../../components/TagBadge';
import { useSaveTag } from '../api';
import { TAG_PALETTE, nextTagColor } from '../palette';

export interface TagEditModalProps {
  /** The tag to edit; absent to create one. */
  tag?: ProcessTagDTO;
  allTags: readonly ProcessTagDTO[];
  /** May create system (predefined) tags (admins). */
  canCreateSystem?: boolean;
  onClose: () => void;
  onSaved?: (tag: ProcessTagDTO) => void;
  level?: number;
}

export function TagEditModal({
  tag,
  allTags,
  canCreateSystem,
  onClose,
  onSaved,
  level = 1,
}: TagEditModalProps) {
  const { t } = useTranslation();
  const save = useSaveTag();
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState(() => tag?.color ?? nextTagColor(allTags.map((other) => other.color)));
  const [predefined, setPredefined] = useState(tag?.predefined ?? false);
  const [touched, setTouched] = useState(false);
  const editing = !!tag;

  const otherNames = allTags.filter((other) => other.id !== tag?.id).map((other) => other.name);
  const nameViolation = tagNameRule(name, otherNames);
  const colorViolation = colorRule(color);
  const invalid = !!nameViolation || !!colorViolation;

  const onSubmit = (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (invalid) return;
    save.mutate(
      { id: tag?.id, name: name.trim(), color, predefined },
      {
        onSuccess: (saved) => {
          onSaved?.(saved);
          onClose();
        },
      },
    );
  };

  return (
    <Modal
      level={level}
      title={t(
        editing
          ? 'soaApp.processTag.createEditModal.title.edit'
          : 'soaApp.processTag.createEditModal.title.create',
      )}
      onClose={onClose}
      testId="tag-edit-modal"
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={onClose}
            data-testid="tag-edit-cancel"
          >
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={invalid || save.isPending}
            onClick={() => onSubmit()}
            data-testid="tag-save"
          >
            {t(editing ? 'global.common.save' : 'soaApp.processTag.createEditModal.add')}
          </button>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <div className="mb-3">
          <label htmlFor="tag-name" className="form-label">
            {t('soaApp.processTag.createEditModal.body.name')}
          </label>
          <input
            id="tag-name"
            className={inputClass(nameViolation, touched)}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            autoFocus
            autoComplete="off"
            placeholder={t('soaApp.processTag.createEditModal.body.namePlaceholder')}
            data-testid="tag-name-input"
          />
          {touched && nameViolation && <ViolationMessage violation={nameViolation} testId="tag-name-error" />}
        </div>
        <div className="mb-3">
          <div className="form-label">{t('soaApp.processTag.createEditModal.body.color')}</div>
          <div
            className="tag-palette"
            role="radiogroup"
            aria-label={t('soaApp.processTag.createEditModal.body.color')}
          >
            {TAG_PALETTE.map((swatch) => (
              <button
                key={swatch}
                type="button"
                role="radio"
                aria-checked={swatch === color}
                aria-label={swatch}
                title={swatch}
                className={`tag-swatch ${swatch === color ? 'selected' : ''}`}
                style={{ backgroundColor: swatch, color: readableTextColor(swatch) }}
                onClick={() => setColor(swatch)}
                data-testid="tag-color"
                data-color={swatch}
              >
                {swatch === color && <IconCheck size={14} />}
              </button>
            ))}
          </div>
          {colorViolation && <ViolationMessage violation={colorViolation} />}
        </div>
        {canCreateSystem && !editing && (
          <div className="form-check mb-3">
            <input
              id="tag-predefined"
              type="checkbox"
              className="form-check-input"
              checked={predefined}
              onChange={(e) => setPredefined(e.target.checked)}
              data-testid="tag-predefined"
            />
            <label htmlFor="tag-predefined" className="form-check-label">
              {t('soaApp.processTag.createEditModal.body.predefined')}
            </label>
          </div>
        )}
        <div className="d-flex align-items-center gap-2">
          <span className="small text-body-secondary">
            {t('soaApp.processTag.createEditModal.body.preview')}
          </span>
          <TagBadge
            tag={{
              id: tag?.id ?? 0,
              name: name.trim() || t('soaApp.processTag.createEditModal.body.namePlaceholder'),
              color,
            }}
          />
        </div>
      </form>
    </Modal>
  );
}
