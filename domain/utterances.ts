/**
 * The rules of a transcript edit (spec 2 sections 3 to 5, issue 14 section 2): what a write of the speech
 * workspace (PUT api/utterances, the batch create, the token routes) does to a document's utterances and
 * tokens, and whether the result is still a transcript. Pure: the API plans every write with
 * `planTranscriptWrite` inside its transaction and writes nothing when it answers a problem.
 *
 * Decisions where the spec is silent:
 * - A write names utterances (patches) and, per utterance, its tokens in order. A token named under another
 *   utterance of the document moves there; a token the write drops from a named utterance without placing it
 *   elsewhere is a problem ('lost'): tokens are removed only by the token DELETE.
 * - An utterance left without tokens by a write is removed and its neighbours are linked to each other (the
 *   merge at the edge of spec 2 section 4). A new utterance (negative id) must bring tokens.
 * - The document's utterances must stay one linked list: prevId/nextId name utterances of the document,
 *   a.nextId = b exactly when b.prevId = a, one head, every utterance reachable from it.
 * - Token times are integer milliseconds from 0 to 48 hours with the end not before the start; the tokens of
 *   an utterance start in time order (a token may overlap the next one: a split word ends 50 ms after the
 *   old end, spec 2 section 5). Tokens without times (none are written by the parser) are not ordered.
 * - Across neighbours: the first timed token of an utterance does not start before the last timed token of
 *   the utterance before it. A write may not bring a pair of neighbours out of that order; a pair already out
 *   of order (an imported transcript whose speakers overlap) stays editable. An utterance without timed
 *   tokens orders nothing.
 * - Scope of a check: a write that creates utterances or names new prevId/nextId restructures the list and
 *   is planned over the whole document. Any other write (the token writes, an actor, a token list, a merge by
 *   moving tokens) changes links only by removing emptied utterances, which keeps one list when there was
 *   one; it is planned over its 'neighbourhood': the utterances it names or takes tokens from, with every
 *   token of theirs, and their neighbours (`restructuresList`, `planTranscriptWrite`'s scope).
 * - A changed token value must be one word of the inline edit's pattern (letters, Polish diacritics
 *   included, an optional trailing , . or ?), or a punctuation mark alone; values the recognizer wrote are
 *   kept as they are while unchanged.
 * - A changed actor must be one of the process's actor codes, ARTIFACT (also spelled 'artifact', as the spec
 *   names the background speaker both ways), or an actor the document already has.
 */
import { MAX_TRANSCRIPT_MS } from './transcript';

/** The fixed read-only background speaker (spec 2 section 3). */
export const ARTIFACT_ACTOR = 'ARTIFACT';

export const TokenProperties = ['DOUBLE_SPEECH', 'INAUDIBLE', 'NOISE'] as const;
export type TokenProperty = (typeof TokenProperties)[number];

/** Gap of a split token (spec 2 section 9): the second word ends this long after the old end. */
export const SPLIT_TOKEN_MS = 50;

/** Message keys of the refusals, with their English text (the web's translation files hold them too). */
export const UTTERANCE_MESSAGES = {
  'error.utterance.brokenList': 'The utterances would no longer form one list.',
  'error.utterance.unknown': 'The utterance is not one of this document.',
  'error.utterance.lostTokens': 'Tokens would be lost: delete them instead.',
  'error.utterance.newWithoutTokens': 'A new utterance needs at least one token.',
  'error.utterance.actor': 'The actor is not one of the process.',
  'error.utterance.order': 'An utterance must not start before the last word of the one before it.',
  'error.token.unknown': 'The token is not one of this document.',
  'error.token.twice': 'A token is named twice.',
  'error.token.times': 'Token times must be whole milliseconds from 0 to 48 hours.',
  'error.token.endBeforeStart': 'The end of a token must not come before its start.',
  'error.token.order': 'The tokens of an utterance must be in time order.',
  'error.token.value': 'Invalid input',
  'error.token.cannotDelete': 'The word cannot be deleted',
  'error.token.tagSplit': 'The words of a tag must stay in one utterance.',
} as const;
export type UtteranceMessageKey = keyof typeof UTTERANCE_MESSAGES;

