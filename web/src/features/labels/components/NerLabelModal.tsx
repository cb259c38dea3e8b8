/**
 * Create or edit a NER tag type: name (<= 100, letters, digits, spaces and - _ , ( ) / .), background and
 * text colours, parent, data format, selectable / disabled / mandatory flags and the shortcut keys.
 * `restricted` is the variant for WRITE on the node (spec 2 section 6, the labelling menu): only the name and
 * colours can be changed (the API keeps the rest), the other fields show disabled.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DataFormats, type DataFormat, type NerTagTypeDTO } from '@domain/label-types';
import { descendantIds, nerTagTypeViolations, normalizeNerTagType } from '@domain/labels';
import { inputClass } from '../../../components/FormField';
import { readableTextColor } from '../../../components/TagBadge';
import { TAG_PALETTE, nextTagColor } from '../../processes/palette';
import { useSaveNerTagType } from '../api';
import { ColorField, LabelField, LabelFormModal, NameField, useShownFields } from './LabelFields';
import { ShortcutKeyInputs } from './ShortcutKeyInputs';

const TEXT_COLORS: readonly string[] = ['#ffffff', '#1f2328', ...TAG_PALETTE];

export interface NerLabelModalProps {
  nodeId: number;
  label?: NerTagTypeDTO;
  /** The node's tag types (flat). */
  all: readonly NerTagTypeDTO[];
  /** The parent of a new tag type. */
  parentId?: number | null;
  /** Only name and colours (WRITE on the node). */
  restricted?: boolean;
  /** After a save, before the modal closes. */
  onSaved?: (saved: NerTagTypeDTO) => void;
  onClose: () => void;
}

