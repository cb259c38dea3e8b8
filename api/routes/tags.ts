/**
 * Tags of a document for the workspace (spec 2 sections 3 to 7, issue 11 section 3; rules in domain/tags.ts,
 * contract in docs/api-tags.md):
 * - `GET api/ner-tags?documentId&stepIds`, `POST api/ner-tags` (text spans; token tags and time spans on
 *   transcripts, docs/api-speech.md), `POST api/ner-tags/batch` (one type over many spans, all or none),
 *   `PUT api/ner-tags` (resize, retype, re-token), `DELETE api/ner-tags/{id}`;
 * - `GET api/classifier-tags?documentId`, `POST api/classifier-tags`, `DELETE api/classifier-tags/{id}`.
 * Reading needs what reading the document needs; writing needs WRITE on the label's node and a step of that
 * node in the document that the caller may edit. The node and step of a write are decided here, never taken
 * from the client; a document of another process answers like an unknown one (403, or 404 to an admin).
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id as intId, nerTagDto } from '../responses';

import { documentReader, inBody, onNode, param, query } from './access';
import type { Context } from 'koa';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { assertNodeMode, currentUser, mayReadDocumentOf, unreachable, type AuthUser } from '../auth';
import { fieldErrors } from '../errors';
import * as classifierTags from '../services/classifier-tags';
import * as tags from '../services/tags';
import { tagFilterFor } from '../services/tag-visibility';
import { bodyId, idParam, MAX_ID, stepIdsQuery } from '../validate';
import {
  LabellingTypes,
  roundTagMs,
  SPEECH_LABELLING_TYPES,
  spanProblem,
  spanViolations,
  supportsLabelling,
  TAG_BATCH_MAX,
  TAG_MESSAGES,
  TagOrigins,
  WRITABLE_LABELLING_TYPES,
  type ClassifierTagDTO,
  type LabellingType,
} from '../../domain/tags';
import { documentProcessId } from '../../db/queries/documents';

const id = z.number().int().min(1).max(MAX_ID);
const offset = z.number().int().min(-MAX_ID).max(MAX_ID);

export const nerTagSchema = z.object({
  documentId: id,
  nerTagTypeId: id,
  type: z.enum(LabellingTypes).nullish(),
  startOffset: offset,
  endOffset: offset,
  stepId: id.nullish(),
});
export const nerTagBatchSchema = z.object({
  documentId: id,
  nerTagTypeId: id,
  stepId: id.nullish(),
  spans: z
    .array(z.object({ startOffset: offset, endOffset: offset }))
    .min(1)
    .max(TAG_BATCH_MAX),
});
/** Token ids of a token tag: `utteranceTokens: [{id}]` (as the tag answers them) or `utteranceTokenIds`. */
const tokenRefs = {
  utteranceTokens: z.array(z.object({ id })).max(TAG_BATCH_MAX).nullish(),
  utteranceTokenIds: z.array(id).max(TAG_BATCH_MAX).nullish(),
};
const tokenIdsOf = (i: { utteranceTokens?: { id: number }[] | null; utteranceTokenIds?: number[] | null }) =>
  i.utteranceTokenIds ?? i.utteranceTokens?.map((t) => t.id) ?? null;
const ms = z.number().min(-MAX_ID).max(MAX_ID);
export const speechTagSchema = z.object({
  documentId: id,
  nerTagTypeId: id,
  type: z.enum(SPEECH_LABELLING_TYPES as ['ASR_NER_TAG', 'TIMESPAN_TAG']),
  stepId: id.nullish(),
  tsStart: ms.nullish(),
  tsEnd: ms.nullish(),
  ...tokenRefs,
});
export const nerTagUpdateSchema = z.object({
  id,
  nerTagTypeId: id.nullish(),
  nerTagType: z.object({ id }).nullish(),
  startOffset: offset.nullish(),
  endOffset: offset.nullish(),
  tsStart: ms.nullish(),
  tsEnd: ms.nullish(),
  ...tokenRefs,
});
export const classifierTagSchema = z.object({ documentId: id, classifierTypeId: id, stepId: id.nullish() });

