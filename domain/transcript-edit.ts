/**
 * The editing rules of the speech workspace's transcript (spec 2 sections 3, 4, 5 and 9): the inline token
 * edit's validation and split, the hints menu's suggestions, token traversal that skips punctuation, the
 * playing token, the clicked-segment window, the actor cycle of actor-change mode, and the structural edits
 * of the keyboard (']' extract the rest, 'e' extract the selection, up/down move the extracted utterance,
 * merging at the edge). Pure: the browser runs it, the tests pin it.
 *
 * Decisions where the spec is silent:
 * - A word is letters of any script (Polish diacritics included) or digits, with inner apostrophes or
 *   hyphens (don't, Kowalski-Nowak), optionally ending in one of , . ? (the punctuation the parser
 *   attaches to the preceding word).
 * - Edits are trimmed and runs of whitespace count as one separator.
 * - An extracted block has three places: merged into the previous utterance, its own utterance (where the
 *   extraction puts it), merged into the next utterance. Up and down move between them; at the first or last
 *   utterance of the transcript there is no neighbour to merge with and the key does nothing.
 * - New utterances take ids from -1 down, below every negative id already in the list.
 */
import { isPunctuation } from './transcript';
import { timeOrderPosition } from './utterances';

// --- inline token edit (spec 2 section 5) ---

export const TOKEN_EDIT_MESSAGES = {
  maxTwoWords: 'Max two words allowed',
  willDelete: 'The word will be deleted',
  cannotDelete: 'The word cannot be deleted',
  invalid: 'Invalid input',
} as const;
export type TokenEditMessage = keyof typeof TOKEN_EDIT_MESSAGES;

