/**
 * The speech workspace's view model (pure; the rules of an edit are in domain/transcript-edit.ts): the actor
 * list (process actors plus the read-only ARTIFACT), words with their attached punctuation, the selection
 * (a token range inside one utterance) and its traversal across utterances, the tokens in time order for
 * the playing word, the token tags by token, the time-span tags as player regions, and the row windows of the
 * virtualised list.
 */
import type { NerTagDTO } from '@domain/tags';
import { isPunctuationToken, nextSelectable } from '@domain/transcript-edit';
import type { TagTexts } from '../workspace/relations';
import type { AudioRegion } from './player-engine';
import type { TokenDTO, UtteranceDTO } from './transcriptApi';

/** The fixed read-only background speaker (spec 2 section 3). */
export const ARTIFACT = 'ARTIFACT';

export interface ActorOption {
  actor: string;
  name: string;
}

/** The process actors by code (SPEAKER1, SPEAKER2, ... in number order), then ARTIFACT. */
export function actorOptions(
  processActors: readonly { actor: string; name: string }[],
  artifactName: string,
): ActorOption[] {
  const num = (a: string) => Number(a.replace(/\D/g, '')) || 0;
  const own = processActors
    .filter((a) => a.actor !== ARTIFACT)
    .map((a) => ({ actor: a.actor, name: a.name || a.actor }))
    .sort((a, b) => num(a.actor) - num(b.actor) || a.actor.localeCompare(b.actor));
  return [...own, { actor: ARTIFACT, name: artifactName }];
}

/** An actor's shown name: its process name, else the code itself. */
export const actorName = (actors: readonly ActorOption[], code: string): string =>
  actors.find((a) => a.actor === code)?.name ?? code;

/** A word of an utterance as drawn: the token and the punctuation tokens that follow it. */
export interface Word {
  index: number;
  token: TokenDTO;
  punctuation: TokenDTO[];
}

/** The tokens of an utterance as words; leading punctuation (nothing to attach to) stands alone. */
export function wordsOf(tokens: readonly TokenDTO[]): Word[] {
  const words: Word[] = [];
  tokens.forEach((token, index) => {
    const last = words[words.length - 1];
    if (last && isPunctuationToken(token.value)) last.punctuation.push(token);
    else words.push({ index, token, punctuation: [] });
  });
  return words;
}

/** The selection: tokens anchor..focus (indexes, either order) of one utterance. */
export interface Selection {
  utteranceId: number;
  anchor: number;
  focus: number;
}

export const selectionRange = (s: Selection): [number, number] =>
  s.anchor <= s.focus ? [s.anchor, s.focus] : [s.focus, s.anchor];

/** The selected tokens (punctuation tokens skipped). */
export function selectedTokens(list: readonly UtteranceDTO[], s: Selection | null): TokenDTO[] {
  if (!s) return [];
  const u = list.find((x) => x.id === s.utteranceId);
  if (!u) return [];
  const [from, to] = selectionRange(s);
  return u.tokens.slice(from, to + 1).filter((t) => !isPunctuationToken(t.value));
}

/**
 * Left/right with no mode: the next selectable token, on into the next utterance (or back into the
 * previous one) at its edge; with `extend`, the focus moves inside the utterance and the anchor stays.
 */
export function traverse(
  list: readonly UtteranceDTO[],
  s: Selection | null,
  dir: 1 | -1,
  extend = false,
): Selection | null {
  if (list.length === 0) return null;
  if (!s) {
    for (let i = dir === 1 ? 0 : list.length - 1; i >= 0 && i < list.length; i += dir) {
      const at = nextSelectable(list[i].tokens, -1, dir);
      if (at >= 0 && at < list[i].tokens.length && !isPunctuationToken(list[i].tokens[at].value))
        return { utteranceId: list[i].id, anchor: at, focus: at };
    }
    return null;
  }
  const ui = list.findIndex((u) => u.id === s.utteranceId);
  if (ui < 0) return traverse(list, null, dir);
  const next = nextSelectable(list[ui].tokens, s.focus, dir);
  if (next !== s.focus)
    return extend ? { ...s, focus: next } : { utteranceId: s.utteranceId, anchor: next, focus: next };
  if (extend) return s;
  for (let i = ui + dir; i >= 0 && i < list.length; i += dir) {
    const at = nextSelectable(list[i].tokens, -1, dir);
    if (list[i].tokens[at] && !isPunctuationToken(list[i].tokens[at].value))
      return { utteranceId: list[i].id, anchor: at, focus: at };
  }
  return s;
}

/** Where a token is: its utterance and index. */
export interface TokenPlace {
  utteranceId: number;
  index: number;
  token: TokenDTO;
}

/** The tokens in transcript (time) order with their places: the playing word is looked up in it. */
export function timeline(list: readonly UtteranceDTO[]): TokenPlace[] {
  const out: TokenPlace[] = [];
  for (const u of list)
    u.tokens.forEach((token, index) => {
      if (token.tsStart !== null && !isPunctuationToken(token.value))
        out.push({ utteranceId: u.id, index, token });
    });
  return out.sort((a, b) => (a.token.tsStart ?? 0) - (b.token.tsStart ?? 0));
}