export interface TranscriptProblem {
  key: UtteranceMessageKey;
  detail: string;
}

const problem = (key: UtteranceMessageKey, detail?: string): TranscriptProblem => ({
  key,
  detail: detail ? `${UTTERANCE_MESSAGES[key]} ${detail}` : UTTERANCE_MESSAGES[key],
});

// --- single rules ---

/** One word of the inline edit (spec 2 section 5) or a punctuation mark alone. */
const WORD = /^\p{L}+(?:[-'’]\p{L}+)*[,.?]?$/u;
const PUNCTUATION = /^[,.?!;:…-]$/u;

export function tokenValueProblem(value: string): TranscriptProblem | null {
  return WORD.test(value) || PUNCTUATION.test(value) ? null : problem('error.token.value', `(${value})`);
}

/** The times rule of one token; null times are allowed only together (a token without times). */
export function tokenTimesViolation(tsStart: number | null, tsEnd: number | null): TranscriptProblem | null {
  if (tsStart === null && tsEnd === null) return null;
  for (const v of [tsStart, tsEnd])
    if (v === null || !Number.isInteger(v) || v < 0 || v > MAX_TRANSCRIPT_MS)
      return problem('error.token.times', `(${tsStart}-${tsEnd})`);
  if (tsEnd! < tsStart!) return problem('error.token.endBeforeStart', `(${tsStart}-${tsEnd})`);
  return null;
}

/** The first token (index) of a list that starts before the timed token preceding it; -1 when in order. */
export function tokenOrderBreak(tokens: readonly { tsStart: number | null }[]): number {
  let last = -Infinity;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i].tsStart;
    if (t === null) continue;
    if (t < last) return i;
    last = t;
  }
  return -1;
}

/** Where a token starting at `tsStart` goes among tokens in time order: after every token starting no later. */
export function timeOrderPosition(tokens: readonly { tsStart: number | null }[], tsStart: number): number {
  let at = 0;
  tokens.forEach((t, i) => {
    if (t.tsStart === null || t.tsStart <= tsStart) at = i + 1;
  });
  return at;
}

export interface ListLink {
  id: number;
  prevId: number | null;
  nextId: number | null;
}

/**
 * The first link without its way back among `byId`; links to utterances outside it are skipped when `part`
 * (a neighbourhood of the list), refused otherwise.
 */
function oneWayLink(
  utterances: readonly ListLink[],
  byId: ReadonlyMap<number, ListLink>,
  part: boolean,
): TranscriptProblem | null {
  const backOf = (id: number, side: 'prevId' | 'nextId', self: number) => {
    const other = byId.get(id);
    return other ? other[side] === self : part;
  };
  for (const u of utterances) {
    if (u.nextId !== null && !backOf(u.nextId, 'prevId', u.id))
      return problem('error.utterance.brokenList', `(${u.id} -> ${u.nextId} has no way back)`);
    if (u.prevId !== null && !backOf(u.prevId, 'nextId', u.id))
      return problem('error.utterance.brokenList', `(${u.prevId} <- ${u.id} has no way forward)`);
  }
  return null;
}

/** What breaks the linked list (see the header), or null when the utterances form one list. */
export function linkedListProblem(utterances: readonly ListLink[]): TranscriptProblem | null {
  if (!utterances.length) return null;
  const byId = new Map(utterances.map((u) => [u.id, u]));
  if (byId.size !== utterances.length) return problem('error.utterance.brokenList', '(an id twice)');
  const oneWay = oneWayLink(utterances, byId, false);
  if (oneWay) return oneWay;
  const heads = utterances.filter((u) => u.prevId === null);
  if (heads.length !== 1) return problem('error.utterance.brokenList', `(${heads.length} heads)`);
  let seen = 0;
  for (let u: ListLink | undefined = heads[0]; u && seen <= utterances.length; u = byId.get(u.nextId ?? NaN))
    seen++;
  if (seen !== utterances.length) return problem('error.utterance.brokenList', '(a cycle)');
  return null;
}