const WORD = /^[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*[,.?]?$/u;

/** One word of a token's value: letters (Polish diacritics included) or digits, an optional , . or ?. */
export const isTokenWord = (s: string): boolean => WORD.test(s);

export type TokenEditCheck =
  /** Save: one word replaces the value; a second word becomes a new token after it. */
  | { kind: 'words'; words: [string] | [string, string] }
  /** Empty and deletion allowed: a warning ('The word will be deleted'); saving deletes the token. */
  | { kind: 'delete'; message: 'willDelete' }
  /** Nothing can be saved. */
  | { kind: 'error'; message: Exclude<TokenEditMessage, 'willDelete'> };

/**
 * The inline edit's verdict on what the user typed. `deletionAllowed` is false while the document has
 * relation graphs (spec 2 section 5).
 */
export function checkTokenEdit(input: string, deletionAllowed: boolean): TokenEditCheck {
  const words = input.trim().split(/\s+/u).filter(Boolean);
  if (words.length === 0)
    return deletionAllowed
      ? { kind: 'delete', message: 'willDelete' }
      : { kind: 'error', message: 'cannotDelete' };
  if (words.length > 2) return { kind: 'error', message: 'maxTwoWords' };
  if (!words.every(isTokenWord)) return { kind: 'error', message: 'invalid' };
  return { kind: 'words', words: words as [string] | [string, string] };
}

/** Spec 2 section 9: the minimum gap of a split token. */
export const SPLIT_TOKEN_MS = 50;

/** The times of the token a second word becomes: from the old end to the old end plus 50 ms. */
export function splitTokenTimes(token: { tsStart: number | null; tsEnd: number | null }): {
  tsStart: number;
  tsEnd: number;
} {
  const end = Math.round(token.tsEnd ?? token.tsStart ?? 0);
  return { tsStart: end, tsEnd: end + SPLIT_TOKEN_MS };
}

/** A token of an utterance write: an existing one by id (with a new value), or a new one (negative id). */
export interface SplitTokenPatch {
  id: number;
  value?: string;
  tsStart?: number;
  tsEnd?: number;
}

/**
 * The inline edit's split as one utterance write (PUT api/utterances): the token keeps the first word, a new
 * token (id -1) takes the second from the old end to + 50 ms, placed in time order as the token POST places
 * a token. One write, so a refused split leaves the word as it was instead of half split.
 */
export function splitTokenWrite(
  utterance: { id: number; tokens: readonly { id: number; tsStart: number | null }[] },
  token: { id: number; tsStart: number | null; tsEnd: number | null },
  first: string,
  second: string,
): { id: number; tokens: SplitTokenPatch[] } {
  const added: SplitTokenPatch = { id: -1, value: second, ...splitTokenTimes(token) };
  const tokens: SplitTokenPatch[] = utterance.tokens.map((t) =>
    t.id === token.id ? { id: t.id, value: first } : { id: t.id },
  );
  tokens.splice(timeOrderPosition(utterance.tokens, added.tsStart!), 0, added);
  return { id: utterance.id, tokens };
}

// --- hints (spec 2 section 2, hints menu) ---

const TRAILING = /[?.,]$/u;
const SENTENCE_END = /[?.]$/u;

const capitalise = (s: string): string => (s ? s[0].toLocaleUpperCase() + s.slice(1) : s);

/**
 * The 'Suggestions' of a token: its hints without the current value (case-insensitively, and without
 * repeats), each keeping the punctuation that follows the word (attached to the token, as the parser
 * writes it), capitalised when the previous token ends a sentence (? or .).
 */
export function hintSuggestions(
  hints: readonly string[],
  token: { value: string },
  previous?: { value: string } | null,
): string[] {
  const trailing = token.value.match(TRAILING)?.[0] ?? '';
  const bare = (s: string) => s.trim().replace(TRAILING, '').toLocaleLowerCase();
  const current = bare(token.value);
  const capital = !!previous && SENTENCE_END.test(previous.value.trim());
  const seen = new Set<string>([current]);
  const out: string[] = [];
  for (const h of hints) {
    const word = h.trim().replace(TRAILING, '');
    const key = word.toLocaleLowerCase();
    if (!word || seen.has(key)) continue;
    seen.add(key);
    out.push((capital ? capitalise(word) : word) + trailing);
  }
  return out;
}

// --- traversal and playback ---

/** Punctuation tokens (?, ., , ...) attach to the preceding token and are skipped by selection. */
export const isPunctuationToken = (value: string): boolean => isPunctuation(value.trim());

/**
 * The next selectable token from `index` in direction `dir` (skipping punctuation tokens), or `index`
 * itself when there is none. With `index` -1, the first selectable token (or the last one for dir -1).
 */
export function nextSelectable(tokens: readonly { value: string }[], index: number, dir: 1 | -1): number {
  let i = index < 0 ? (dir === 1 ? -1 : tokens.length) : index;
  for (i += dir; i >= 0 && i < tokens.length; i += dir) if (!isPunctuationToken(tokens[i].value)) return i;
  return index;
}

/**
 * The token being spoken at `ms` in tokens sorted by start: the last one that started at or before it and
 * has not ended (-1 in a pause or before the first word). Binary search: called on every time update.
 */
export function tokenAt(
  tokens: readonly { tsStart: number | null; tsEnd: number | null }[],
  ms: number,
): number {
  let lo = 0;
  let hi = tokens.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = tokens[mid].tsStart;
    if (s !== null && s <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return -1;
  const end = tokens[found].tsEnd ?? tokens[found].tsStart ?? 0;
  return ms <= end ? found : -1;
}

/** Spec 2 section 9: the default clicked-segment window, ±0.5 s. */
export const CLICK_WINDOW_S = 0.5;

/** The clicked token's segment in seconds (start - 0.5 s, not before 0; end + 0.5 s). */
export function clickedSegment(token: { tsStart: number | null; tsEnd: number | null }): {
  start: number;
  end: number;
} {
  const s = (token.tsStart ?? 0) / 1000;
  const e = (token.tsEnd ?? token.tsStart ?? 0) / 1000;
  return { start: Math.max(0, s - CLICK_WINDOW_S), end: e + CLICK_WINDOW_S };
}

/** Actor-change mode's left/right: the previous or next actor, wrapping around. */
export function cycleActor(actors: readonly string[], current: string, dir: 1 | -1): string {
  if (actors.length === 0) return current;
  const at = actors.indexOf(current);
  if (at < 0) return actors[dir === 1 ? 0 : actors.length - 1];
  return actors[(at + dir + actors.length) % actors.length];
}

// --- structural edits (spec 2 section 4) ---

export interface EditUtterance<T> {
  id: number;
  actor: string;
  tokens: T[];
}

/** The id of the next new (unsaved) utterance: -1, then below the lowest negative id in the list. */
export function nextNewId(list: readonly { id: number }[]): number {
  let min = 0;
  for (const u of list) if (u.id < min) min = u.id;
  return min - 1;
}

/** ']' is allowed when the selected token is not the first selectable token of its utterance. */
export function canExtractRest(tokens: readonly { value: string }[], at: number): boolean {
  return at > 0 && at < tokens.length && nextSelectable(tokens, -1, 1) < at;
}

/** 'e' is allowed when the selection (from..to, inclusive) holds neither the first nor the last token. */
export function canExtractSelection(tokens: readonly { value: string }[], from: number, to: number): boolean {
  if (from > to) [from, to] = [to, from];
  const first = nextSelectable(tokens, -1, 1);
  const last = nextSelectable(tokens, -1, -1);
  return from > first && to < last && to < tokens.length;
}

/** The position of an extracted block between its neighbours (see the header). */
export type ExtractPlace = 'previous' | 'own' | 'next';

/** An extraction in progress: the block's tokens and where they currently sit. */
export interface Extraction {
  /** The utterance the block was cut from. */
  sourceId: number;
  /** The block as its own utterance (kept so it can come back after a merge). */
  blockId: number;
  place: ExtractPlace;
}

/** ']': the tokens from `at` onward become a new utterance after the source, with the same actor. */
export function extractRest<T>(
  list: readonly EditUtterance<T>[],
  utteranceId: number,
  at: number,
): { list: EditUtterance<T>[]; extraction: Extraction } | null {
  const i = list.findIndex((u) => u.id === utteranceId);
  if (i < 0) return null;
  const u = list[i];
  if (at <= 0 || at >= u.tokens.length) return null;
  const id = nextNewId(list);
  const next = [...list];
  next.splice(
    i,
    1,
    { ...u, tokens: u.tokens.slice(0, at) },
    { id, actor: u.actor, tokens: u.tokens.slice(at) },
  );
  return { list: next, extraction: { sourceId: u.id, blockId: id, place: 'own' } };
}

/**
 * 'e': the tokens from..to (inclusive) become a new utterance, and the tokens after them another one, both
 * with the source's actor.
 */
export function extractSelection<T>(
  list: readonly EditUtterance<T>[],
  utteranceId: number,
  from: number,
  to: number,
): { list: EditUtterance<T>[]; extraction: Extraction } | null {
  if (from > to) [from, to] = [to, from];
  const i = list.findIndex((u) => u.id === utteranceId);
  if (i < 0) return null;
  const u = list[i];
  if (from <= 0 || to >= u.tokens.length - 1) return null;
  const blockId = nextNewId(list);
  const tailId = blockId - 1;
  const next = [...list];
  next.splice(
    i,
    1,
    { ...u, tokens: u.tokens.slice(0, from) },
    { id: blockId, actor: u.actor, tokens: u.tokens.slice(from, to + 1) },
    { id: tailId, actor: u.actor, tokens: u.tokens.slice(to + 1) },
  );
  return { list: next, extraction: { sourceId: u.id, blockId, place: 'own' } };
}

/**
 * Up (-1) or down (+1) in extract mode: the block merges into the neighbour at that edge, or comes back as
 * its own utterance from a merge on the other side. Null when there is nowhere to go.
 */
export function moveExtracted<T>(
  list: readonly EditUtterance<T>[],
  extraction: Extraction,
  block: readonly T[],
  dir: 1 | -1,
): { list: EditUtterance<T>[]; extraction: Extraction } | null {
  const { place, blockId } = extraction;
  const sameToken = (a: T, b: T) => a === b;
  if (place === 'own') {
    const i = list.findIndex((u) => u.id === blockId);
    const j = i + dir;
    if (i < 0 || j < 0 || j >= list.length) return null;
    const neighbour = list[j];
    const merged = {
      ...neighbour,
      tokens: dir === -1 ? [...neighbour.tokens, ...block] : [...block, ...neighbour.tokens],
    };
    const next = list.filter((u) => u.id !== blockId).map((u) => (u.id === neighbour.id ? merged : u));
    return { list: next, extraction: { ...extraction, place: dir === -1 ? 'previous' : 'next' } };
  }
  // Merged: only the opposite direction brings it back.
  if ((place === 'previous' && dir === -1) || (place === 'next' && dir === 1)) return null;
  const host = list.findIndex((u) => block.length > 0 && u.tokens.some((t) => sameToken(t, block[0])));
  if (host < 0) return null;
  const h = list[host];
  const rest = h.tokens.filter((t) => !block.includes(t));
  const own: EditUtterance<T> = { id: blockId, actor: h.actor, tokens: [...block] };
  const next = [...list];
  next.splice(
    host,
    1,
    ...(place === 'previous' ? [{ ...h, tokens: rest }, own] : [own, { ...h, tokens: rest }]),
  );
  return { list: next, extraction: { ...extraction, place: 'own' } };
}

/** Utterances left without tokens are dropped (a merge can empty one). */
export const dropEmpty = <T>(list: readonly EditUtterance<T>[]): EditUtterance<T>[] =>
  list.filter((u) => u.tokens.length > 0);

/** One utterance of the batch that saves an edit (POST api/utterances/batch, docs/api-speech.md). */
export interface BatchUtterance {
  id: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  /** The whole token list in order, when it changed (or the utterance is new). */
  tokens?: { id: number }[];
}

/**
 * What saving an edited list sends, against the saved one: every new utterance (negative id) and every saved
 * one whose actor, tokens or neighbours changed, each with its neighbours in the edited order. Saved
 * utterances missing from the edit are left out: their tokens moved elsewhere, so the server removes them
 * and links their neighbours. Empty when nothing changed.
 */
export function transcriptBatch(
  saved: readonly (EditUtterance<{ id: number }> & { prevId: number | null; nextId: number | null })[],
  edited: readonly EditUtterance<{ id: number }>[],
): BatchUtterance[] {
  const before = new Map(saved.map((u) => [u.id, u]));
  const out: BatchUtterance[] = [];
  edited.forEach((u, i) => {
    const prevId = i > 0 ? edited[i - 1].id : null;
    const nextId = i < edited.length - 1 ? edited[i + 1].id : null;
    const tokens = u.tokens.map((t) => ({ id: t.id }));
    const old = before.get(u.id);
    if (!old) {
      out.push({ id: u.id, actor: u.actor, prevId, nextId, tokens });
      return;
    }
    const sameTokens =
      old.tokens.length === tokens.length && old.tokens.every((t, k) => t.id === tokens[k].id);
    if (sameTokens && old.actor === u.actor && old.prevId === prevId && old.nextId === nextId) return;
    out.push({ id: u.id, actor: u.actor, prevId, nextId, ...(sameTokens ? {} : { tokens }) });
  });
  return out;
}
