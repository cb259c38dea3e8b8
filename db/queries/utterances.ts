/**
 * A document's transcript: utterances (a linked list by prevId/nextId), their tokens and the tokens'
 * alternatives (token_hints). Written by the parser (`replaceTranscript`), read by the API's workspace and
 * by the executors (`transcriptTokens`); a person's write is planned by api/services/utterances.ts and its
 * difference written here (`writeTranscriptPlan`), deleted tokens kept a day to be brought back.
 */
import type { Knex } from 'knex';
import { linkUtterances, type TranscriptUtterance } from '../../domain/transcript';
import type { TokenState, TranscriptPlan } from '../../domain/utterances';
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

/** The tokens of the ids that belong to the document's transcript, with their utterance and times. */
export async function documentTokensByIds(
  knex: Knex,
  documentId: number,
  ids: readonly number[],
): Promise<Pick<TokenRow, 'id' | 'utteranceId' | 'tsStart' | 'tsEnd'>[]> {
  if (!ids.length) return [];
  return knex('utterance_tokens as k')
    .join('utterances as u', 'u.id', 'k.utterance_id')
    .where('u.document_id', documentId)
    .whereIn('k.id', [...ids])
    .select(qualify('k', only(TOKEN_COLUMNS, 'id', 'utteranceId', 'tsStart', 'tsEnd')));
}

// --- whose an utterance or a token is ---

/** The document (and process) an utterance or a token belongs to. */
export async function documentOfUtterance(
  knex: Knex,
  utteranceId: number,
): Promise<{ documentId: number; processId: number } | undefined> {
  return knex('utterances as u')
    .join('documents as d', 'd.id', 'u.document_id')
    .where('u.id', utteranceId)
    .first('d.id as documentId', 'd.process_id as processId');
}

export interface TokenDocument {
  documentId: number;
  processId: number;
  utteranceId: number;
}

/** The document, process and utterance of each of the tokens that exist, in one query. */
export async function documentsOfTokens(
  knex: Knex,
  tokenIds: readonly number[],
): Promise<Map<number, TokenDocument>> {
  if (!tokenIds.length) return new Map();
  const rows: (TokenDocument & { id: number | string })[] = await knex('utterance_tokens as t')
    .join('utterances as u', 'u.id', 't.utterance_id')
    .join('documents as d', 'd.id', 'u.document_id')
    .whereIn('t.id', [...tokenIds])
    .select('t.id', 'd.id as documentId', 'd.process_id as processId', 'u.id as utteranceId');
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        documentId: Number(r.documentId),
        processId: Number(r.processId),
        utteranceId: Number(r.utteranceId),
      },
    ]),
  );
}

export async function documentOfToken(knex: Knex, tokenId: number): Promise<TokenDocument | undefined> {
  return (await documentsOfTokens(knex, [tokenId])).get(tokenId);
}

export async function utteranceById(knex: Knex, id: number): Promise<UtteranceRow | undefined> {
  return knex('utterances').where('id', id).first(UTTERANCE_COLUMNS);
}

/** The actor codes of the document's utterances. */
export async function documentActors(knex: Knex, documentId: number): Promise<string[]> {
  return knex('utterances').where('document_id', documentId).distinct().pluck('actor');
}

/** The actor codes a process defines (process_actors). */
export async function processActorCodes(knex: Knex, processId: number): Promise<string[]> {
  return knex('process_actors').where('process_id', processId).pluck('actor');
}

/** Every token of the token tags that label any of `tokenIds`, with its utterance. */
export async function tokensOfTagsOfTokens(
  knex: Knex,
  tokenIds: readonly number[],
): Promise<{ tagId: string; tokenId: string; utteranceId: string }[]> {
  return knex('ner_tag_tokens as k')
    .join('utterance_tokens as t', 't.id', 'k.utterance_token_id')
    .whereIn(
      'k.ner_tag_id',
      knex('ner_tag_tokens')
        .whereIn('utterance_token_id', [...tokenIds])
        .select('ner_tag_id'),
    )
    .select('k.ner_tag_id as tagId', 'k.utterance_token_id as tokenId', 't.utterance_id as utteranceId');
}

// --- a person's transcript write (api/services/utterances.ts plans it) ---

