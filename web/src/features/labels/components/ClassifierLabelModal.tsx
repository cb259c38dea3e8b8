/** Create or edit a classifier type: name, description (<= 255), colour from the palette, prefix/suffix keys. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClassifierTypeDTO } from '@domain/label-types';
import { classifierTypeViolations, normalizeClassifierType } from '@domain/labels';
import { inputClass } from '../../../components/FormField';
import { nextTagColor } from '../../processes/palette';
import { useSaveClassifierType } from '../api';
import { ColorField, LabelField, LabelFormModal, NameField, useShownFields } from './LabelFields';
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
  const [color, setColor] = useState(
    () => label?.backgroundColor ?? nextTagColor(all.map((l) => l.backgroundColor)),
  );
  const [keys, setKeys] = useState({ prefixKey: label?.prefixKey ?? '', suffixKey: label?.suffixKey ?? '' });
  const { show, touch, setSubmitted } = useShownFields();

  const draft = { name, description, backgroundColor: color, ...keys };
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
    <LabelFormModal
      title={t(label ? 'soaApp.labels.clf.modal.editTitle' : 'soaApp.labels.clf.modal.createTitle')}
      testId="clf-label-modal"
      saveTestId="clf-label-save"
      saveDisabled={invalid || save.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <NameField
        id="clf-label-name"
        value={name}
        onChange={(v) => {
          setName(v);
          touch('name');
        }}
        violation={show('name') ? violations.name : null}
      />
      <LabelField
        id="clf-label-description"
        label={t('soaApp.labels.clf.description')}
        violation={show('description') ? violations.description : null}
      >
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
      </LabelField>
      <ColorField
        label={t('soaApp.labels.common.color')}
        value={color}
        onChange={setColor}
        violation={violations.backgroundColor}
        testId="clf-label-color"
      />
      <ShortcutKeyInputs
        idPrefix="clf-label"
        values={keys}
        onChange={(key, v) => {
          setKeys((k) => ({ ...k, [key]: v }));
          touch(key);
        }}
        violation={(key) => (show(key) ? violations[key] : null)}
      />
    </LabelFormModal>
  );
}
