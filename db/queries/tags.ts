/**
 * A document's tags: classifier tags (a node's classes of the document) and NER tags (spans or token tags of
 * a node's tag types), written by the executors and by users' steps, read by the document engine (which
 * evaluates predicates on them), the wildcards and training; the workspace's reads and a person's writes.
 */
import type { Knex } from 'knex';
import type { DocumentTags } from '../../domain/predicate-eval';
import type { ClassifierTagDTO, LabellingType, NerTagDTO, TagOrigin } from '../../domain/tags';
import { only, qualify } from './columns';

const CLASSIFIER_TAG_COLUMNS = ['node_id as nodeId', 'classifier_type_id as classifierTypeId'];

/**
 * SQL: the tag `tag` (a row of ner_tags or classifier_tags) of the node `nodeColumn` is part of the node's
 * result: written by no step, by a step of another node (a model or lexicon writing the node's labels), or by
 * the node's master step (a node with no step flagged master in the document: all its steps'). The tags of a
 * multiprocessed node's other steps are their annotators' own
 * (issue 31 section 1): the readers of a document's result (predicates, wildcards, search, training, the
 * export's master row) leave them out.
 */
export const masterTagSql = (tag: string, nodeColumn: string): string =>
  `not exists (select 1 from steps ns where ns.id = ${tag}.step_id and ns.node_id = ${nodeColumn} and not ns.master
     and exists (select 1 from steps ms where ms.document_id = ns.document_id and ms.node_id = ns.node_id and ms.master))`;

/** The document's tags as the predicates test them: which node gave which class or tag type. */
export async function documentTags(knex: Knex, documentId: number): Promise<DocumentTags> {
  const [classifier, ner] = await Promise.all([
    knex('classifier_tags as c')
      .where('c.document_id', documentId)
      .whereRaw(masterTagSql('c', 'c.node_id'))
      .distinct(qualify('c', CLASSIFIER_TAG_COLUMNS)),
    knex('ner_tags as t')
      .join('ner_tag_types as tt', 'tt.id', 't.ner_tag_type_id')
      .where('t.document_id', documentId)
      .whereRaw(masterTagSql('t', 'tt.node_id'))
      .distinct('tt.node_id as nodeId', 't.ner_tag_type_id as nerTagTypeId'),
  ]);
  return { classifier, ner };
}

export interface ClassifierTagRow {
  nodeId: number;
  /** The classifier type's id and name. */
  id: number;
  name: string;
}

/** The document's classifier tags (of one node, or of all) as the master steps set them, by type id. */
export async function classifierTags(
  knex: Knex,
  documentId: number,
  nodeId?: number,
): Promise<ClassifierTagRow[]> {
  const q = knex('classifier_tags as c')
    .join('classifier_types as t', 't.id', 'c.classifier_type_id')
    .where('c.document_id', documentId)
    .whereRaw(masterTagSql('c', 'c.node_id'))
    .orderBy('t.id')
    .distinct([...qualify('c', only(CLASSIFIER_TAG_COLUMNS, 'nodeId')), 't.id', 't.name']);
  if (nodeId !== undefined) q.where('c.node_id', nodeId);
  return q;
}

// --- NER tags ---

type Row = Record<string, any>;

const TAG_COLUMNS = [
  't.id',
  't.type',
  't.ner_tag_type_id',
  't.start_offset',
  't.end_offset',
  't.ts_start',
  't.ts_end',
  't.step_id',
  't.document_id',
  't.origin',
  't.created_by_id',
  't.last_modified_by_id',
  'tt.name as tt_name',
  'tt.background_color as tt_background_color',
  'tt.text_color as tt_text_color',
  'tt.node_id as tt_node_id',
  'tt.path as tt_path',
];

