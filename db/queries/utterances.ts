/**
 * A document's transcript: utterances (a linked list by prevId/nextId), their tokens and the tokens'
 * alternatives (token_hints). Written by the parser (`replaceTranscript`), read by the API's workspace and
 * by the executors (`transcriptTokens`).
 */
import type { Knex } from 'knex';
import { linkUtterances, type TranscriptUtterance } from '../../domain/transcript';
import { insertChunked, nextIds } from './bulk';
import { only, qualify } from './columns';

export interface UtteranceRow {
  id: number;
  docId: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
}

export const UTTERANCE_COLUMNS = [
  'id',
  'document_id as docId',
  'actor',
  'prev_id as prevId',
  'next_id as nextId',
];

export interface TokenRow {
  id: number;
  utteranceId: number;
  value: string;
  tsStart: number | null;
  tsEnd: number | null;
  confidence: number | null;
  properties: string[];
  unclear: boolean;
}

export const TOKEN_COLUMNS = [
  'id',
  'utterance_id as utteranceId',
  'value',
  'ts_start as tsStart',
  'ts_end as tsEnd',
  'confidence',
  'properties',
  'unclear',
];

export interface HintRow {
  id: number;
  utteranceTokenId: number;
  value: string;
  confidence: number | null;
}

export const HINT_COLUMNS = ['id', 'utterance_token_id as utteranceTokenId', 'value', 'confidence'];

/** The document's utterances by id. */
export async function documentUtterances(knex: Knex, documentId: number): Promise<UtteranceRow[]> {
  return knex('utterances').where('document_id', documentId).orderBy('id').select(UTTERANCE_COLUMNS);
}

/** An utterance of a write's neighbourhood: `core` when it was asked for, else a neighbour of one that was. */
export interface NeighbourhoodRow extends UtteranceRow {
  core: boolean;
}

/**
 * The document's utterances among `ids` and those holding the tokens `tokenIds` (core), with their neighbours
 * by prevId/nextId, in one statement (ids of other documents are left out).
 */
export async function utteranceNeighbourhood(
  knex: Knex,
  documentId: number,
  ids: readonly number[],
  tokenIds: readonly number[],
): Promise<NeighbourhoodRow[]> {
  if (!ids.length && !tokenIds.length) return [];
  const { rows } = await knex.raw<{ rows: NeighbourhoodRow[] }>(
    `with core as (
       select u.id, u.prev_id, u.next_id from utterances u
       where u.document_id = ?
         and (u.id = any(?::bigint[])
              or u.id in (select t.utterance_id from utterance_tokens t where t.id = any(?::bigint[])))
     )
     select u.id, u.document_id as "docId", u.actor, u.prev_id as "prevId", u.next_id as "nextId",
            u.id in (select id from core) as core
     from utterances u
     where u.document_id = ?
       and u.id in (select id from core union select prev_id from core union select next_id from core)
     order by u.id`,
    [documentId, [...ids], [...tokenIds], documentId],
  );
  return rows;
}

/** True when the document has a transcript. */
export async function hasUtterances(knex: Knex, documentId: number): Promise<boolean> {
  return Boolean(await knex('utterances').where('document_id', documentId).first('id'));
}

/** The tokens of the utterances, by utterance and position. */
export async function utteranceTokens(knex: Knex, utteranceIds: readonly number[]): Promise<TokenRow[]> {
  return knex('utterance_tokens')
    .whereIn('utterance_id', [...utteranceIds])
    .orderBy(['utterance_id', 'position', 'id'])
    .select(TOKEN_COLUMNS);
}

/** One token. */
export async function tokenById(knex: Knex, id: number): Promise<TokenRow | undefined> {
  return knex('utterance_tokens').where('id', id).first(TOKEN_COLUMNS);
}

/** A transcript's token as the executors read it. */
export type TranscriptToken = Pick<TokenRow, 'id' | 'utteranceId' | 'value' | 'tsStart' | 'tsEnd'>;

/** The document's tokens in transcript order (utterances by id, tokens by position). */
export async function transcriptTokens(knex: Knex, documentId: number): Promise<TranscriptToken[]> {
  return knex('utterance_tokens as k')
    .join('utterances as u', 'u.id', 'k.utterance_id')
    .where('u.document_id', documentId)
    .orderBy([{ column: 'u.id' }, { column: 'k.position' }, { column: 'k.id' }])
    .select(qualify('k', only(TOKEN_COLUMNS, 'id', 'utteranceId', 'value', 'tsStart', 'tsEnd')));
}

/** The recognizer's alternatives of the document's tokens (or of one of them), best first per token. */
export async function tokenHints(
  knex: Knex,
  documentId: number,
  utteranceTokenId?: number,
): Promise<HintRow[]> {
  const q = knex('token_hints as h')
    .join('utterance_tokens as t', 't.id', 'h.utterance_token_id')
    .join('utterances as u', 'u.id', 't.utterance_id')
    .where('u.document_id', documentId)
    .orderBy([
      { column: 'h.utterance_token_id' },
      { column: 'h.confidence', order: 'desc', nulls: 'last' },
      { column: 'h.id' },
    ])
    .select(qualify('h', HINT_COLUMNS));
  if (utteranceTokenId !== undefined) q.where('h.utterance_token_id', utteranceTokenId);
  return q;
}

/**
 * Replaces the document's transcript (inside the caller's transaction). Utterance and token ids are taken
 * from their sequences up front, so the linked list and the hints are written in single inserts.
 */
export async function replaceTranscript(
  trx: Knex.Transaction,
  documentId: number,
  utterances: TranscriptUtterance[],
): Promise<void> {
  await trx('utterances').where({ document_id: documentId }).delete();
  const uttIds = await nextIds(trx, 'utterances', utterances.length);
  const links = linkUtterances(uttIds);
  await insertChunked(
    trx,
    'utterances',
    utterances.map((u, i) => ({
      id: links[i].id,
      document_id: documentId,
      actor: u.actor,
      prev_id: links[i].prevId,
      next_id: links[i].nextId,
    })),
  );
  const tokens = utterances.flatMap((u, i) =>
    u.tokens.map((t, position) => ({ t, position, uttId: uttIds[i] })),
  );
  const tokenIds = await nextIds(trx, 'utterance_tokens', tokens.length);
  await insertChunked(
    trx,
    'utterance_tokens',
    tokens.map(({ t, position, uttId }, i) => ({
      id: tokenIds[i],
      utterance_id: uttId,
      position,
      value: t.value,
      ts_start: t.tsStart,
      ts_end: t.tsEnd,
      confidence: t.confidence,
    })),
  );
  await insertChunked(
    trx,
    'token_hints',
    tokens.flatMap(({ t }, i) =>
      t.hints.map((h) => ({ utterance_token_id: tokenIds[i], value: h.value, confidence: h.confidence })),
    ),
  );
}