/** Writes the difference of a plan (see the module header). */
export async function writeTranscriptPlan(
  trx: Knex.Transaction,
  documentId: number,
  plan: TranscriptPlan,
  created: { utterances: Set<number>; tokens: Set<number> },
  deletedTokens: readonly number[],
  restored: readonly number[],
) {
  if (deletedTokens.length) {
    await keepDeletedTokens(trx, documentId, deletedTokens);
    await trx('utterance_tokens')
      .whereIn('id', [...deletedTokens])
      .delete();
  }
  const byId = new Map(plan.utterances.map((u) => [u.id, u]));
  const fresh = [...created.utterances].map((id) => byId.get(id)!).filter(Boolean);
  if (fresh.length)
    await trx('utterances').insert(
      fresh.map((u) => ({
        id: u.id,
        document_id: documentId,
        actor: u.actor,
        prev_id: u.prevId,
        next_id: u.nextId,
      })),
    );
  for (const id of plan.touched) {
    if (created.utterances.has(id)) continue;
    const u = byId.get(id)!;
    await trx('utterances').where('id', id).update({ actor: u.actor, prev_id: u.prevId, next_id: u.nextId });
  }
  // tokens of the utterances whose list changed, and tokens changed in place
  const written = new Set<number>(plan.changedTokens);
  for (const id of plan.touched) for (const tid of byId.get(id)!.tokenIds) written.add(tid);
  const rows = [...written].map((tid) => {
    const t = plan.tokens.get(tid)!;
    return { ...t, position: byId.get(t.utteranceId)!.tokenIds.indexOf(tid) };
  });
  const toRow = (t: TokenState & { position: number }) => ({
    id: t.id,
    utterance_id: t.utteranceId,
    position: t.position,
    value: t.value,
    ts_start: t.tsStart,
    ts_end: t.tsEnd,
    properties: JSON.stringify(t.properties),
    unclear: t.unclear,
  });
  const inserts = rows.filter((t) => created.tokens.has(t.id));
  if (inserts.length) await trx('utterance_tokens').insert(inserts.map(toRow));
  const updates = rows.filter((t) => !created.tokens.has(t.id));
  if (updates.length) {
    const values = updates.map(
      () => '(?::bigint, ?::bigint, ?::int, ?::text, ?::int, ?::int, ?::jsonb, ?::boolean)',
    );
    await trx.raw(
      `update utterance_tokens as t set utterance_id = v.u, position = v.p, value = v.value,
         ts_start = v.s, ts_end = v.e, properties = v.props, unclear = v.unclear
       from (values ${values.join(', ')}) as v(id, u, p, value, s, e, props, unclear)
       where t.id = v.id`,
      updates.flatMap((t) => Object.values(toRow(t))),
    );
  }
  if (plan.removed.length) await trx('utterances').whereIn('id', plan.removed).delete();
  if (restored.length) await restoreTokens(trx, documentId, restored);
  if (deletedTokens.length)
    // a token tag left without tokens labels nothing
    await trx('ner_tags')
      .where({ document_id: documentId, type: 'ASR_NER_TAG' })
      .whereNotExists(trx('ner_tag_tokens as k').whereRaw('k.ner_tag_id = ner_tags.id'))
      .delete();
}

/** How long a deleted token can be brought back (the undo stack lives in the page). */
const KEEP_DELETED = '1 day';

/** Keeps the tokens about to be deleted with their hints and token tags (see the module header). */
async function keepDeletedTokens(trx: Knex.Transaction, documentId: number, ids: readonly number[]) {
  await trx('deleted_utterance_tokens')
    .where('deleted_at', '<', trx.raw(`now() - interval '${KEEP_DELETED}'`))
    .delete();
  await trx.raw(
    `insert into deleted_utterance_tokens (token_id, document_id, token, hints, tags)
     select t.id, ?, to_jsonb(t),
            coalesce((select jsonb_agg(to_jsonb(h)) from token_hints h where h.utterance_token_id = t.id), '[]'),
            coalesce((select jsonb_agg(to_jsonb(n)) from ner_tags n
                      join ner_tag_tokens k on k.ner_tag_id = n.id where k.utterance_token_id = t.id), '[]')
     from utterance_tokens t where t.id = any(?::bigint[])
     on conflict (token_id) do update set document_id = excluded.document_id, token = excluded.token,
       hints = excluded.hints, tags = excluded.tags, deleted_at = now()`,
    [documentId, [...ids]],
  );
}

/** The tokens among `ids` the document's deleted tokens still hold (they can be brought back). */
export async function restorableTokens(trx: Knex.Transaction, documentId: number, ids: readonly number[]) {
  if (!ids.length) return [];
  const found: (number | string)[] = await trx('deleted_utterance_tokens')
    .where('document_id', documentId)
    .whereIn('token_id', [...ids])
    .where('deleted_at', '>=', trx.raw(`now() - interval '${KEEP_DELETED}'`))
    .pluck('token_id');
  return found.map(Number);
}

/**
 * Brings back what deleted tokens had, once the write has inserted them again under their ids: their
 * confidence, hints and token tag links; a tag removed with its last token comes back with its id and row
 * (while its type, step and users still exist).
 */
async function restoreTokens(trx: Knex.Transaction, documentId: number, ids: readonly number[]) {
  const bind = [[...ids]];
  await trx.raw(
    `update utterance_tokens t set confidence = (d.token->>'confidence')::double precision
     from deleted_utterance_tokens d where d.token_id = t.id and t.id = any(?::bigint[])`,
    bind,
  );
  await trx.raw(
    `insert into token_hints
     select distinct on (r.id) r.* from deleted_utterance_tokens d,
       jsonb_populate_recordset(null::token_hints, d.hints) r
     where d.token_id = any(?::bigint[]) and r.utterance_token_id = d.token_id
     on conflict (id) do nothing`,
    bind,
  );
  await trx.raw(
    `insert into ner_tags
     select distinct on (r.id) r.* from deleted_utterance_tokens d,
       jsonb_populate_recordset(null::ner_tags, d.tags) r
     where d.token_id = any(?::bigint[]) and r.document_id = ?
       and exists (select 1 from ner_tag_types y where y.id = r.ner_tag_type_id)
       and (r.step_id is null or exists (select 1 from steps s where s.id = r.step_id))
       and (r.created_by_id is null or exists (select 1 from users u where u.id = r.created_by_id))
       and (r.last_modified_by_id is null or exists (select 1 from users u where u.id = r.last_modified_by_id))
     on conflict (id) do nothing`,
    [[...ids], documentId],
  );
  await trx.raw(
    `insert into ner_tag_tokens (ner_tag_id, utterance_token_id)
     select n.id, d.token_id from deleted_utterance_tokens d, jsonb_array_elements(d.tags) x
     join ner_tags n on n.id = (x->>'id')::bigint
     where d.token_id = any(?::bigint[]) and n.document_id = ?
     on conflict do nothing`,
    [[...ids], documentId],
  );
  await trx('deleted_utterance_tokens')
    .whereIn('token_id', [...ids])
    .delete();
}
