/**
 * NER tags of documents for the workspace (issue 11 section 3; rules in domain/tags.ts): reads, and a person's
 * writes, each in a transaction that holds the document row and re-checks the step the write goes to
 * (./tag-steps.ts). The routes have checked access and the body. Classifier tags: ./classifier-tags.ts.
 */
import type { Knex } from 'knex';
import { assertNodeMode, unreachable, type AuthUser } from '../auth';
import { fieldErrors, HttpError } from '../errors';
import {
  roundTagMs,
  spanProblem,
  spanViolations,
  timeSpanViolations,
  supportsLabelling,
  TAG_MESSAGES,
  type LabellingType,
  type NerTagDTO,
  type TagOrigin,
} from '../../domain/tags';
import { relationCountOfTag } from '../../db/queries/relation-graphs';
import { RELATION_MESSAGES } from '../../domain/relations';
import { assertStepEditable, stepForWrite } from './tag-steps';

export type Row = Record<string, any>;

// --- reads ---

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

// --- what a write needs to know ---

export interface LabelRef {
  id: number;
  nodeId: number;
  processId: number;
  activityType: string;
  name: string;
  selectable: boolean;
}

/** A NER tag type with its node (selectable: chosen by a person: selectable and not disabled). */
export async function findNerTagType(knex: Knex, id: number): Promise<LabelRef | undefined> {
  const r = await knex('ner_tag_types as tt')
    .join('nodes as n', 'n.id', 'tt.node_id')
    .where('tt.id', id)
    .first(
      'tt.id',
      'tt.name',
      'tt.selectable',
      'tt.disabled',
      'n.id as nodeId',
      'n.process_id as processId',
      'n.activity_type as activityType',
    );
  return r ? { ...r, selectable: r.selectable && !r.disabled } : undefined;
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

export async function findDocumentIn(
  knex: Knex,
  documentId: number,
  processId: number,
): Promise<{ id: number; documentType: string } | undefined> {
  return knex('documents')
    .where({ id: documentId, process_id: processId })
    .first('id', 'document_type as documentType');
}

/** The text tags are placed in, and whether the document is a transcript (which takes token tags). */
export async function documentText(
  knex: Knex,
  documentId: number,
): Promise<{ content: string; transcript: boolean }> {
  const [content, utterance] = await Promise.all([
    knex('document_contents').where('document_id', documentId).first('content'),
    knex('utterances').where('document_id', documentId).first('id'),
  ]);
  return { content: content?.content ?? '', transcript: Boolean(utterance) };
}

// --- refusals of a write ---

export const unsupportedType = (detail: string) =>
  new HttpError(400, { message: 'error.labellingType', errorKey: 'labellingType', detail });

/** A tag type whose node does not take the labelling type. */
export const nodeUndefined = (detail: string = TAG_MESSAGES['error.tag.nodeUndefined']) =>
  new HttpError(400, { message: 'error.tag.nodeUndefined', errorKey: 'nodeUndefined', detail });

/** 400 with the span's field errors and one English sentence. */
export function checkSpan(start: number, end: number, content: string): void {
  const violations = spanViolations(start, end, content);
  if (!violations.length) return;
  const err = fieldErrors('nerTag', violations);
  err.body.detail = spanProblem(start, end, content) ?? undefined;
  throw err;
}

export const notSelectable = (label: LabelRef) => {
  const err = fieldErrors('nerTag', [
    { field: 'nerTagTypeId', violation: { code: 'Match', key: 'soaApp.nerTag.typeNotSelectable' } },
  ]);
  err.body.detail = `${TAG_MESSAGES['soaApp.nerTag.typeNotSelectable']} (${label.name})`;
  return err;
};

// --- NER tag writes ---

export interface SpanWrite {
  startOffset: number;
  endOffset: number;
}

/**
 * Creates text spans of one tag type in the step the caller edits, all or none; a span the step already has
 * with the same type is answered as it is (created: false).
 */
export async function createSpanTags(
  knex: Knex,
  user: AuthUser,
  tagType: LabelRef,
  documentId: number,
  spans: readonly SpanWrite[],
  wantedStepId?: number | null,
): Promise<{ tags: NerTagDTO[]; created: number }> {
  const ids = await knex.transaction(async (trx) => {
    const stepId = await stepForWrite(trx, user, tagType, documentId, wantedStepId);
    const existing: { id: number; start_offset: number; end_offset: number }[] = await trx('ner_tags')
      .where({ step_id: stepId, ner_tag_type_id: tagType.id, type: 'SPAN_TAG' })
      .select('id', 'start_offset', 'end_offset');
    const byRange = new Map(existing.map((t) => [`${t.start_offset}:${t.end_offset}`, t.id]));
    const fresh = new Map<string, SpanWrite>();
    for (const s of spans) {
      const k = `${s.startOffset}:${s.endOffset}`;
      if (!byRange.has(k)) fresh.set(k, s);
    }
    if (fresh.size) {
      const rows: { id: number; start_offset: number; end_offset: number }[] = await trx('ner_tags')
        .insert(
          [...fresh.values()].map((s) => ({
            document_id: documentId,
            step_id: stepId,
            ner_tag_type_id: tagType.id,
            type: 'SPAN_TAG',
            start_offset: s.startOffset,
            end_offset: s.endOffset,
            origin: 'USER' satisfies TagOrigin,
            created_by_id: user.id,
          })),
        )
        .returning(['id', 'start_offset', 'end_offset']);
      for (const r of rows) byRange.set(`${r.start_offset}:${r.end_offset}`, r.id);
    }
    return { ids: spans.map((s) => byRange.get(`${s.startOffset}:${s.endOffset}`)!), created: fresh.size };
  });
  const rows = (await tagQuery(knex).whereIn('t.id', [...new Set(ids.ids)])).map(toTagDTO);
  const byId = new Map(rows.map((t) => [t.id, t]));
  return { tags: ids.ids.map((id) => byId.get(id)!), created: ids.created };
}

/**
 * Resizes and/or retypes a tag. Its own step must be editable by the caller; a new type of another node moves
 * it to the caller's editable step of that node.
 */
export async function updateNerTag(
  knex: Knex,
  user: AuthUser,
  tag: TagRef,
  change: {
    tagType: LabelRef | null;
    startOffset: number | null;
    endOffset: number | null;
    tsStart?: number | null;
    tsEnd?: number | null;
    tokens?: SpeechTokens | null;
  },
): Promise<NerTagDTO> {
  await knex.transaction(async (trx) => {
    await assertStepEditable(trx, user, tag, tag.documentId, tag.stepId);
    let stepId = tag.stepId;
    if (change.tagType && change.tagType.nodeId !== tag.nodeId)
      stepId = await stepForWrite(trx, user, change.tagType, tag.documentId, null);
    if (change.tokens) {
      await trx('ner_tag_tokens').where('ner_tag_id', tag.id).delete();
      await trx('ner_tag_tokens').insert(
        change.tokens.ids.map((id) => ({ ner_tag_id: tag.id, utterance_token_id: id })),
      );
    }
    await trx('ner_tags')
      .where('id', tag.id)
      .update({
        step_id: stepId,
        ner_tag_type_id: change.tagType?.id ?? tag.nerTagTypeId,
        start_offset: change.startOffset ?? tag.startOffset,
        end_offset: change.endOffset ?? tag.endOffset,
        ts_start: change.tokens?.tsStart ?? change.tsStart ?? tag.tsStart,
        ts_end: change.tokens?.tsEnd ?? change.tsEnd ?? tag.tsEnd,
        last_modified_by_id: user.id,
        last_modified_date: new Date(),
      });
  });
  return nerTagDTO(knex, tag.id);
}

/** A change of a tag asked by `PUT api/ner-tags`: absent fields keep what the tag has. */
export interface NerTagChange {
  nerTagTypeId?: number | null;
  startOffset?: number | null;
  endOffset?: number | null;
  /** TIMESPAN_TAG times (ms, rounded to 10 ms here). */
  tsStart?: number | null;
  tsEnd?: number | null;
  /** ASR_NER_TAG tokens. */
  tokenIds?: number[] | null;
}

/**
 * Decides and carries out a change of a tag whose node the caller holds WRITE on (the route checked it):
 * a new type must be one the caller may write with (WRITE on its node, same process, its node takes the
 * tag's labelling type, selectable); new offsets must lie in the text of a SPAN_TAG. The tag moves to the
 * caller's editable step of the new type's node when that node differs; both steps must be editable
 * (updateNerTag).
 */
export async function changeNerTag(
  knex: Knex,
  user: AuthUser,
  tag: TagRef,
  change: NerTagChange,
): Promise<NerTagDTO> {
  const typeId = change.nerTagTypeId ?? tag.nerTagTypeId;
  let label: LabelRef | null = null;
  if (typeId !== tag.nerTagTypeId) {
    label = (await findNerTagType(knex, typeId)) ?? null;
    if (!label) throw unreachable(user, 'nerTagType');
    assertNodeMode(user, label.nodeId, label.processId, 'WRITE');
    // a label of another process answers like an unknown one
    if (label.processId !== tag.processId) throw unreachable(user, 'nerTagType');
    if (!supportsLabelling(label.activityType, tag.type)) throw nodeUndefined();
    if (!label.selectable) throw notSelectable(label);
  }
  const resize = change.startOffset != null || change.endOffset != null;
  const startOffset = change.startOffset ?? tag.startOffset;
  const endOffset = change.endOffset ?? tag.endOffset;
  if (resize && (startOffset !== tag.startOffset || endOffset !== tag.endOffset)) {
    if (tag.type !== 'SPAN_TAG')
      throw unsupportedType(`${TAG_MESSAGES['error.labellingType']}: a ${tag.type} has no text offsets`);
    const text = await documentText(knex, tag.documentId);
    checkSpan(startOffset!, endOffset!, text.content);
  }
  const { tsStart, tsEnd } = await changedTimes(tag, change);
  let tokens: SpeechTokens | null = null;
  if (change.tokenIds?.length) {
    if (tag.type !== 'ASR_NER_TAG')
      throw unsupportedType(`${TAG_MESSAGES['error.labellingType']}: a ${tag.type} has no tokens`);
    tokens = await speechTokens(knex, tag.documentId, change.tokenIds);
  }
  return updateNerTag(knex, user, tag, {
    tagType: label,
    startOffset: tag.type === 'SPAN_TAG' ? startOffset : null,
    endOffset: tag.type === 'SPAN_TAG' ? endOffset : null,
    tsStart,
    tsEnd,
    tokens,
  });
}

/** The new times of a TIMESPAN_TAG resize (rounded, checked), or the tag's own. */
async function changedTimes(tag: TagRef, change: NerTagChange) {
  if (change.tsStart == null && change.tsEnd == null) return { tsStart: tag.tsStart, tsEnd: tag.tsEnd };
  if (tag.type !== 'TIMESPAN_TAG')
    throw unsupportedType(
      `${TAG_MESSAGES['error.labellingType']}: only a TIMESPAN_TAG is resized by its times`,
    );
  const tsStart = roundTagMs(change.tsStart ?? tag.tsStart ?? 0);
  const tsEnd = roundTagMs(change.tsEnd ?? tag.tsEnd ?? 0);
  checkTimeSpan(tsStart, tsEnd);
  return { tsStart, tsEnd };
}

/** 400 with the time span's field errors. */
export function checkTimeSpan(tsStart: number, tsEnd: number): void {
  const violations = timeSpanViolations(tsStart, tsEnd);
  if (!violations.length) return;
  const err = fieldErrors('nerTag', violations);
  err.body.detail = `The time span ${tsStart}-${tsEnd} ms: ${TAG_MESSAGES[violations[0].violation.key as keyof typeof TAG_MESSAGES]}`;
  throw err;
}

/** The tokens of a token tag: ids of one utterance of the document, with their time range. */
export interface SpeechTokens {
  ids: number[];
  tsStart: number | null;
  tsEnd: number | null;
}

/** The tokens of a token tag, checked: all of the document and of one utterance; 400 otherwise. */
export async function speechTokens(
  knex: Knex,
  documentId: number,
  tokenIds: readonly number[],
): Promise<SpeechTokens> {
  const ids = [...new Set(tokenIds)].sort((a, b) => a - b);
  const rows: { id: number; utteranceId: number; tsStart: number | null; tsEnd: number | null }[] = ids.length
    ? await knex('utterance_tokens as k')
        .join('utterances as u', 'u.id', 'k.utterance_id')
        .where('u.document_id', documentId)
        .whereIn('k.id', ids)
        .select('k.id', 'k.utterance_id as utteranceId', 'k.ts_start as tsStart', 'k.ts_end as tsEnd')
    : [];
  if (!rows.length || rows.length !== ids.length || new Set(rows.map((r) => r.utteranceId)).size !== 1) {
    const err = fieldErrors('nerTag', [
      { field: 'utteranceTokens', violation: { code: 'Match', key: 'soaApp.nerTag.tokens' } },
    ]);
    err.body.detail = TAG_MESSAGES['soaApp.nerTag.tokens'];
    throw err;
  }
  const starts = rows.map((r) => r.tsStart).filter((v): v is number => v !== null);
  const ends = rows.map((r) => r.tsEnd).filter((v): v is number => v !== null);
  return {
    ids,
    tsStart: starts.length ? Math.min(...starts) : null,
    tsEnd: ends.length ? Math.max(...ends) : null,
  };
}

/** What a speech tag covers: tokens of one utterance (ASR_NER_TAG) or a time span (TIMESPAN_TAG). */
export type SpeechTagTarget =
  { type: 'ASR_NER_TAG'; tokens: SpeechTokens } | { type: 'TIMESPAN_TAG'; tsStart: number; tsEnd: number };

/**
 * Creates a token tag or a time span in the step the caller edits; the same tag (type, tokens or times) in
 * that step again is answered as it is (created: false).
 */
export async function createSpeechTag(
  knex: Knex,
  user: AuthUser,
  tagType: LabelRef,
  documentId: number,
  target: SpeechTagTarget,
  wantedStepId?: number | null,
): Promise<{ tag: NerTagDTO; created: boolean }> {
  const times =
    target.type === 'TIMESPAN_TAG'
      ? { ts_start: target.tsStart, ts_end: target.tsEnd }
      : { ts_start: target.tokens.tsStart, ts_end: target.tokens.tsEnd };
  const { id, created } = await knex.transaction(async (trx) => {
    const stepId = await stepForWrite(trx, user, tagType, documentId, wantedStepId);
    const same = trx('ner_tags as t')
      .where({ 't.step_id': stepId, 't.ner_tag_type_id': tagType.id, 't.type': target.type })
      .select('t.id');
    if (target.type === 'TIMESPAN_TAG')
      same.where({ 't.ts_start': target.tsStart, 't.ts_end': target.tsEnd });
    else
      same.whereRaw(
        '(select array_agg(k.utterance_token_id order by k.utterance_token_id) from ner_tag_tokens k where k.ner_tag_id = t.id) = ?::bigint[]',
        [target.tokens.ids],
      );
    const existing = await same.first();
    if (existing) return { id: Number(existing.id), created: false };
    const [row] = await trx('ner_tags')
      .insert({
        document_id: documentId,
        step_id: stepId,
        ner_tag_type_id: tagType.id,
        type: target.type,
        ...times,
        origin: 'USER' satisfies TagOrigin,
        created_by_id: user.id,
      })
      .returning('id');
    if (target.type === 'ASR_NER_TAG')
      await trx('ner_tag_tokens').insert(
        target.tokens.ids.map((t) => ({ ner_tag_id: row.id, utterance_token_id: t })),
      );
    return { id: Number(row.id), created: true };
  });
  return { tag: await nerTagDTO(knex, id), created };
}

export async function deleteNerTag(knex: Knex, user: AuthUser, tag: TagRef): Promise<void> {
  await knex.transaction(async (trx) => {
    await assertStepEditable(trx, user, tag, tag.documentId, tag.stepId);
    // spec 2 section 5: a tag that has relations cannot be deleted (the database would cascade)
    const related = await relationCountOfTag(trx, tag.id);
    if (related)
      throw new HttpError(409, {
        message: 'error.tag.hasRelations',
        errorKey: 'tagHasRelations',
        detail: RELATION_MESSAGES['error.tag.hasRelations'],
        relations: related,
      });
    await trx('ner_tags').where('id', tag.id).delete();
  });
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
