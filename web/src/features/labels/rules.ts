/**
 * How the matching-rule list is shown: rules grouped by label, matching type and tolerance (one group per
 * combination, in label-path order), and the words of tolerances and label paths. Display only; the rules
 * of what may be saved are in domain/matching-rules.ts.
 */
import type { MatchingRuleDTO, MatchingType, NerTagTypeDTO } from '@domain/label-types';
// Relative (not @domain) so that the unit test resolves it without a module mapper.
import { TAG_PATH_SEPARATOR } from '../../../../domain/labels';

export interface RuleGroup {
  key: string;
  nerTagTypeId: number;
  matchingType: MatchingType;
  tolerance: number | null;
  label: Pick<NerTagTypeDTO, 'id' | 'name' | 'path' | 'backgroundColor' | 'textColor'> | null;
  rules: MatchingRuleDTO[];
}

const TYPE_ORDER: Record<MatchingType, number> = { EXACT: 0, REGEX: 1, FUZZY: 2 };

export const groupKey = (nerTagTypeId: number, matchingType: MatchingType, tolerance: number | null) =>
  `${nerTagTypeId}|${matchingType}|${tolerance ?? ''}`;

export function groupRules(rules: readonly MatchingRuleDTO[], labels: readonly NerTagTypeDTO[]): RuleGroup[] {
  const byLabel = new Map(labels.map((l) => [l.id, l]));
  const groups = new Map<string, RuleGroup>();
  for (const rule of rules) {
    const tolerance = rule.matchingType === 'FUZZY' ? rule.tolerance : null;
    const key = groupKey(rule.nerTagTypeId, rule.matchingType, tolerance);
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        nerTagTypeId: rule.nerTagTypeId,
        matchingType: rule.matchingType,
        tolerance,
        label: byLabel.get(rule.nerTagTypeId) ?? null,
        rules: [],
      };
      groups.set(key, group);
    }
    group.rules.push(rule);
  }
  const pathOf = (g: RuleGroup) => (g.label?.path || g.label?.name || '').toLowerCase();
  return [...groups.values()].sort(
    (a, b) =>
      pathOf(a).localeCompare(pathOf(b)) ||
      a.nerTagTypeId - b.nerTagTypeId ||
      TYPE_ORDER[a.matchingType] - TYPE_ORDER[b.matchingType] ||
      (a.tolerance ?? 0) - (b.tolerance ?? 0),
  );
}

/** The i18n suffix of a tolerance value (1 LOW, 2 MEDIUM, 3 HIGH). */
export const TOLERANCE_NAMES: Record<number, 'LOW' | 'MEDIUM' | 'HIGH'> = {
  1: 'LOW',
  2: 'MEDIUM',
  3: 'HIGH',
};

/** A label path ('A -> B -> C') as shown in pickers: joined by arrows. */
export const arrowPath = (path: string | null | undefined, name: string) =>
  (path || name).split(TAG_PATH_SEPARATOR).join(' → ');
