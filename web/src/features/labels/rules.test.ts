import type { MatchingRuleDTO, NerTagTypeDTO } from '@domain/label-types';
import { arrowPath, groupRules } from './rules';

const label = (id: number, name: string, path = name): NerTagTypeDTO => ({
  id,
  nodeId: 1,
  parentId: null,
  name,
  backgroundColor: '#000000',
  textColor: '#ffffff',
  mandatory: false,
  prefixKey: null,
  suffixKey: null,
  dataFormat: null,
  selectable: true,
  disabled: false,
  path,
});

let nextId = 1;
const rule = (
  nerTagTypeId: number,
  expression: string,
  matchingType: MatchingRuleDTO['matchingType'],
  tolerance: number | null = null,
): MatchingRuleDTO => ({ id: nextId++, nerTagTypeId, expression, matchingType, tolerance });

describe('groupRules', () => {
  it('groups rules by label, matching type and tolerance, in label-path order', () => {
    const labels = [label(1, 'Zeta'), label(2, 'Alpha')];
    const groups = groupRules(
      [
        rule(1, 'a', 'EXACT'),
        rule(2, 'b', 'FUZZY', 2),
        rule(2, 'c', 'FUZZY', 3),
        rule(2, 'd', 'FUZZY', 2),
        rule(2, 'e', 'EXACT'),
        rule(1, 'f', 'EXACT'),
      ],
      labels,
    );
    expect(
      groups.map((g) => [g.label?.name, g.matchingType, g.tolerance, g.rules.map((r) => r.expression)]),
    ).toEqual([
      ['Alpha', 'EXACT', null, ['e']],
      ['Alpha', 'FUZZY', 2, ['b', 'd']],
      ['Alpha', 'FUZZY', 3, ['c']],
      ['Zeta', 'EXACT', null, ['a', 'f']],
    ]);
  });

  it('ignores a tolerance on rules that are not FUZZY and keeps rules of unknown labels', () => {
    const groups = groupRules([rule(9, 'x', 'REGEX', 2), rule(9, 'y', 'REGEX', null)], []);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ nerTagTypeId: 9, tolerance: null, label: null });
  });
});

describe('arrowPath', () => {
  it('joins the label path with arrows, falling back to the name', () => {
    expect(arrowPath('Person -> Surname', 'Surname')).toBe('Person → Surname');
    expect(arrowPath('', 'Solo')).toBe('Solo');
  });
});
