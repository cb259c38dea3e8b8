import {
  nextShortcutStep,
  sequencesClash,
  shortcutConflictRule,
  shortcutConflicts,
  shortcutSequence,
  shortcutText,
} from './label-shortcuts';

const label = (id: number, prefixKey: string | null, suffixKey: string | null) => ({
  id,
  name: `L${id}`,
  prefixKey,
  suffixKey,
});

describe('label shortcuts', () => {
  it('types the prefix key, then the suffix key; nothing without a suffix key', () => {
    expect(shortcutSequence({ prefixKey: 'a', suffixKey: 'b' })).toEqual(['a', 'b']);
    expect(shortcutSequence({ prefixKey: null, suffixKey: 'b' })).toEqual(['b']);
    expect(shortcutSequence({ prefixKey: 'a', suffixKey: null })).toEqual([]);
    expect(shortcutText({ prefixKey: 'a', suffixKey: 'b' })).toBe('a b');
  });

  it('calls two sequences a clash when one equals or starts the other', () => {
    expect(sequencesClash(['a', 'b'], ['a', 'b'])).toBe(true);
    expect(sequencesClash(['a'], ['a', 'b'])).toBe(true);
    expect(sequencesClash(['a', 'b'], ['a'])).toBe(true);
    expect(sequencesClash(['a', 'b'], ['a', 'c'])).toBe(false);
    expect(sequencesClash(['b'], ['a', 'b'])).toBe(false);
    expect(sequencesClash([], ['a'])).toBe(false);
  });

  it('refuses a clash with another label of the node and a reserved first key, not the label itself', () => {
    const node = [label(1, 'a', 'b'), label(2, null, 'c')];
    expect(shortcutConflictRule({ prefixKey: 'a', suffixKey: 'b' }, node)?.key).toBe(
      'soaApp.label.shortcutConflict',
    );
    expect(shortcutConflictRule({ suffixKey: 'a' }, node)?.key).toBe('soaApp.label.shortcutConflict');
    expect(shortcutConflictRule({ prefixKey: 'c', suffixKey: 'x' }, node)?.key).toBe(
      'soaApp.label.shortcutConflict',
    );
    expect(shortcutConflictRule({ id: 1, prefixKey: 'a', suffixKey: 'b' }, node)).toBeNull();
    expect(shortcutConflictRule({ prefixKey: 'a', suffixKey: 'd' }, node)).toBeNull();
    expect(shortcutConflictRule({ suffixKey: 'h' }, [])?.key).toBe('soaApp.label.shortcutReserved');
    expect(shortcutConflictRule({ prefixKey: 'x', suffixKey: 'h' }, [])).toBeNull();
    expect(shortcutConflictRule({}, node)).toBeNull();
  });

  it('lists every label of a clash (saved before the rule)', () => {
    const found = shortcutConflicts([
      label(1, 'a', 'b'),
      label(2, 'a', 'b'),
      label(3, null, 'c'),
      label(4, null, 'l'),
    ]);
    expect([...found.keys()]).toEqual([1, 2, 4]);
  });

  it('applies a label at its last key, waits after a prefix, starts afresh after a stray key', () => {
    const labels = [label(1, 'a', 'b'), label(2, null, 'c'), label(3, 'x', 'y'), label(4, 'x', 'y')];
    expect(nextShortcutStep(labels, [], 'a')).toEqual({ kind: 'pending', keys: ['a'] });
    expect(nextShortcutStep(labels, ['a'], 'b')).toEqual({ kind: 'apply', label: labels[0] });
    expect(nextShortcutStep(labels, [], 'c')).toEqual({ kind: 'apply', label: labels[1] });
    expect(nextShortcutStep(labels, ['a'], 'c')).toEqual({ kind: 'apply', label: labels[1] });
    expect(nextShortcutStep(labels, ['a'], 'z')).toEqual({ kind: 'none' });
    // clashing labels are never applied
    expect(nextShortcutStep(labels, [], 'x')).toEqual({ kind: 'none' });
  });
});
