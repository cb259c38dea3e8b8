/**
 * Create or edit a NER relation type: name, colour, priority (lowest..highest, default medium), from and to
 * labels (or Any, id -1, sent as absent) and the kind: normal, strict or merge (merge makes 'to' equal to
 * 'from' and disables it).
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RelationPriorities, type NerTagTypeDTO, type RelationTypeDTO } from '@domain/label-types';
import {
  ANY_LABEL_ID,
  DEFAULT_RELATION_PRIORITY,
  normalizeRelationType,
  relationTypeViolations,
} from '@domain/labels';
import { inputClass } from '../../../components/FormField';
import { DEFAULT_TAG_COLOR } from '../../processes/palette';
import { useSaveRelationType } from '../api';
import { arrowPath } from '../rules';
import { ColorField, LabelField, LabelFormModal, NameField, useShownFields } from './LabelFields';

type Kind = 'normal' | 'strict' | 'merge';
const KINDS: readonly Kind[] = ['normal', 'strict', 'merge'];
/** Highest first, as the picker lists them. */
const PRIORITIES = Object.entries(RelationPriorities).sort(([, a], [, b]) => b - a);

export interface RelationModalProps {
  nodeId: number;
  relation?: RelationTypeDTO;
  labels: readonly NerTagTypeDTO[];
  onClose: () => void;
}

const kindOf = (r?: RelationTypeDTO): Kind => (r?.merge ? 'merge' : r?.strict ? 'strict' : 'normal');

export function RelationModal({ nodeId, relation, labels, onClose }: RelationModalProps) {
  const { t } = useTranslation();
  const save = useSaveRelationType(nodeId);
  const [name, setName] = useState(relation?.name ?? '');
  const [color, setColor] = useState(relation?.color ?? DEFAULT_TAG_COLOR);
  const [priority, setPriority] = useState(relation?.priority ?? DEFAULT_RELATION_PRIORITY);
  const [fromId, setFromId] = useState<number>(relation?.fromId ?? ANY_LABEL_ID);
  const [toId, setToId] = useState<number>(relation?.toId ?? ANY_LABEL_ID);
  const [kind, setKind] = useState<Kind>(kindOf(relation));
  const { show, touch, setSubmitted } = useShownFields();

  const effectiveTo = kind === 'merge' ? fromId : toId;
  const draft = { name, color, priority, fromId, toId: effectiveTo };
  const violations = relationTypeViolations(
    draft,
    labels.map((l) => l.id),
  );
  const invalid = Object.values(violations).some(Boolean);

  const onSubmit = (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    if (invalid) return;
    const body = normalizeRelationType({
      id: relation?.id,
      nodeId,
      name: name.trim(),
      color,
      priority,
      fromId,
      toId: effectiveTo,
      strict: kind === 'strict',
      merge: kind === 'merge',
    });
    save.mutate(body, { onSuccess: onClose });
  };

  const labelSelect = (id: string, value: number, onChange: (v: number) => void, disabled = false) => (
    <select
      id={id}
      className="form-select"
      value={value}
      disabled={disabled}
      onChange={(e) => onChange(Number(e.target.value))}
      data-testid={id}
    >
      <option value={ANY_LABEL_ID}>{t('soaApp.labels.relations.any')}</option>
      {labels.map((l) => (
        <option key={l.id} value={l.id}>
          {arrowPath(l.path, l.name)}
        </option>
      ))}
    </select>
  );

  return (
    <LabelFormModal
      title={t(
        relation ? 'soaApp.labels.relations.modal.editTitle' : 'soaApp.labels.relations.modal.createTitle',
      )}
      testId="relation-modal"
      saveTestId="relation-save"
      saveDisabled={invalid || save.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <NameField
        id="relation-name"
        value={name}
        onChange={(v) => {
          setName(v);
          touch('name');
        }}
        violation={show('name') ? violations.name : null}
      />
      <ColorField
        label={t('soaApp.labels.common.color')}
        value={color}
        onChange={setColor}
        violation={violations.color}
        testId="relation-color"
      />
      <LabelField
        id="relation-priority"
        label={t('soaApp.labels.relations.priority')}
        violation={violations.priority}
      >
        <select
          id="relation-priority"
          className={inputClass(violations.priority, true, 'form-select')}
          value={priority}
          onChange={(e) => setPriority(Number(e.target.value))}
          data-testid="relation-priority"
        >
          {PRIORITIES.map(([key, value]) => (
            <option key={key} value={value}>
              {t(`soaApp.labels.relations.priorities.${key}`)}
            </option>
          ))}
        </select>
      </LabelField>
      <div className="row g-3 mb-3">
        <LabelField
          id="relation-from"
          className="col-sm-6"
          label={t('soaApp.labels.relations.from')}
          violation={violations.fromId}
        >
          {labelSelect('relation-from', fromId, setFromId)}
        </LabelField>
        <LabelField
          id="relation-to"
          className="col-sm-6"
          label={t('soaApp.labels.relations.to')}
          violation={violations.toId}
        >
          {labelSelect('relation-to', effectiveTo, setToId, kind === 'merge')}
        </LabelField>
      </div>
      <fieldset>
        <legend className="form-label fs-6">{t('soaApp.labels.relations.kind')}</legend>
        {KINDS.map((k) => (
          <div key={k} className="form-check form-check-inline">
            <input
              id={`relation-kind-${k}`}
              type="radio"
              name="relation-kind"
              className="form-check-input"
              checked={kind === k}
              onChange={() => setKind(k)}
              data-testid={`relation-kind-${k}`}
            />
            <label htmlFor={`relation-kind-${k}`} className="form-check-label">
              {t(`soaApp.labels.relations.kinds.${k}`)}
            </label>
          </div>
        ))}
        {kind === 'merge' && <div className="form-text">{t('soaApp.labels.relations.mergeHelp')}</div>}
      </fieldset>
    </LabelFormModal>
  );
}
