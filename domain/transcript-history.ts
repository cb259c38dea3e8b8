/**
 * Undo and redo of the speech workspace's transcript edits (spec 2 section 4; issue 14): every saved edit
 * (inline word fix, split into two words, actor change, extraction, merge, deletion, unclear and properties,
 * time range, hint) is kept as the part of the transcript it changed, before and after; undo writes the
 * before part back in one request, POST api/utterances/batch with the tokens it deletes (one transaction:
 * a refused or interrupted undo changes nothing), redo writes the after part again. The server's rules
 * hold for these writes as for any other: a refused undo changes nothing on the stack. Pure: the editor hook runs it, tests pin it
 * against domain/utterances.ts `planTranscriptWrite`, the server's planner.
 *
 * Decisions:
 * - A change is recorded by comparing the transcript before the write with the one the server answers
 *   after it (the refetch), not by predicting the server: the region is the run of utterances from the first
 *   to the last that differ (actor, links, tokens or any token field). An utterance whose neighbour changed
 *   has changed links, so the region always holds the utterances around it.
 * - Writing a region back: tokens of the current region missing from the target are deleted
 *   (`deletedTokens` of the batch) and the target's utterances that differ are sent with their whole token
 *   lists and token fields, in the same batch. Utterances the server no longer has (emptied and removed) are
 *   sent as new ones (ids from -1 down) and the stack is remapped to the ids the server gives them.
 *   Utterances of the current region missing from the target are emptied by the batch and the server
 *   removes them.
 * - A token the server no longer has (deleted) is sent under its own id: the server keeps deleted tokens
 *   (a day) and brings one named again back with its id, confidence, hints and token tag links
 *   (api/services/utterances.ts), so token ids never change on the stack.
 */
import type { UndoStack } from './undo-stack';

export interface TokenSnap {
  id: number;
  value: string;
  tsStart: number | null;
  tsEnd: number | null;
  properties: string[];
  unclear: boolean;
}

export interface UtteranceSnap {
  id: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  tokens: TokenSnap[];
}

/** One saved edit: the utterances it changed, as they were and as the server saved them. */
export interface TranscriptOp {
  before: UtteranceSnap[];
  after: UtteranceSnap[];
}

export type TranscriptStack = UndoStack<TranscriptOp>;

const tokenSnap = (t: TokenSnap): TokenSnap => ({
  id: t.id,
  value: t.value,
  tsStart: t.tsStart,
  tsEnd: t.tsEnd,
  properties: [...t.properties],
  unclear: t.unclear,
});

const utteranceSnap = (u: UtteranceSnap): UtteranceSnap => ({
  id: u.id,
  actor: u.actor,
  prevId: u.prevId,
  nextId: u.nextId,
  tokens: u.tokens.map(tokenSnap),
});

const sameToken = (a: TokenSnap, b: TokenSnap) =>
  a.id === b.id &&
  a.value === b.value &&
  a.tsStart === b.tsStart &&
  a.tsEnd === b.tsEnd &&
  a.unclear === b.unclear &&
  a.properties.length === b.properties.length &&
  a.properties.every((p, i) => p === b.properties[i]);

const sameTokens = (a: readonly TokenSnap[], b: readonly TokenSnap[]) =>
  a.length === b.length && a.every((t, i) => sameToken(t, b[i]));

const sameUtterance = (a: UtteranceSnap, b: UtteranceSnap) =>
  a === b ||
  (a.id === b.id &&
    a.actor === b.actor &&
    a.prevId === b.prevId &&
    a.nextId === b.nextId &&
    sameTokens(a.tokens, b.tokens));

/**
 * The change a write made: the region of the transcript (in list order) that differs between `before` and
 * `after`, or null when nothing differs.
 */
export function recordChange(
  before: readonly UtteranceSnap[],
  after: readonly UtteranceSnap[],
): TranscriptOp | null {
  let head = 0;
  while (head < before.length && head < after.length && sameUtterance(before[head], after[head])) head++;
  if (head === before.length && head === after.length) return null;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    sameUtterance(before[before.length - 1 - tail], after[after.length - 1 - tail])
  )
    tail++;
  return {
    before: before.slice(head, before.length - tail).map(utteranceSnap),
    after: after.slice(head, after.length - tail).map(utteranceSnap),
  };
}

/** One utterance of the batch (POST api/utterances/batch, docs/api-speech.md). */
export interface ReplayUtterance {
  id: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  /** existing tokens with their fields, or new ones (negative ids) */
  tokens?: TokenSnap[];
}

/** The write that turns the `from` region back into `to`: one batch (both empty: nothing to send). */
export interface ReplayPlan {
  /** The batch's `deletedTokens`: tokens of `from` that `to` does not have. */
  deleteTokens: number[];
  batch: ReplayUtterance[];
  /** Negative ids of the batch mapped to the ids `to` names them by (to remap once the server answers). */
  newUtterances: Map<number, number>;
}

/** How to write `to` over `from` (see the header). */
export function replayPlan(from: readonly UtteranceSnap[], to: readonly UtteranceSnap[]): ReplayPlan {
  const fromUtterances = new Map(from.map((u) => [u.id, u]));
  const toTokens = new Set(to.flatMap((u) => u.tokens.map((t) => t.id)));
  const newUtterances = new Map<number, number>();
  const utteranceId = new Map<number, number>();
  for (const u of to)
    if (!fromUtterances.has(u.id)) {
      const id = -(newUtterances.size + 1);
      newUtterances.set(id, u.id);
      utteranceId.set(u.id, id);
    }
  const link = (id: number | null) => (id === null ? null : (utteranceId.get(id) ?? id));
  const batch: ReplayUtterance[] = [];
  for (const u of to) {
    const old = fromUtterances.get(u.id);
    if (old && sameUtterance(old, u)) continue;
    const tokens = old && sameTokens(old.tokens, u.tokens) ? undefined : u.tokens.map(tokenSnap);
    batch.push({
      id: utteranceId.get(u.id) ?? u.id,
      actor: u.actor,
      prevId: link(u.prevId),
      nextId: link(u.nextId),
      ...(tokens ? { tokens } : {}),
    });
  }
  const deleteTokens = from.flatMap((u) => u.tokens.map((t) => t.id).filter((id) => !toTokens.has(id)));
  return { deleteTokens, batch, newUtterances };
}

/** What the batch answers that the stack needs: the new utterances' ids. */
export interface BatchAnswer {
  ids: Readonly<Record<string, number>>;
}

/** The utterance ids the stack knows (those of `to`) mapped to the ids the server gave the ones it created. */
export function createdIds(plan: ReplayPlan, answer: BatchAnswer): Map<number, number> {
  const utterances = new Map<number, number>();
  for (const [temp, known] of plan.newUtterances) {
    const real = answer.ids[String(temp)];
    if (real !== undefined) utterances.set(known, real);
  }
  return utterances;
}

/** The stack with every utterance id the server replaced named by its new id. */
export function remapStack(stack: TranscriptStack, ids: ReadonlyMap<number, number>): TranscriptStack {
  if (!ids.size) return stack;
  const u = (id: number | null) => (id === null ? null : (ids.get(id) ?? id));
  const snap = (x: UtteranceSnap): UtteranceSnap => ({
    ...x,
    id: u(x.id)!,
    prevId: u(x.prevId),
    nextId: u(x.nextId),
  });
  const op = (o: TranscriptOp): TranscriptOp => ({ before: o.before.map(snap), after: o.after.map(snap) });
  return { past: stack.past.map(op), future: stack.future.map(op) };
}