function toTagDTO(r: Row): NerTagDTO {
  return {
    id: r.id,
    type: r.type,
    nerTagTypeId: r.ner_tag_type_id,
    nerTagType: {
      id: r.ner_tag_type_id,
      name: r.tt_name,
      backgroundColor: r.tt_background_color,
      textColor: r.tt_text_color,
      nodeId: r.tt_node_id,
      path: r.tt_path ?? r.tt_name,
    },
    utteranceTokens: (r.token_ids ?? []).map((id: number | string) => ({ id: Number(id) })),
    startOffset: r.start_offset,
    endOffset: r.end_offset,
    tsStart: r.ts_start,
    tsEnd: r.ts_end,
    stepId: r.step_id,
    nodeId: r.tt_node_id,
    documentId: r.document_id,
    origin: r.origin,
    createdById: r.created_by_id,
    lastModifiedById: r.last_modified_by_id,
  };
}

/** Token ids of token tags only: text spans skip the lookup. */
const TOKEN_IDS = `case when t.type = 'SPAN_TAG' then null else (
  select array_agg(k.utterance_token_id order by k.utterance_token_id)
  from ner_tag_tokens k where k.ner_tag_id = t.id) end as token_ids`;

const tagQuery = (knex: Knex) =>
  knex('ner_tags as t')
    .join('ner_tag_types as tt', 'tt.id', 't.ner_tag_type_id')
    .select([...TAG_COLUMNS, knex.raw(TOKEN_IDS)]);

/**
 * The document's tags (of the given steps when any are given), in text order: one query over the
 * ner_tags(document_id) index.
 */
export async function listNerTags(
  knex: Knex,
  documentId: number,
  stepIds: readonly number[] | null,
): Promise<NerTagDTO[]> {
  const q = tagQuery(knex)
    .where('t.document_id', documentId)
    .orderByRaw(
      't.start_offset nulls last, t.ts_start nulls last, t.end_offset desc nulls last, t.ts_end desc nulls last, t.id',
    );
  if (stepIds) q.whereIn('t.step_id', [...stepIds]);
  return (await q).map(toTagDTO);
}

export async function nerTagDTO(knex: Knex, id: number): Promise<NerTagDTO> {
  return toTagDTO(await tagQuery(knex).where('t.id', id).first());
}

/** The tags of the ids, in no particular order. */
export async function nerTagDTOs(knex: Knex, ids: readonly number[]): Promise<NerTagDTO[]> {
  return (await tagQuery(knex).whereIn('t.id', [...ids])).map(toTagDTO);
}

/** The tags of a token (its ASR_NER_TAGs), of the given steps when any are given, by id. */
export async function nerTagsOfToken(
  knex: Knex,
  tokenId: number,
  stepIds: readonly number[] | null,
): Promise<NerTagDTO[]> {
  const q = tagQuery(knex)
    .whereExists(
      knex('ner_tag_tokens as k').whereRaw('k.ner_tag_id = t.id').where('k.utterance_token_id', tokenId),
    )
    .orderBy('t.id');
  if (stepIds) q.whereIn('t.step_id', [...stepIds]);
  return (await q).map(toTagDTO);
}

export interface TagRef {
  id: number;
  documentId: number;
  stepId: number | null;
  type: LabellingType;
  nerTagTypeId: number;
  startOffset: number | null;
  endOffset: number | null;
  tsStart: number | null;
  tsEnd: number | null;
  nodeId: number;
  processId: number;
}

/** A NER tag with the node (of its tag type) and process it belongs to. */
export async function findNerTag(knex: Knex, id: number): Promise<TagRef | undefined> {
  return knex('ner_tags as t')
    .join('ner_tag_types as tt', 'tt.id', 't.ner_tag_type_id')
    .join('nodes as n', 'n.id', 'tt.node_id')
    .where('t.id', id)
    .first(
      't.id',
      't.document_id as documentId',
      't.step_id as stepId',
      't.type',
      't.ner_tag_type_id as nerTagTypeId',
      't.start_offset as startOffset',
      't.end_offset as endOffset',
      't.ts_start as tsStart',
      't.ts_end as tsEnd',
      'n.id as nodeId',
      'n.process_id as processId',
    );
}