/**
 * The links of a neighbourhood of the list (see the header): every link between two of its utterances goes
 * both ways; links leaving it are not followed (the rest of the list is not read).
 */
export function neighbourhoodListProblem(utterances: readonly ListLink[]): TranscriptProblem | null {
  return oneWayLink(utterances, new Map(utterances.map((u) => [u.id, u])), true);
}

/** True when the second utterance's first timed token starts before the first one's last timed token. */
export function utteranceOrderBreak(
  first: readonly { tsStart: number | null }[],
  second: readonly { tsStart: number | null }[],
): boolean {
  let last: number | null = null;
  for (const t of first) if (t.tsStart !== null) last = t.tsStart;
  const start = second.find((t) => t.tsStart !== null)?.tsStart ?? null;
  return last !== null && start !== null && start < last;
}

/** The list after removing utterances: each removed one's neighbours linked to each other. */
export function unlinkUtterances<U extends ListLink>(
  utterances: readonly U[],
  removed: ReadonlySet<number>,
): U[] {
  const byId = new Map(utterances.map((u) => [u.id, { ...u }]));
  const live = (id: number | null, step: 'prevId' | 'nextId'): number | null => {
    let at = id;
    for (let guard = 0; at !== null && removed.has(at) && guard <= utterances.length; guard++)
      at = byId.get(at)?.[step] ?? null;
    return at !== null && removed.has(at) ? null : at;
  };
  const out: U[] = [];
  for (const u of byId.values()) {
    if (removed.has(u.id)) continue;
    out.push({ ...u, prevId: live(u.prevId, 'prevId'), nextId: live(u.nextId, 'nextId') });
  }
  return out;
}

// --- a write ---

export interface TokenState {
  id: number;
  utteranceId: number;
  value: string;
  tsStart: number | null;
  tsEnd: number | null;
  properties: string[];
  unclear: boolean;
}

export interface UtteranceState extends ListLink {
  actor: string;
  /** The utterance's token ids in order. */
  tokenIds: number[];
}

export interface TokenPatch {
  /** An existing token of the document, or a new one (its id allocated by the caller). */
  id: number;
  value?: string;
  tsStart?: number | null;
  tsEnd?: number | null;
  properties?: string[];
  unclear?: boolean;
}

export interface UtterancePatch {
  /** An existing utterance, or a new one (its id allocated by the caller and listed in `created`). */
  id: number;
  actor?: string;
  prevId?: number | null;
  nextId?: number | null;
  /** The utterance's tokens in order (absent: unchanged). */
  tokens?: TokenPatch[];
}

export interface TranscriptWrite {
  patches: UtterancePatch[];
  /** Ids of utterances the write creates (allocated by the caller). */
  createdUtterances: ReadonlySet<number>;
  /** Ids of tokens the write creates (allocated by the caller). */
  createdTokens: ReadonlySet<number>;
  /** Tokens the write deletes. */
  deletedTokens?: readonly number[];
  /** Actors a changed actor may take (process actor codes, ARTIFACT, the document's actors). */
  actors: ReadonlySet<string>;
}

export interface TranscriptPlan {
  utterances: UtteranceState[];
  tokens: Map<number, TokenState>;
  /** Utterances removed (emptied), to delete. */
  removed: number[];
  /** Utterances whose row or token list changed (created ones included). */
  touched: Set<number>;
  /** Tokens whose row changed (created ones included). */
  changedTokens: Set<number>;
}

const sameList = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * True when the write creates utterances or names a prevId/nextId other than the utterance's (or names one
 * of an utterance not in `current`): then it is planned over the whole document (see the header).
 */
export function restructuresList(
  current: ReadonlyMap<number, ListLink>,
  write: Pick<TranscriptWrite, 'patches' | 'createdUtterances'>,
): boolean {
  if (write.createdUtterances.size) return true;
  return write.patches.some((p) =>
    (['prevId', 'nextId'] as const).some(
      (side) => p[side] !== undefined && p[side] !== current.get(p.id)?.[side],
    ),
  );
}

