/**
 * Label hotkeys (spec 3 section 3, issue 30): a label with a suffix key is applied by typing its prefix key
 * and then its suffix key (or the suffix key alone when it has no prefix key) in a workspace, on the selected
 * text or tokens for a NER tag type, on the step for a classifier type.
 *
 * Decisions the spec leaves open, written down here:
 * - A label's keys are a sequence of one or two letters. Two labels of the same node conflict when one's
 *   sequence equals or starts the other's (typing `a` could not tell a label `a` from a label `a b`).
 * - The letters the workspaces already use on their own (`l` label menu, `h` hidden tokens, `p` actor change,
 *   `e` extract) cannot start a label's sequence.
 * - A conflict is refused when the label is saved (field suffixKey, key soaApp.label.shortcutConflict or
 *   soaApp.label.shortcutReserved); labels saved before the rule, or imported, can still conflict: the workspace
 *   legend marks them and applies neither.
 * Pure: no I/O.
 */
import type { Violation } from './validation';

/** Single letters the workspaces use as shortcuts of their own. */
export const RESERVED_SHORTCUT_KEYS: readonly string[] = ['l', 'h', 'p', 'e'];

export const SHORTCUT_MESSAGES = {
  'soaApp.label.shortcutConflict': 'These keys clash with the keys of another label of this node.',
  'soaApp.label.shortcutReserved': 'The first key is a workspace shortcut (l, h, p, e): choose another.',
} as const;

export interface ShortcutKeys {
  prefixKey?: string | null;
  suffixKey?: string | null;
}

export interface ShortcutLabel extends ShortcutKeys {
  id: number;
  name: string;
}

/** The keys to type, in order: [] without a suffix key. */
export function shortcutSequence(keys: ShortcutKeys): string[] {
  if (!keys.suffixKey) return [];
  return keys.prefixKey ? [keys.prefixKey, keys.suffixKey] : [keys.suffixKey];
}

/** The sequence for people: `a b`, or `b`. */
export const shortcutText = (keys: ShortcutKeys) => shortcutSequence(keys).join(' ');

const startsWith = (longer: readonly string[], shorter: readonly string[]) =>
  shorter.length > 0 && shorter.every((k, i) => longer[i] === k);

/** Whether two sequences cannot both be typed (one equals or starts the other). */
export function sequencesClash(a: readonly string[], b: readonly string[]): boolean {
  return a.length <= b.length ? startsWith(b, a) : startsWith(a, b);
}

/**
 * The keys of a label (`id` undefined for a new one) against the node's other labels: null, a reserved first
 * key, or the first label it clashes with.
 */
export function shortcutConflictRule(
  draft: ShortcutKeys & { id?: number },
  nodeLabels: readonly ShortcutLabel[],
): Violation | null {
  const seq = shortcutSequence(draft);
  if (!seq.length) return null;
  if (RESERVED_SHORTCUT_KEYS.includes(seq[0]))
    return { code: 'NotUnique', key: 'soaApp.label.shortcutReserved', params: { key: seq[0] } };
  const other = nodeLabels.find((l) => l.id !== draft.id && sequencesClash(seq, shortcutSequence(l)));
  return other
    ? { code: 'NotUnique', key: 'soaApp.label.shortcutConflict', params: { name: other.name } }
    : null;
}

/** Labels of one node whose keys clash with another's or start with a reserved key: id to the reason. */
export function shortcutConflicts(labels: readonly ShortcutLabel[]): Map<number, Violation> {
  const found = new Map<number, Violation>();
  for (const label of labels) {
    const v = shortcutConflictRule(label, labels);
    if (v) found.set(label.id, v);
  }
  return found;
}

export type ShortcutStep<T> =
  { kind: 'apply'; label: T } | { kind: 'pending'; keys: string[] } | { kind: 'none' };

/**
 * One typed key after the `pending` ones: a label to apply, a longer sequence still possible, or nothing
 * (then the key starts afresh: a stray prefix does not swallow the next label's key). Conflicting labels are
 * never applied.
 */
export function nextShortcutStep<T extends ShortcutLabel>(
  labels: readonly T[],
  pending: readonly string[],
  key: string,
): ShortcutStep<T> {
  const conflicts = shortcutConflicts(labels);
  const usable = labels.filter((l) => !conflicts.has(l.id) && shortcutSequence(l).length);
  const attempt = (typed: string[]): ShortcutStep<T> => {
    const exact = usable.find((l) => {
      const seq = shortcutSequence(l);
      return seq.length === typed.length && seq.every((k, i) => k === typed[i]);
    });
    if (exact) return { kind: 'apply', label: exact };
    return usable.some((l) => startsWith(shortcutSequence(l), typed))
      ? { kind: 'pending', keys: typed }
      : { kind: 'none' };
  };
  const withPending = attempt([...pending, key]);
  if (withPending.kind !== 'none' || !pending.length) return withPending;
  return attempt([key]);
}
