/** Create or edit a classifier type: name, description (<= 255), colour from the palette, prefix/suffix keys. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClassifierTypeDTO } from '@domain/label-types';
import { classifierTypeViolations, normalizeClassifierType } from '@domain/labels';
import { ViolationMessage, inputClass } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';
import { DEFAULT_TAG_COLOR } from '../../processes/palette';
import { useSaveClassifierType } from '../api';
import { ColorPalette } from './ColorPalette';
import { ShortcutKeyInputs } from './ShortcutKeyInputs';

export interface ClassifierLabelModalProps {
  nodeId: number;
  label?: ClassifierTypeDTO;
  all: readonly ClassifierTypeDTO[];
  onClose: () => void;
}

export function ClassifierLabelModal({ nodeId, label, all, onClose }: ClassifierLabelModalProps) {
  const { t } = useTranslation();
  const save = useSaveClassifierType(nodeId);
  const [name, setName] = useState(label?.name ?? '');
  const [description, setDescription] = useState(label?.description ?? '');
  const [color, setColor] = useState(label?.backgroundColor ?? DEFAULT_TAG_COLOR);
  const [prefixKey, setPrefixKey] = useState(label?.prefixKey ?? '');
  const [suffixKey, setSuffixKey] = useState(label?.suffixKey ?? '');
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const show = (field: string) => submitted || !!touched[field];
  const touch = (field: string) => setTouched((tc) => (tc[field] ? tc : { ...tc, [field]: true }));

  const draft = { name, description, backgroundColor: color, prefixKey, suffixKey };
  const otherNames = all.filter((l) => l.id !== label?.id).map((l) => l.name);
  const violations = classifierTypeViolations(draft, otherNames);
  const invalid = Object.values(violations).some(Boolean);

  const onSubmit = (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    save.mutate({ id: label?.id, ...normalizeClassifierType(draft) }, { onSuccess: onClose });
  };

  return (
    <Modal
      title={t(label ? 'soaApp.labels.clf.modal.editTitle' : 'soaApp.labels.clf.modal.createTitle')}
      onClose={onClose}
      testId="clf-label-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={invalid || save.isPending}
            onClick={() => onSubmit()}
            data-testid="clf-label-save"
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <div className="mb-3">
          <label htmlFor="clf-label-name" className="form-label">
            {t('soaApp.labels.common.name')}
          </label>
          <input
            id="clf-label-name"
            className={inputClass(violations.name, show('name'))}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              touch('name');
            }}
            autoFocus
            autoComplete="off"
            data-testid="clf-label-name"
          />
          {show('name') && violations.name && <ViolationMessage violation={violations.name} />}
        </div>
        <div className="mb-3">
          <label htmlFor="clf-label-description" className="form-label">
            {t('soaApp.labels.clf.description')}
          </label>
          <textarea
            id="clf-label-description"
            className={inputClass(violations.description, show('description'))}
            rows={2}
            value={description}
            onChange={(e) => {
              setDescription(e.target.value);
              touch('description');
            }}
            data-testid="clf-label-description"
          />
          {show('description') && violations.description && (
            <ViolationMessage violation={violations.description} />
          )}
        </div>
        <div className="mb-3">
          <div className="form-label">{t('soaApp.labels.common.color')}</div>
          <ColorPalette
            value={color}
            onChange={setColor}
            label={t('soaApp.labels.common.color')}
            testId="clf-label-color"
          />
          {violations.backgroundColor && <ViolationMessage violation={violations.backgroundColor} />}
        </div>
        <ShortcutKeyInputs
          idPrefix="clf-label"
          prefixKey={prefixKey}
          suffixKey={suffixKey}
          onPrefixChange={(v) => {
            setPrefixKey(v);
            touch('prefixKey');
          }}
          onSuffixChange={(v) => {
            setSuffixKey(v);
            touch('suffixKey');
          }}
          prefixViolation={show('prefixKey') ? violations.prefixKey : null}
          suffixViolation={show('suffixKey') ? violations.suffixKey : null}
        />
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