const { checkSpan, notSelectable, unsupportedType } = tags;

const classifierTagDto = z.object({
  id: intId,
  documentId: intId,
  stepId: intId.nullable(),
  nodeId: intId,
  classifierTypeId: intId,
  classifierType: z.object({ id: intId, name: z.string(), backgroundColor: z.string(), nodeId: intId }),
  origin: z.enum(TagOrigins),
  createdById: intId.nullable(),
}) satisfies z.ZodType<ClassifierTagDTO>;
/** A tag written anew answers 201, the same tag already there 200. */
const CREATED_OR_FOUND = [201, 200];

export function tagRoutes({ knex }: AppDeps): Route[] {
  /** The document of `?documentId`, readable by the caller (defence in depth behind the gate). */
  const readableDocument = async (ctx: Context): Promise<number> => {
    const user = currentUser(ctx);
    const documentId = idParam(ctx.query.documentId, 'documentId');
    const processId = await documentProcessId(knex, documentId);
    if (processId === undefined || !(await mayReadDocumentOf(knex, user, processId)))
      throw unreachable(user, 'document');
    return documentId;
  };

  /** A label the caller may write with (WRITE on its node), or 403 / 404. */
  const writableLabel = async (
    user: AuthUser,
    find: (k: Knex, id: number) => Promise<tags.LabelRef | undefined>,
    labelId: number,
    entity: string,
  ): Promise<tags.LabelRef> => {
    const label = await find(knex, labelId);
    if (!label) throw unreachable(user, entity);
    assertNodeMode(user, label.nodeId, label.processId, 'WRITE');
    return label;
  };

  /** The document, in the label's process: another process's document answers like an unknown one. */
  const documentOfLabel = async (user: AuthUser, documentId: number, label: tags.LabelRef) => {
    const doc = await tags.findDocumentIn(knex, documentId, label.processId);
    if (!doc) throw unreachable(user, 'document');
    return doc;
  };

  /** The text a span of the label goes into, after the labelling-type checks. */
  const spanText = async (documentId: number, label: tags.LabelRef, type: LabellingType) => {
    if (!WRITABLE_LABELLING_TYPES.includes(type))
      throw unsupportedType(`${TAG_MESSAGES['error.labellingType']}: ${type}`);
    if (!supportsLabelling(label.activityType, type))
      throw tags.nodeUndefined(
        `${TAG_MESSAGES['error.tag.nodeUndefined']}: a ${label.activityType} node takes no ${type}`,
      );
    const text = await tags.documentText(knex, documentId);
    if (text.transcript)
      throw unsupportedType(
        `${TAG_MESSAGES['error.labellingType']}: the document is a transcript, tagged by its tokens`,
      );
    return text.content;
  };

  /**
   * What a span write works on: the tag type (WRITE on its node, selectable), the validated body, and the
   * text of the document the spans must lie in.
   */
  async function spanTarget<T extends { documentId: number }>(
    ctx: Context,
    user: AuthUser,
    read: () => T,
    typeOf: (input: T) => LabellingType | null | undefined,
  ) {
    const label = await writableLabel(
      user,
      tags.findNerTagType,
      bodyId(ctx, 'nerTagTypeId', 'nerTag'),
      'nerTagType',
    );
    const input = read();
    await documentOfLabel(user, input.documentId, label);
    const content = await spanText(input.documentId, label, typeOf(input) ?? 'SPAN_TAG');
    if (!label.selectable) throw notSelectable(label);
    return { label, input, content };
  }

  /**
   * A token tag or a time span (issue 14 section 3) on a document with a transcript: the label's node must
   * take the type ('Node could not be defined', also for a time span without a label), the tokens be of one
   * utterance, the times a span of the recording.
   */
  const postSpeechTag = async (
    ctx: Context,
    user: AuthUser,
    type: LabellingType,
    read: () => z.infer<typeof speechTagSchema>,
  ) => {
    const raw = (ctx.request as unknown as { body?: { nerTagTypeId?: unknown } }).body;
    if (type === 'TIMESPAN_TAG' && (raw?.nerTagTypeId === undefined || raw.nerTagTypeId === null))
      throw tags.nodeUndefined(`${TAG_MESSAGES['error.tag.nodeUndefined']}: a time span needs a label`);
    const label = await writableLabel(
      user,
      tags.findNerTagType,
      bodyId(ctx, 'nerTagTypeId', 'nerTag'),
      'nerTagType',
    );
    const input = read();
    await documentOfLabel(user, input.documentId, label);
    if (!supportsLabelling(label.activityType, type))
      throw tags.nodeUndefined(
        `${TAG_MESSAGES['error.tag.nodeUndefined']}: a ${label.activityType} node takes no ${type}`,
      );
    if (!(await tags.documentText(knex, input.documentId)).transcript)
      throw unsupportedType(
        `${TAG_MESSAGES['error.labellingType']}: ${type} goes on a document with a transcript`,
      );
    if (!label.selectable) throw notSelectable(label);
    let target: tags.SpeechTagTarget;
    if (input.type === 'TIMESPAN_TAG') {
      const tsStart = roundTagMs(input.tsStart ?? NaN);
      const tsEnd = roundTagMs(input.tsEnd ?? NaN);
      tags.checkTimeSpan(tsStart, tsEnd);
      target = { type: 'TIMESPAN_TAG', tsStart, tsEnd };
    } else
      target = {
        type: 'ASR_NER_TAG',
        tokens: await tags.speechTokens(knex, input.documentId, tokenIdsOf(input) ?? []),
      };
    const { tag, created } = await tags.createSpeechTag(
      knex,
      user,
      label,
      input.documentId,
      target,
      input.stepId,
    );
    ctx.status = created ? 201 : 200;
    ctx.body = tag;
  };

  return [
    // --- NER tags (the writes also need an editable step of the label's node: 409 / 423) ---
    route(
      {
        method: 'GET',
        path: '/api/ner-tags',
        access: documentReader(query('documentId', 'document')),
        response: z.array(nerTagDto),
      },
      async (ctx) => {
        const stepIds = stepIdsQuery(ctx);
        const documentId = await readableDocument(ctx);
        if (stepIds && !stepIds.length) return void (ctx.body = []);
        const [list, visible] = await Promise.all([
          tags.listNerTags(knex, documentId, stepIds),
          tagFilterFor(knex, currentUser(ctx), documentId),
        ]);
        ctx.body = list.filter(visible);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/ner-tags',
        access: onNode('WRITE', inBody('nerTagTypeId', 'nerTagType')),
        // a text span, or a token tag or time span (by its `type`)
        body: { schema: [nerTagSchema, speechTagSchema], object: 'nerTag' },
        response: nerTagDto,
        status: CREATED_OR_FOUND,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const type = (ctx.request as unknown as { body?: { type?: unknown } }).body?.type;
        if (type === 'ASR_NER_TAG' || type === 'TIMESPAN_TAG')
          return postSpeechTag(ctx, user, type, () => body(speechTagSchema));
        const { label, input, content } = await spanTarget(
          ctx,
          user,
          () => body(nerTagSchema),
          (i) => i.type,
        );
        checkSpan(input.startOffset, input.endOffset, content);
        const { tags: saved, created } = await tags.createSpanTags(
          knex,
          user,
          label,
          input.documentId,
          [{ startOffset: input.startOffset, endOffset: input.endOffset }],
          input.stepId,
        );
        ctx.status = created ? 201 : 200;
        ctx.body = saved[0];
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/ner-tags/batch',
        access: onNode('WRITE', inBody('nerTagTypeId', 'nerTagType')),
        body: { schema: nerTagBatchSchema, object: 'nerTag' },
        response: z.array(nerTagDto),
        status: CREATED_OR_FOUND,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const { label, input, content } = await spanTarget(ctx, user, body, () => undefined);
        input.spans.forEach((s, i) => {
          const violations = spanViolations(s.startOffset, s.endOffset, content);
          if (!violations.length) return;
          const err = fieldErrors(
            'nerTag',
            violations.map((v) => ({ ...v, field: `spans.${i}.${v.field}` })),
          );
          err.body.detail = spanProblem(s.startOffset, s.endOffset, content) ?? undefined;
          throw err;
        });
        const { tags: saved, created } = await tags.createSpanTags(
          knex,
          user,
          label,
          input.documentId,
          input.spans,
          input.stepId,
        );
        ctx.status = created ? 201 : 200;
        ctx.body = saved;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/ner-tags',
        access: onNode('WRITE', inBody('id', 'nerTag')),
        body: { schema: nerTagUpdateSchema, object: 'nerTag' },
        response: nerTagDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const tag = await tags.findNerTag(knex, bodyId(ctx, 'id', 'nerTag'));
        if (!tag) throw unreachable(user, 'nerTag');
        assertNodeMode(user, tag.nodeId, tag.processId, 'WRITE');
        const input = body();
        ctx.body = await tags.changeNerTag(knex, user, tag, {
          nerTagTypeId: input.nerTagTypeId ?? input.nerTagType?.id,
          startOffset: input.startOffset,
          endOffset: input.endOffset,
          tsStart: input.tsStart,
          tsEnd: input.tsEnd,
          tokenIds: tokenIdsOf(input),
        });
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/ner-tags/:id',
        access: onNode('WRITE', param('id', 'nerTag')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const tag = await tags.findNerTag(knex, idParam(ctx.params.id));
        if (!tag) throw unreachable(user, 'nerTag');
        assertNodeMode(user, tag.nodeId, tag.processId, 'WRITE');
        await tags.deleteNerTag(knex, user, tag);
        ctx.status = 204;
      },
    ),

    // --- classifier tags ---

    route(
      {
        method: 'GET',
        path: '/api/classifier-tags',
        access: documentReader(query('documentId', 'document')),
        response: z.array(classifierTagDto),
      },
      async (ctx) => {
        const documentId = await readableDocument(ctx);
        const [list, visible] = await Promise.all([
          classifierTags.listClassifierTags(knex, documentId),
          tagFilterFor(knex, currentUser(ctx), documentId),
        ]);
        ctx.body = list.filter(visible);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/classifier-tags',
        access: onNode('WRITE', inBody('classifierTypeId', 'classifierType')),
        body: { schema: classifierTagSchema, object: 'classifierTag' },
        response: classifierTagDto,
        status: CREATED_OR_FOUND,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const label = await writableLabel(
          user,
          classifierTags.classifierTypeLabel,
          bodyId(ctx, 'classifierTypeId', 'classifierTag'),
          'classifierType',
        );
        const input = body();
        await documentOfLabel(user, input.documentId, label);
        const { tag, created } = await classifierTags.addClassifierTag(
          knex,
          user,
          label,
          input.documentId,
          input.stepId,
        );
        ctx.status = created ? 201 : 200;
        ctx.body = tag;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/classifier-tags/:id',
        access: onNode('WRITE', param('id', 'classifierTag')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const tag = await classifierTags.findClassifierTag(knex, idParam(ctx.params.id));
        if (!tag) throw unreachable(user, 'classifierTag');
        assertNodeMode(user, tag.nodeId, tag.processId, 'WRITE');
        await classifierTags.deleteClassifierTag(knex, user, tag);
        ctx.status = 204;
      },
    ),
  ];
}
