/**
 * Undo and redo of the speech workspace's transcript edits (spec 2 section 4; issue 14): every saved edit
 * (inline word fix, split into two words, actor change, extraction, merge, deletion, unclear and properties,
 * time range, hint) is kept as the part of the transcript it changed, before and after; undo writes the
 * before part back through the same API the edit used (token deletions, then one batch of
 * POST api/utterances/batch), redo writes the after part again. The server's rules hold for these writes as
 * for any other: a refused undo changes nothing on the stack. Pure: the editor hook runs it, tests pin it
 * against domain/utterances.ts `planTranscriptWrite`, the server's planner.
 *
 * Decisions:
 * - A change is recorded by comparing the transcript before the write with the one the server answers
 *   after it (the refetch), not by predicting the server: the region is the run of utterances from the first
 *   to the last that differ (actor, links, tokens or any token field). An utterance whose neighbour changed
 *   has changed links, so the region always holds the utterances around it.
 * - Writing a region back: tokens of the current region missing from the target are deleted (the token
 *   DELETE, the only way a token goes), then the target's utterances that differ are sent in one batch with
 *   their whole token lists and token fields; utterances and tokens the server no longer has (deleted, or
 *   emptied and removed) are sent as new ones (ids from -1 down) and the stack is remapped to the ids the
 *   server gives them. Utterances of the current region missing from the target are emptied by the batch and
 *   the server removes them.
 * - A re-created token loses the tag links and hints it had (the server dropped them with the token).
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

/** A token of the batch: an existing one with its fields, or a new one (negative id). */
export type BatchToken = TokenSnap;

/** One utterance of the batch (POST api/utterances/batch, docs/api-speech.md). */
export interface ReplayUtterance {
  id: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  tokens?: BatchToken[];
}

/** The writes that turn the `from` region back into `to`. */
export interface ReplayPlan {
  /** Token DELETEs first: tokens of `from` that `to` does not have. */
  deleteTokens: number[];
  /** Then one batch (empty: nothing to send). */
  batch: ReplayUtterance[];
  /** Negative ids of the batch mapped to the ids `to` names them by (to remap once the server answers). */
  newUtterances: Map<number, number>;
  newTokens: Map<number, number>;
}

/** How to write `to` over `from` (see the header). */
export function replayPlan(from: readonly UtteranceSnap[], to: readonly UtteranceSnap[]): ReplayPlan {
  const fromUtterances = new Map(from.map((u) => [u.id, u]));
  const fromTokens = new Set(from.flatMap((u) => u.tokens.map((t) => t.id)));
  const toTokens = new Set(to.flatMap((u) => u.tokens.map((t) => t.id)));
  const newUtterances = new Map<number, number>();
  const newTokens = new Map<number, number>();
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
    const tokens =
      old && sameTokens(old.tokens, u.tokens)
        ? undefined
        : u.tokens.map((t) => {
            if (fromTokens.has(t.id)) return tokenSnap(t);
            const id = -(newTokens.size + 1);
            newTokens.set(id, t.id);
            return { ...tokenSnap(t), id };
          });
    batch.push({
      id: utteranceId.get(u.id) ?? u.id,
      actor: u.actor,
      prevId: link(u.prevId),
      nextId: link(u.nextId),
      ...(tokens ? { tokens } : {}),
    });
  }
  const deleteTokens = from.flatMap((u) => u.tokens.map((t) => t.id).filter((id) => !toTokens.has(id)));
  return { deleteTokens, batch, newUtterances, newTokens };
}

/** What the batch answers: the utterances as saved (batch order, real ids) and the new utterances' ids. */
export interface BatchAnswer {
  utterances: readonly { id: number; tokens: readonly { id: number }[] }[];
  ids: Readonly<Record<string, number>>;
}

/**
 * The ids the stack knows (those of `to`) mapped to the ids the server gave the utterances and tokens it
 * created; a new token's id is read at its place in its saved utterance.
 */
export function createdIds(
  plan: ReplayPlan,
  answer: BatchAnswer,
): { utterances: Map<number, number>; tokens: Map<number, number> } {
  const utterances = new Map<number, number>();
  for (const [temp, known] of plan.newUtterances) {
    const real = answer.ids[String(temp)];
    if (real !== undefined) utterances.set(known, real);
  }
  const tokens = new Map<number, number>();
  const saved = new Map(answer.utterances.map((u) => [u.id, u]));
  for (const u of plan.batch) {
    const real = saved.get(u.id < 0 ? (answer.ids[String(u.id)] ?? u.id) : u.id);
    u.tokens?.forEach((t, i) => {
      const known = plan.newTokens.get(t.id);
      const id = real?.tokens[i]?.id;
      if (known !== undefined && id !== undefined) tokens.set(known, id);
    });
  }
  return { utterances, tokens };
}

/** The stack with every utterance and token id the server replaced named by its new id. */
export function remapStack(
  stack: TranscriptStack,
  ids: { utterances: ReadonlyMap<number, number>; tokens: ReadonlyMap<number, number> },
): TranscriptStack {
  if (!ids.utterances.size && !ids.tokens.size) return stack;
  const u = (id: number | null) => (id === null ? null : (ids.utterances.get(id) ?? id));
  const snap = (x: UtteranceSnap): UtteranceSnap => ({
    ...x,
    id: u(x.id)!,
    prevId: u(x.prevId),
    nextId: u(x.nextId),
    tokens: x.tokens.map((t) => ({ ...t, id: ids.tokens.get(t.id) ?? t.id })),
  });
  const op = (o: TranscriptOp): TranscriptOp => ({ before: o.before.map(snap), after: o.after.map(snap) });
  return { past: stack.past.map(op), future: stack.future.map(op) };
}