/** The text spans of one tag type in a step. */
export async function stepSpans(
  knex: Knex,
  stepId: number,
  nerTagTypeId: number,
): Promise<{ id: number; startOffset: number; endOffset: number }[]> {
  return knex('ner_tags')
    .where({ step_id: stepId, ner_tag_type_id: nerTagTypeId, type: 'SPAN_TAG' })
    .select('id', 'start_offset as startOffset', 'end_offset as endOffset');
}

/** A tag as a person's write creates it (origin USER). */
export interface NewNerTag {
  documentId: number;
  stepId: number;
  nerTagTypeId: number;
  type: LabellingType;
  startOffset?: number | null;
  endOffset?: number | null;
  tsStart?: number | null;
  tsEnd?: number | null;
  createdById: number;
  /** the utterance tokens of an ASR_NER_TAG */
  tokenIds?: readonly number[];
}

/** Inserts the tags (and their tokens); their ids in the order given. */
export async function insertUserNerTags(knex: Knex, tags: readonly NewNerTag[]): Promise<number[]> {
  if (!tags.length) return [];
  const rows: { id: number }[] = await knex('ner_tags')
    .insert(
      tags.map((t) => ({
        document_id: t.documentId,
        step_id: t.stepId,
        ner_tag_type_id: t.nerTagTypeId,
        type: t.type,
        start_offset: t.startOffset ?? null,
        end_offset: t.endOffset ?? null,
        ts_start: t.tsStart ?? null,
        ts_end: t.tsEnd ?? null,
        origin: 'USER' satisfies TagOrigin,
        created_by_id: t.createdById,
      })),
    )
    .returning('id');
  const ids = rows.map((r) => Number(r.id));
  const tokens = tags.flatMap((t, i) =>
    (t.tokenIds ?? []).map((tokenId) => ({ ner_tag_id: ids[i], utterance_token_id: tokenId })),
  );
  if (tokens.length) await knex('ner_tag_tokens').insert(tokens);
  return ids;
}

/**
 * The id of a tag of the step with the same type and target as the one given: the same times
 * (TIMESPAN_TAG) or the same tokens (ASR_NER_TAG).
 */
export async function sameSpeechTag(
  knex: Knex,
  tag: Pick<NewNerTag, 'stepId' | 'nerTagTypeId' | 'type' | 'tsStart' | 'tsEnd' | 'tokenIds'>,
): Promise<number | undefined> {
  const same = knex('ner_tags as t')
    .where({ 't.step_id': tag.stepId, 't.ner_tag_type_id': tag.nerTagTypeId, 't.type': tag.type })
    .select('t.id');
  if (tag.type === 'TIMESPAN_TAG') same.where({ 't.ts_start': tag.tsStart, 't.ts_end': tag.tsEnd });
  else
    same.whereRaw(
      '(select array_agg(k.utterance_token_id order by k.utterance_token_id) from ner_tag_tokens k where k.ner_tag_id = t.id) = ?::bigint[]',
      [[...(tag.tokenIds ?? [])]],
    );
  const existing = await same.first();
  return existing ? Number(existing.id) : undefined;
}

/** The new values of a tag; its tokens are replaced when `tokenIds` is given. */
export interface NerTagUpdate {
  stepId: number | null;
  nerTagTypeId: number;
  startOffset: number | null;
  endOffset: number | null;
  tsStart: number | null;
  tsEnd: number | null;
  tokenIds?: readonly number[];
  lastModifiedById: number;
}

export async function updateNerTagRow(knex: Knex, id: number, u: NerTagUpdate): Promise<void> {
  if (u.tokenIds) {
    await knex('ner_tag_tokens').where('ner_tag_id', id).delete();
    await knex('ner_tag_tokens').insert(u.tokenIds.map((t) => ({ ner_tag_id: id, utterance_token_id: t })));
  }
  await knex('ner_tags').where('id', id).update({
    step_id: u.stepId,
    ner_tag_type_id: u.nerTagTypeId,
    start_offset: u.startOffset,
    end_offset: u.endOffset,
    ts_start: u.tsStart,
    ts_end: u.tsEnd,
    last_modified_by_id: u.lastModifiedById,
    last_modified_date: new Date(),
  });
}

