/**
 * The matching-rule editor: label (options show the label path joined by arrows), matching type, tolerance
 * (FUZZY only) and the expression list. Editing a group compares its old rules with the edited list
 * (domain diffExpressions) and saves removed, kept and new rules in one batch call.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MatchingTypes,
  Tolerances,
  type BatchRuleRequest,
  type MatchingType,
  type NerTagTypeDTO,
} from '@domain/label-types';
import {
  diffExpressions,
  expressionListRule,
  expressionRule,
  normalizeTolerance,
  toleranceRule,
} from '@domain/matching-rules';
import { Modal } from '../../../components/Modal';
import { useSaveRulesBatch } from '../api';
import { arrowPath, type RuleGroup } from '../rules';
import { ExpressionListEditor } from './ExpressionListEditor';

export interface MatchingRuleEditorProps {
  nodeId: number;
  labels: readonly NerTagTypeDTO[];
  /** The group to edit; absent to create rules. */
  group?: RuleGroup;
  onClose: () => void;
}

export function MatchingRuleEditor({ nodeId, labels, group, onClose }: MatchingRuleEditorProps) {
  const { t } = useTranslation();
  const save = useSaveRulesBatch(nodeId);
  const [labelId, setLabelId] = useState<number | null>(group?.nerTagTypeId ?? null);
  const [matchingType, setMatchingType] = useState<MatchingType | null>(group?.matchingType ?? null);
  const [tolerance, setTolerance] = useState<number | null>(group?.tolerance ?? null);
  const [expressions, setExpressions] = useState<string[]>(() => group?.rules.map((r) => r.expression) ?? []);

  const labelMissing = labelId === null;
  const typeMissing = matchingType === null;
  const toleranceViolation = matchingType ? toleranceRule(matchingType, tolerance) : null;
  const listViolation = expressionListRule(expressions);
  const expressionsInvalid = !!matchingType && expressions.some((e) => expressionRule(e, matchingType));
  const valid = !labelMissing && !typeMissing && !toleranceViolation && !listViolation && !expressionsInvalid;

  const onSave = () => {
    if (!valid || labelId === null || matchingType === null) return;
    const tol = normalizeTolerance(matchingType, tolerance);
    const diff = diffExpressions(group?.rules ?? [], expressions);
    const body: BatchRuleRequest = {
      nerTagTypeId: labelId,
      deletedRuleIds: diff.removed.map((r) => r.id),
      updatedRules: diff.updated.map((r) => ({
        id: r.id,
        expression: r.expression.trim(),
        matchingType,
        nerTagTypeId: labelId,
        tolerance: tol,
      })),
      newRules: diff.new.map((expression) => ({
        expression,
        matchingType,
        nerTagTypeId: labelId,
        tolerance: tol,
      })),
    };
    save.mutate(body, { onSuccess: onClose });
  };

  return (
    <Modal
      title={t(group ? 'soaApp.labels.rules.editor.editTitle' : 'soaApp.labels.rules.editor.createTitle')}
      onClose={onClose}
      size="lg"
      testId="rule-editor"
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={onClose}
            data-testid="rule-cancel"
          >
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!valid || save.isPending}
            onClick={onSave}
            data-testid="rule-save"
          >
            {save.isPending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <div className="row g-3 mb-3">
        <div className="col-md-6">
          <label htmlFor="rule-label" className="form-label">
            {t('soaApp.labels.rules.label')}
          </label>
          <select
            id="rule-label"
            className="form-select"
            value={labelId ?? ''}
            // A group belongs to its label: the batch call works on one label.
            disabled={!!group}
            onChange={(e) => setLabelId(e.target.value === '' ? null : Number(e.target.value))}
            data-testid="rule-label"
          >
            <option value="">{t('soaApp.labels.rules.chooseLabel')}</option>
            {labels.map((l) => (
              <option key={l.id} value={l.id}>
                {arrowPath(l.path, l.name)}
              </option>
            ))}
          </select>
        </div>
        <div className="col-md-3">
          <label htmlFor="rule-type" className="form-label">
            {t('soaApp.labels.rules.type')}
          </label>
          <select
            id="rule-type"
            className="form-select"
            value={matchingType ?? ''}
            onChange={(e) => setMatchingType(e.target.value === '' ? null : (e.target.value as MatchingType))}
            data-testid="rule-type"
          >
            <option value="">{t('soaApp.labels.rules.chooseType')}</option>
            {MatchingTypes.map((type) => (
              <option key={type} value={type}>
                {t(`soaApp.labels.rules.types.${type}`)}
              </option>
            ))}
          </select>
        </div>
        {matchingType === 'FUZZY' && (
          <div className="col-md-3">
            <label htmlFor="rule-tolerance" className="form-label">
              {t('soaApp.labels.rules.tolerance')}
            </label>
            <select
              id="rule-tolerance"
              className="form-select"
              value={tolerance ?? ''}
              onChange={(e) => setTolerance(e.target.value === '' ? null : Number(e.target.value))}
              data-testid="rule-tolerance"
            >
              <option value="">{t('soaApp.labels.rules.chooseTolerance')}</option>
              {Object.entries(Tolerances).map(([name, value]) => (
                <option key={value} value={value}>
                  {t(`soaApp.labels.rules.tolerances.${name}`)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <ExpressionListEditor expressions={expressions} matchingType={matchingType} onChange={setExpressions} />
    </Modal>
  );
}