export function NerLabelModal({
  nodeId,
  label,
  all,
  parentId: initialParentId = null,
  restricted = false,
  onSaved,
  onClose,
}: NerLabelModalProps) {
  const { t } = useTranslation();
  const save = useSaveNerTagType(nodeId);
  const [name, setName] = useState(label?.name ?? '');
  // A new label takes a colour no other label of the node has yet.
  const [initialColor] = useState(() => nextTagColor(all.map((l) => l.backgroundColor)));
  const [backgroundColor, setBackgroundColor] = useState(label?.backgroundColor ?? initialColor);
  const [textColor, setTextColor] = useState(label?.textColor ?? readableTextColor(initialColor));
  const [textColorChosen, setTextColorChosen] = useState(!!label);
  const [parentId, setParentId] = useState<number | null>(label ? label.parentId : initialParentId);
  const [dataFormat, setDataFormat] = useState<DataFormat | null>(label?.dataFormat ?? null);
  const [selectable, setSelectable] = useState(label?.selectable ?? true);
  const [disabled, setDisabled] = useState(label?.disabled ?? false);
  const [mandatory, setMandatory] = useState(label?.mandatory ?? false);
  const [keys, setKeys] = useState({ prefixKey: label?.prefixKey ?? '', suffixKey: label?.suffixKey ?? '' });
  const { show, touch, setSubmitted } = useShownFields();

  // A label cannot move under itself or one of its descendants.
  const parentOptions = useMemo(() => {
    if (!label) return all;
    const below = descendantIds(label.id, all);
    return all.filter((l) => l.id !== label.id && !below.has(l.id));
  }, [all, label]);

  const draft = { id: label?.id, name, backgroundColor, textColor, parentId, ...keys };
  const violations = nerTagTypeViolations(draft, all);
  const invalid = Object.values(violations).some(Boolean);

  const onSubmit = (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    save.mutate(
      { ...normalizeNerTagType(draft), dataFormat, selectable, disabled, mandatory },
      {
        onSuccess: (saved) => {
          onSaved?.(saved);
          onClose();
        },
      },
    );
  };

  const checkbox = (id: string, checked: boolean, onChange: (v: boolean) => void, text: string) => (
    <div className="form-check form-check-inline">
      <input
        id={id}
        type="checkbox"
        className="form-check-input"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={id}
      />
      <label htmlFor={id} className="form-check-label">
        {text}
      </label>
    </div>
  );

  return (
    <LabelFormModal
      title={t(label ? 'soaApp.labels.ner.modal.editTitle' : 'soaApp.labels.ner.modal.createTitle')}
      size="lg"
      testId="ner-label-modal"
      saveTestId="ner-label-save"
      saveDisabled={invalid || save.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <div className="row g-3 mb-3">
        <NameField
          id="ner-label-name"
          className="col-md-7"
          value={name}
          onChange={(v) => {
            setName(v);
            touch('name');
          }}
          violation={show('name') ? violations.name : null}
          help={t('soaApp.labels.ner.nameHelp')}
        />
        <LabelField
          id="ner-label-parent"
          className="col-md-5"
          label={t('soaApp.labels.ner.parent')}
          violation={violations.parentId}
        >
          <select
            id="ner-label-parent"
            className={inputClass(violations.parentId, true, 'form-select')}
            value={parentId ?? ''}
            onChange={(e) => setParentId(e.target.value === '' ? null : Number(e.target.value))}
            disabled={restricted}
            data-testid="ner-label-parent"
          >
            <option value="">{t('soaApp.labels.ner.noParent')}</option>
            {parentOptions.map((l) => (
              <option key={l.id} value={l.id}>
                {l.path || l.name}
              </option>
            ))}
          </select>
        </LabelField>
      </div>

      <div className="row g-3 mb-3">
        <ColorField
          className="col-md-6"
          label={t('soaApp.labels.ner.backgroundColor')}
          value={backgroundColor}
          onChange={(c) => {
            setBackgroundColor(c);
            if (!textColorChosen) setTextColor(readableTextColor(c) === '#fff' ? '#ffffff' : '#1f2328');
          }}
          violation={violations.backgroundColor}
          testId="ner-label-background"
        />
        <ColorField
          className="col-md-6"
          label={t('soaApp.labels.ner.textColor')}
          value={textColor}
          colors={TEXT_COLORS}
          onChange={(c) => {
            setTextColor(c);
            setTextColorChosen(true);
          }}
          violation={violations.textColor}
          testId="ner-label-text-color"
        />
      </div>

      {restricted && (
        <p className="small text-body-secondary" data-testid="ner-label-restricted">
          {t('soaApp.labels.ner.restricted')}
        </p>
      )}
      <fieldset disabled={restricted}>
        <div className="row g-3 mb-3">
          <LabelField
            id="ner-label-data-format"
            className="col-md-6"
            label={t('soaApp.labels.ner.dataFormat')}
            violation={null}
          >
            <select
              id="ner-label-data-format"
              className="form-select"
              value={dataFormat ?? ''}
              onChange={(e) => setDataFormat(e.target.value === '' ? null : (e.target.value as DataFormat))}
              data-testid="ner-label-data-format"
            >
              <option value="">{t('soaApp.labels.ner.noDataFormat')}</option>
              {DataFormats.map((f) => (
                <option key={f} value={f}>
                  {t(`soaApp.labels.ner.dataFormats.${f}`)}
                </option>
              ))}
            </select>
          </LabelField>
          <div className="col-md-6 d-flex align-items-end flex-wrap pb-1">
            {checkbox('ner-label-selectable', selectable, setSelectable, t('soaApp.labels.ner.selectable'))}
            {checkbox('ner-label-disabled', disabled, setDisabled, t('soaApp.labels.ner.disabled'))}
            {checkbox('ner-label-mandatory', mandatory, setMandatory, t('soaApp.labels.ner.mandatory'))}
          </div>
        </div>

        <ShortcutKeyInputs
          idPrefix="ner-label"
          values={keys}
          onChange={(key, v) => {
            setKeys((k) => ({ ...k, [key]: v }));
            touch(key);
          }}
          violation={(key) => (show(key) ? violations[key] : null)}
        />
      </fieldset>

      <div className="d-flex align-items-center gap-2">
        <span className="small text-body-secondary">{t('soaApp.labels.common.preview')}</span>
        <span
          className="badge fw-medium"
          style={{ backgroundColor, color: textColor }}
          data-testid="ner-label-preview"
        >
          {name.trim() || t('soaApp.labels.common.name')}
        </span>
      </div>
    </LabelFormModal>
  );
}