export async function deleteNerTagRow(knex: Knex, id: number): Promise<void> {
  await knex('ner_tags').where('id', id).delete();
}

// --- classifier tags ---

const CLASSIFIER_DTO_COLUMNS = [
  'c.id',
  'c.document_id',
  'c.step_id',
  'c.node_id',
  'c.classifier_type_id',
  'c.origin',
  'c.created_by_id',
  'ct.name as ct_name',
  'ct.background_color as ct_background_color',
];

const toClassifierDTO = (r: Row): ClassifierTagDTO => ({
  id: r.id,
  documentId: r.document_id,
  stepId: r.step_id,
  nodeId: r.node_id,
  classifierTypeId: r.classifier_type_id,
  classifierType: {
    id: r.classifier_type_id,
    name: r.ct_name,
    backgroundColor: r.ct_background_color,
    nodeId: r.node_id,
  },
  origin: r.origin,
  createdById: r.created_by_id,
});

const classifierQuery = (knex: Knex) =>
  knex('classifier_tags as c')
    .join('classifier_types as ct', 'ct.id', 'c.classifier_type_id')
    .select(CLASSIFIER_DTO_COLUMNS);

export async function listClassifierTags(knex: Knex, documentId: number): Promise<ClassifierTagDTO[]> {
  return (await classifierQuery(knex).where('c.document_id', documentId).orderBy('c.id')).map(
    toClassifierDTO,
  );
}

export async function classifierTagDTO(knex: Knex, id: number): Promise<ClassifierTagDTO> {
  return toClassifierDTO(await classifierQuery(knex).where('c.id', id).first());
}

export interface ClassifierTagRef {
  id: number;
  documentId: number;
  stepId: number | null;
  nodeId: number;
  processId: number;
}

export async function findClassifierTag(knex: Knex, id: number): Promise<ClassifierTagRef | undefined> {
  return knex('classifier_tags as c')
    .join('nodes as n', 'n.id', 'c.node_id')
    .where('c.id', id)
    .first(
      'c.id',
      'c.document_id as documentId',
      'c.step_id as stepId',
      'n.id as nodeId',
      'n.process_id as processId',
    );
}

/**
 * Sets a person's classifier type on the document at the node in their step (one per type, node and step:
 * each annotator of a multiprocessed node has their own): the tag's id, and whether it was created (false:
 * the step had it).
 */
export async function insertUserClassifierTag(
  knex: Knex,
  tag: { documentId: number; stepId: number; nodeId: number; classifierTypeId: number; createdById: number },
): Promise<{ id: number; created: boolean }> {
  const [row] = await knex('classifier_tags')
    .insert({
      document_id: tag.documentId,
      step_id: tag.stepId,
      node_id: tag.nodeId,
      classifier_type_id: tag.classifierTypeId,
      origin: 'USER' satisfies TagOrigin,
      created_by_id: tag.createdById,
    })
    .onConflict(['document_id', 'node_id', 'step_id', 'classifier_type_id'])
    .ignore()
    .returning('id');
  if (row) return { id: Number(row.id), created: true };
  const had = await knex('classifier_tags')
    .where({
      document_id: tag.documentId,
      node_id: tag.nodeId,
      step_id: tag.stepId,
      classifier_type_id: tag.classifierTypeId,
    })
    .first('id');
  return { id: Number(had.id), created: false };
}

export async function deleteClassifierTagRow(knex: Knex, id: number): Promise<void> {
  await knex('classifier_tags').where('id', id).delete();
}

// --- tags written by machines (external models, the lexicon) ---

const INSERT_CHUNK = 1000;

/** Draws `n` ids of new NER tags (so each tag's token links are known without relying on RETURNING order). */
export async function nextNerTagIds(trx: Knex, n: number): Promise<number[]> {
  const { rows } = await trx.raw(
    `select nextval(pg_get_serial_sequence('ner_tags', 'id'))::bigint as id from generate_series(1, ?)`,
    [n],
  );
  return rows.map((r: { id: number | string }) => Number(r.id));
}