/**
 * What `planTranscriptWrite` is given: the whole transcript ('document'), or the write's neighbourhood (see
 * the header) for a write that does not restructure the list.
 */
export type PlanScope = 'document' | 'neighbourhood';

/**
 * Applies a write to the document's transcript (every utterance and token of it, or the write's
 * neighbourhood) and checks the result; the plan to write, or the first problem.
 */
export function planTranscriptWrite(
  current: readonly UtteranceState[],
  currentTokens: readonly TokenState[],
  write: TranscriptWrite,
  scope: PlanScope = 'document',
): { plan: TranscriptPlan } | { problem: TranscriptProblem } {
  const utterances = new Map(current.map((u) => [u.id, { ...u, tokenIds: [...u.tokenIds] }]));
  if (scope === 'neighbourhood' && restructuresList(utterances, write))
    throw new Error('a write that restructures the list is planned over the whole document');
  const tokens = new Map(currentTokens.map((t) => [t.id, { ...t }]));
  const touched = new Set<number>();
  const changedTokens = new Set<number>();
  const fail = (key: UtteranceMessageKey, detail?: string) => ({ problem: problem(key, detail) });

  for (const id of write.deletedTokens ?? []) {
    const t = tokens.get(id);
    if (!t) return fail('error.token.unknown', `(${id})`);
    const u = utterances.get(t.utteranceId)!;
    u.tokenIds = u.tokenIds.filter((x) => x !== id);
    tokens.delete(id);
    touched.add(u.id);
  }

  // every token named once; new tokens complete
  const named = new Set<number>();
  for (const p of write.patches) {
    if (!utterances.has(p.id) && !write.createdUtterances.has(p.id))
      return fail('error.utterance.unknown', `(${p.id})`);
    for (const t of p.tokens ?? []) {
      if (named.has(t.id)) return fail('error.token.twice', `(${t.id})`);
      named.add(t.id);
      if (!tokens.has(t.id) && !write.createdTokens.has(t.id))
        return fail('error.token.unknown', `(${t.id})`);
    }
  }
  const patched = new Set(write.patches.map((p) => p.id));
  for (const p of write.patches) {
    if (!p.tokens) continue;
    const before = utterances.get(p.id)?.tokenIds ?? [];
    const lost = before.filter((id) => !named.has(id));
    if (lost.length) return fail('error.utterance.lostTokens', `(${lost.join(', ')})`);
  }

  for (const p of write.patches) {
    const created = write.createdUtterances.has(p.id);
    if (created && !p.tokens?.length) return fail('error.utterance.newWithoutTokens', `(${p.id})`);
    const u: UtteranceState = utterances.get(p.id) ?? {
      id: p.id,
      actor: p.actor ?? '',
      prevId: null,
      nextId: null,
      tokenIds: [],
    };
    utterances.set(p.id, u);
    if (created) touched.add(p.id);
    if (p.actor !== undefined && p.actor !== u.actor) {
      if (!write.actors.has(p.actor)) return fail('error.utterance.actor', `(${p.actor})`);
      u.actor = p.actor;
      touched.add(p.id);
    } else if (created && !write.actors.has(u.actor)) return fail('error.utterance.actor', `(${u.actor})`);
    for (const side of ['prevId', 'nextId'] as const) {
      const v = p[side];
      if (v !== undefined && v !== u[side]) {
        u[side] = v;
        touched.add(p.id);
      }
    }
    if (!p.tokens) continue;
    const ids = p.tokens.map((t) => t.id);
    if (!sameList(ids, u.tokenIds)) touched.add(p.id);
    u.tokenIds = ids;
    for (const tp of p.tokens) {
      const old = tokens.get(tp.id);
      if (old && old.utteranceId !== p.id && !patched.has(old.utteranceId)) {
        // moved out of an utterance the write does not name
        const from = utterances.get(old.utteranceId)!;
        from.tokenIds = from.tokenIds.filter((x) => x !== tp.id);
        touched.add(from.id);
      }
      const next: TokenState = {
        id: tp.id,
        utteranceId: p.id,
        value: tp.value ?? old?.value ?? '',
        tsStart: tp.tsStart !== undefined ? tp.tsStart : (old?.tsStart ?? null),
        tsEnd: tp.tsEnd !== undefined ? tp.tsEnd : (old?.tsEnd ?? null),
        properties: tp.properties ?? old?.properties ?? [],
        unclear: tp.unclear ?? old?.unclear ?? false,
      };
      if (!old || next.value !== old.value) {
        const bad = tokenValueProblem(next.value);
        if (bad) return { problem: bad };
      }
      if (!old || next.tsStart !== old.tsStart || next.tsEnd !== old.tsEnd) {
        const bad = tokenTimesViolation(next.tsStart, next.tsEnd);
        if (bad) return { problem: bad };
      }
      if (
        !old ||
        (['utteranceId', 'value', 'tsStart', 'tsEnd', 'unclear'] as const).some((k) => next[k] !== old[k]) ||
        JSON.stringify(next.properties) !== JSON.stringify(old.properties)
      )
        changedTokens.add(tp.id);
      tokens.set(tp.id, next);
    }
  }

  const removed = new Set([...touched].filter((id) => utterances.get(id)!.tokenIds.length === 0));
  const kept = unlinkUtterances([...utterances.values()], removed);
  for (const u of kept) {
    const before = utterances.get(u.id)!;
    if (u.prevId !== before.prevId || u.nextId !== before.nextId) touched.add(u.id);
  }
  const listProblem = scope === 'document' ? linkedListProblem(kept) : neighbourhoodListProblem(kept);
  if (listProblem) return { problem: listProblem };
  const retimed = new Set([...changedTokens].map((id) => tokens.get(id)!.utteranceId));
  const changed = kept.filter((u) => touched.has(u.id) || retimed.has(u.id));
  for (const u of changed) {
    const broken = tokenOrderBreak(u.tokenIds.map((id) => tokens.get(id)!));
    if (broken >= 0) return fail('error.token.order', `(token ${u.tokenIds[broken]} of utterance ${u.id})`);
  }
  const pair = neighbourOrderProblem(current, currentTokens, kept, tokens, changed);
  if (pair) return { problem: pair };
  for (const id of removed) touched.delete(id);
  return {
    plan: {
      utterances: kept,
      tokens,
      removed: [...removed].filter((id) => !write.createdUtterances.has(id)),
      touched,
      changedTokens,
    },
  };
}

