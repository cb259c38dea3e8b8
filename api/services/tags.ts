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
  type NerTagDTO,
} from '../../domain/tags';
import { relationCountOfTag } from '../../db/queries/relation-graphs';
import {
  deleteNerTagRow,
  insertUserNerTags,
  nerTagDTO,
  nerTagDTOs,
  sameSpeechTag,
  stepSpans,
  updateNerTagRow,
  type TagRef,
} from '../../db/queries/tags';
import { nerTagTypeLabel, type LabelRef } from '../../db/queries/labels';
import { contentOf } from '../../db/queries/document-contents';
import { documentTokensByIds, hasUtterances } from '../../db/queries/utterances';
import { RELATION_MESSAGES } from '../../domain/relations';
import { assertStepEditable, stepForWrite } from './tag-steps';

// The reads are the tables' (db/queries/tags.ts, labels.ts, documents.ts); the routes reach them here.
export { findNerTag, listNerTags, nerTagDTO, nerTagsOfToken, type TagRef } from '../../db/queries/tags';
export { documentInProcess as findDocumentIn } from '../../db/queries/documents';
export type { LabelRef };
/** A NER tag type with its node (selectable: chosen by a person: selectable and not disabled). */
export const findNerTagType = nerTagTypeLabel;

// --- what a write needs to know ---

/** The text tags are placed in, and whether the document is a transcript (which takes token tags). */
export async function documentText(
  knex: Knex,
  documentId: number,
): Promise<{ content: string; transcript: boolean }> {
  const [content, transcript] = await Promise.all([
    contentOf(knex, documentId),
    hasUtterances(knex, documentId),
  ]);
  return { content: content?.content ?? '', transcript };
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
    const existing = await stepSpans(trx, stepId, tagType.id);
    const byRange = new Map(existing.map((t) => [`${t.startOffset}:${t.endOffset}`, t.id]));
    const fresh = new Map<string, SpanWrite>();
    for (const s of spans) {
      const k = `${s.startOffset}:${s.endOffset}`;
      if (!byRange.has(k)) fresh.set(k, s);
    }
    const created = [...fresh.values()];
    const createdIds = await insertUserNerTags(
      trx,
      created.map((s) => ({
        documentId,
        stepId,
        nerTagTypeId: tagType.id,
        type: 'SPAN_TAG',
        startOffset: s.startOffset,
        endOffset: s.endOffset,
        createdById: user.id,
      })),
    );
    created.forEach((s, i) => byRange.set(`${s.startOffset}:${s.endOffset}`, createdIds[i]));
    return { ids: spans.map((s) => byRange.get(`${s.startOffset}:${s.endOffset}`)!), created: fresh.size };
  });
  const rows = await nerTagDTOs(knex, [...new Set(ids.ids)]);
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
    await updateNerTagRow(trx, tag.id, {
      stepId,
      nerTagTypeId: change.tagType?.id ?? tag.nerTagTypeId,
      startOffset: change.startOffset ?? tag.startOffset,
      endOffset: change.endOffset ?? tag.endOffset,
      tsStart: change.tokens?.tsStart ?? change.tsStart ?? tag.tsStart,
      tsEnd: change.tokens?.tsEnd ?? change.tsEnd ?? tag.tsEnd,
      tokenIds: change.tokens?.ids,
      lastModifiedById: user.id,
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
  const rows = await documentTokensByIds(knex, documentId, ids);
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
      ? { tsStart: target.tsStart, tsEnd: target.tsEnd }
      : { tsStart: target.tokens.tsStart, tsEnd: target.tokens.tsEnd, tokenIds: target.tokens.ids };
  const { id, created } = await knex.transaction(async (trx) => {
    const stepId = await stepForWrite(trx, user, tagType, documentId, wantedStepId);
    const tag = {
      documentId,
      stepId,
      nerTagTypeId: tagType.id,
      type: target.type,
      ...times,
      createdById: user.id,
    };
    const existing = await sameSpeechTag(trx, tag);
    if (existing !== undefined) return { id: existing, created: false };
    const [created] = await insertUserNerTags(trx, [tag]);
    return { id: created, created: true };
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
    await deleteNerTagRow(trx, tag.id);
  });
}