/** Inserts NER tag rows and the links of token tags to their tokens, in chunks, in the transaction. */
export async function insertNerTagRows(
  trx: Knex.Transaction,
  rows: readonly object[],
  links: readonly { ner_tag_id: number; utterance_token_id: number }[] = [],
): Promise<void> {
  if (rows.length) await trx.batchInsert('ner_tags', [...rows], INSERT_CHUNK).transacting(trx);
  if (links.length) await trx.batchInsert('ner_tag_tokens', [...links], INSERT_CHUNK).transacting(trx);
}

/** Deletes the document's NER tags of the node's tag types. */
export async function deleteNodeNerTagsOfDocument(
  knex: Knex,
  documentId: number,
  nodeId: number,
): Promise<void> {
  await knex('ner_tags')
    .where('document_id', documentId)
    .whereIn('ner_tag_type_id', knex('ner_tag_types').where('node_id', nodeId).select('id'))
    .delete();
}

export async function deleteNerTagsOfStep(knex: Knex, stepId: number): Promise<void> {
  await knex('ner_tags').where('step_id', stepId).delete();
}

/** The node's classifier tags of the document become the types `typeIds`, written by `origin`; how many. */
export async function replaceNodeClassifierTags(
  knex: Knex,
  t: { documentId: number; stepId: number; nodeId: number; origin: string },
  typeIds: readonly number[],
): Promise<number> {
  await knex('classifier_tags').where({ document_id: t.documentId, node_id: t.nodeId }).delete();
  const rows = typeIds.map((id) => ({
    document_id: t.documentId,
    step_id: t.stepId,
    node_id: t.nodeId,
    classifier_type_id: id,
    origin: t.origin,
  }));
  if (rows.length) await knex('classifier_tags').insert(rows);
  return rows.length;
}

/** The document's span tags with their label and, for token tags, their tokens' text joined. */
export async function spanTagTexts(
  knex: Knex,
  documentId: number,
): Promise<{ id: number; name: string; start: number | null; end: number | null; tokens: string | null }[]> {
  return knex('ner_tags as t')
    .join('ner_tag_types as y', 'y.id', 't.ner_tag_type_id')
    .leftJoin('ner_tag_tokens as nt', 'nt.ner_tag_id', 't.id')
    .leftJoin('utterance_tokens as u', 'u.id', 'nt.utterance_token_id')
    .where('t.document_id', documentId)
    .whereRaw(masterTagSql('t', 'y.node_id'))
    .groupBy('t.id', 'y.name', 't.start_offset', 't.end_offset')
    .orderBy([{ column: 't.start_offset', order: 'asc' }, { column: 't.id' }])
    .select(
      't.id',
      'y.name',
      't.start_offset as start',
      't.end_offset as end',
      knex.raw("string_agg(u.value, ' ' order by u.utterance_id, u.position) as tokens"),
    );
}

/** The document's NER tags of the node's tag types (its master step's) with their label, by offset then id. */
export async function nodeSpanTags(
  knex: Knex,
  documentId: number,
  nodeId: number,
): Promise<{ id: number | string; label: string; start: number | null; end: number | null }[]> {
  return knex('ner_tags as t')
    .join('ner_tag_types as y', 'y.id', 't.ner_tag_type_id')
    .where({ 't.document_id': documentId, 'y.node_id': nodeId })
    .whereRaw(masterTagSql('t', 'y.node_id'))
    .orderBy([{ column: 't.start_offset' }, { column: 't.id' }])
    .select('t.id', 'y.name as label', 't.start_offset as start', 't.end_offset as end');
}

/** The tokens of each of the tags (token tags), as tag id to token ids in link order. */
export async function tokenIdsOfTags(
  knex: Knex,
  tagIds: readonly (number | string)[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  const links = await knex('ner_tag_tokens')
    .whereIn('ner_tag_id', [...tagIds])
    .select('ner_tag_id', 'utterance_token_id');
  for (const l of links)
    out.set(Number(l.ner_tag_id), [...(out.get(Number(l.ner_tag_id)) ?? []), Number(l.utterance_token_id)]);
  return out;
}