/** The token tags (ASR_NER_TAG) of each token id. */
export function tagsByToken(tags: readonly NerTagDTO[]): Map<number, NerTagDTO[]> {
  const map = new Map<number, NerTagDTO[]>();
  for (const tag of tags) {
    if (tag.type !== 'ASR_NER_TAG') continue;
    for (const { id } of tag.utteranceTokens) {
      const list = map.get(id) ?? [];
      list.push(tag);
      map.set(id, list);
    }
  }
  return map;
}

/**
 * Time-span tags (TIMESPAN_TAG, times in ms) as player regions in seconds, in their type's colour with its
 * name; resizable when `editable`; with `relations`, a badge with the relations a tag takes part in and an
 * outline on a tag without relation (as token tags are outlined by the relations layer).
 */
export function timespanRegions(
  tags: readonly NerTagDTO[],
  editable: boolean,
  relations?: RegionRelations,
): AudioRegion[] {
  return tags
    .filter((t) => t.type === 'TIMESPAN_TAG' && t.tsStart !== null && t.tsEnd !== null)
    .map((t) => {
      const region: AudioRegion = {
        id: t.id,
        editable,
        start: t.tsStart! / 1000,
        end: t.tsEnd! / 1000,
        color: t.nerTagType.backgroundColor,
        label: t.nerTagType.name,
      };
      const count = relations?.counts.get(t.id) ?? 0;
      if (count > 0) {
        region.badge = `↔ ${count}`;
        region.badgeTitle = relations!.title(count);
      }
      if (relations?.unrelated?.has(t.id)) region.outlined = true;
      return region;
    });
}

/** What the regions show of the relations (LABELING view): a badge with the count, an outline without. */
export interface RegionRelations {
  /** relations (saved and in the draft) by tag id (../workspace/relations.ts relationCounts) */
  counts: ReadonlyMap<number, number>;
  /** the tags without a saved relation, with 'Highlight tags without relation' on (else null) */
  unrelated: ReadonlySet<number> | null;
  /** the badge's tooltip */
  title: (count: number) => string;
}

/** Spec 2 section 9: tag times rounded to 2 decimals (of seconds), saved in ms. */
export const tagTimeMs = (seconds: number): number => Math.round(Math.max(0, seconds) * 100) * 10;

/** The rows are drawn in windows of this many utterances; only windows near the viewport get tokens. */
export const ROW_WINDOW = 10;

/** The window of an utterance index. */
export const windowOf = (index: number): number => Math.floor(index / ROW_WINDOW);

/**
 * What the relation views show of the transcript's tags (../workspace/relations.ts TagTexts): a token tag's
 * words in transcript order, a time-span tag's range in seconds.
 */
export function transcriptTagTexts(list: readonly UtteranceDTO[], tags: readonly NerTagDTO[]): TagTexts {
  const order = new Map<number, { at: number; value: string }>();
  let at = 0;
  for (const u of list) for (const token of u.tokens) order.set(token.id, { at: at++, value: token.value });
  const texts = new Map<number, string>();
  for (const tag of tags)
    if (tag.type === 'ASR_NER_TAG')
      texts.set(
        tag.id,
        tag.utteranceTokens
          .map(({ id }) => order.get(id))
          .filter((x) => x !== undefined)
          .sort((a, b) => a.at - b.at)
          .map((x) => x.value)
          .join(' '),
      );
    else if (tag.type === 'TIMESPAN_TAG' && tag.tsStart !== null && tag.tsEnd !== null)
      texts.set(tag.id, `${(tag.tsStart / 1000).toFixed(2)} s – ${(tag.tsEnd / 1000).toFixed(2)} s`);
  return (id) => texts.get(id) ?? '';
}

/** The ids of the token tags that start at each token (their first token in transcript order). */
export function tagStartsByToken(
  list: readonly UtteranceDTO[],
  byToken: ReadonlyMap<number, readonly NerTagDTO[]>,
): Map<number, number[]> {
  const seen = new Set<number>();
  const starts = new Map<number, number[]>();
  for (const u of list)
    for (const token of u.tokens)
      for (const tag of byToken.get(token.id) ?? [])
        if (!seen.has(tag.id)) {
          seen.add(tag.id);
          starts.set(token.id, [...(starts.get(token.id) ?? []), tag.id]);
        }
  return starts;
}

/** The selection covering a token tag's tokens (in the utterance of its first token), null when not drawn. */
export function tagSelection(list: readonly UtteranceDTO[], tag: NerTagDTO): Selection | null {
  const ids = new Set(tag.utteranceTokens.map((x) => x.id));
  for (const u of list) {
    const at = u.tokens.flatMap((t, i) => (ids.has(t.id) ? [i] : []));
    if (at.length) return { utteranceId: u.id, anchor: at[0], focus: at[at.length - 1] };
  }
  return null;
}