/**
 * A pair of neighbours the write brings out of time order (see the header): pairs with a changed utterance,
 * compared with the same pair before the write when it is out of order now.
 */
function neighbourOrderProblem(
  current: readonly UtteranceState[],
  currentTokens: readonly TokenState[],
  kept: readonly UtteranceState[],
  tokens: ReadonlyMap<number, TokenState>,
  changed: readonly UtteranceState[],
): TranscriptProblem | null {
  const byId = new Map(kept.map((u) => [u.id, u]));
  const broken = (
    a: UtteranceState,
    b: UtteranceState,
    of: ReadonlyMap<number, { tsStart: number | null }>,
  ) =>
    utteranceOrderBreak(
      a.tokenIds.map((id) => of.get(id)!),
      b.tokenIds.map((id) => of.get(id)!),
    );
  let before: { utterances: Map<number, UtteranceState>; tokens: Map<number, TokenState> } | null = null;
  for (const u of changed)
    for (const [a, b] of [
      [u.prevId === null ? undefined : byId.get(u.prevId), u],
      [u, u.nextId === null ? undefined : byId.get(u.nextId)],
    ]) {
      if (!a || !b || !broken(a, b, tokens)) continue;
      before ??= {
        utterances: new Map(current.map((x) => [x.id, x])),
        tokens: new Map(currentTokens.map((t) => [t.id, t])),
      };
      const [a0, b0] = [before.utterances.get(a.id), before.utterances.get(b.id)];
      if (a0?.nextId === b.id && b0 && broken(a0, b0, before.tokens)) continue; // out of order already
      return problem('error.utterance.order', `(utterance ${b.id} starts before the last word of ${a.id})`);
    }
  return null;
}
