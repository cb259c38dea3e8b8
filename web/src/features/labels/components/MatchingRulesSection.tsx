/**
 * The matching rules of a lexicon node, grouped by label, matching type and tolerance: each group shows the
 * label with its colour, the type, the tolerance in brackets, edit and delete icons, and its expressions as
 * chips (duplicates highlighted). 'Create a new Matching Rule' opens the editor.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { duplicatedExpressions } from '@domain/matching-rules';
import { IconPlus } from '../../../components/icons';
import { labelQueries, useSaveRulesBatch } from '../api';
import { TOLERANCE_NAMES, arrowPath, groupRules, type RuleGroup } from '../rules';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { LabelRowActions } from './LabelRowActions';
import { MatchingRuleEditor } from './MatchingRuleEditor';
import { DelayedSpinner, LoadError } from './SectionStatus';
import '../labels.css';

export interface MatchingRulesSectionProps {
  nodeId: number;
  readOnly: boolean;
}

type Dialog = { kind: 'edit'; group?: RuleGroup } | { kind: 'delete'; group: RuleGroup } | null;

export function MatchingRulesSection({ nodeId, readOnly }: MatchingRulesSectionProps) {
  const { t } = useTranslation();
  const labels = useQuery(labelQueries.nerTagTypes(nodeId));
  const rules = useQuery(labelQueries.matchingRules(nodeId));
  const batch = useSaveRulesBatch(nodeId);
  const [dialog, setDialog] = useState<Dialog>(null);
  const allLabels = useMemo(() => labels.data ?? [], [labels.data]);
  const groups = useMemo(() => groupRules(rules.data ?? [], allLabels), [rules.data, allLabels]);

  const deleteGroup = (group: RuleGroup) =>
    batch.mutate(
      {
        nerTagTypeId: group.nerTagTypeId,
        deletedRuleIds: group.rules.map((r) => r.id),
        updatedRules: [],
        newRules: [],
      },
      { onSuccess: () => setDialog(null) },
    );

  return (
    <div data-testid="matching-rules">
      {!readOnly && (
        <div className="labels-toolbar">
          <button
            type="button"
            className="btn btn-sm btn-primary"
            disabled={allLabels.length === 0}
            title={allLabels.length === 0 ? t('soaApp.labels.rules.needLabel') : undefined}
            onClick={() => setDialog({ kind: 'edit' })}
            data-testid="rule-create"
          >
            <IconPlus className="me-1" />
            {t('soaApp.labels.rules.create')}
          </button>
        </div>
      )}

      {rules.isPending || labels.isPending ? (
        <DelayedSpinner />
      ) : rules.isError || labels.isError ? (
        <LoadError onRetry={() => void Promise.all([rules.refetch(), labels.refetch()])} />
      ) : groups.length === 0 ? (
        <div className="labels-empty">{t('soaApp.labels.rules.empty')}</div>
      ) : (
        groups.map((group) => {
          const duplicates = duplicatedExpressions(group.rules.map((r) => r.expression));
          const color = group.label?.backgroundColor ?? '#6c757d';
          return (
            <div
              key={group.key}
              className="labels-rule-group"
              data-testid="rule-group"
              data-label-id={group.nerTagTypeId}
              data-matching-type={group.matchingType}
              data-tolerance={group.tolerance ?? undefined}
            >
              <div className="labels-rule-group-header">
                <span className="labels-dot" style={{ backgroundColor: color }} />
                <span
                  className="fw-medium text-truncate"
                  title={arrowPath(group.label?.path, group.label?.name ?? '')}
                >
                  {group.label?.name ?? t('soaApp.labels.rules.unknownLabel')}
                </span>
                <span className="badge text-bg-light border" data-testid="rule-group-type">
                  {t(`soaApp.labels.rules.types.${group.matchingType}`)}
                  {group.tolerance !== null && (
                    <span className="ms-1" data-testid="rule-group-tolerance">
                      ({t(`soaApp.labels.rules.tolerances.${TOLERANCE_NAMES[group.tolerance] ?? 'MEDIUM'}`)})
                    </span>
                  )}
                </span>
                <span className="small text-body-secondary ms-auto">{group.rules.length}</span>
                {!readOnly && (
                  <LabelRowActions
                    testIdPrefix="rule-group"
                    onEdit={() => setDialog({ kind: 'edit', group })}
                    onDelete={() => setDialog({ kind: 'delete', group })}
                  />
                )}
              </div>
              <div className="labels-chip-list">
                {group.rules.map((rule) => {
                  const dup = duplicates.has(rule.expression.trim());
                  return (
                    <span
                      key={rule.id}
                      className={`labels-chip ${dup ? 'duplicate' : ''}`}
                      title={dup ? t('soaApp.matchingRule.listDuplicates') : undefined}
                      data-testid="rule-chip"
                      data-duplicate={dup || undefined}
                    >
                      {rule.expression}
                    </span>
                  );
                })}
              </div>
            </div>
          );
        })
      )}

      {dialog?.kind === 'edit' && (
        <MatchingRuleEditor
          nodeId={nodeId}
          labels={allLabels}
          group={dialog.group}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          danger
          title={t('soaApp.labels.rules.deleteTitle')}
          pending={batch.isPending}
          testId="rule-delete-modal"
          onClose={() => setDialog(null)}
          onConfirm={() => deleteGroup(dialog.group)}
        >
          {t('soaApp.labels.rules.deleteQuestion', {
            n: dialog.group.rules.length,
            name: dialog.group.label?.name ?? '',
          })}
        </ConfirmModal>
      )}
    </div>
  );
}
