/**
 * Tags of documents for the workspace (issue 11 section 3; rules in domain/tags.ts): reads of NER tags and
 * classifier tags, and a person's writes, each in a transaction that holds the document row (FOR SHARE, so
 * the projection cannot change the steps, nor a block the document, between the editable check and the
 * write) and re-checks the step the write goes to. The routes have checked access and the body.
 */
import type { Knex } from 'knex';
import type { AuthUser } from '../auth';
import { HttpError, locked } from '../errors';
import type { StepRefusal, StepState } from '../../domain/steps';
import { modeSatisfies } from '../../domain/access';
import { isStepEditable, stepEditRefusal } from '../../domain/steps';
import {
  buildTagTypeOptions,
  chooseTagStep,
  TAG_MESSAGES,
  type ClassifierTagDTO,
  type LabellingType,
  type NerTagDTO,
  type TagOrigin,
  type TagTypeOption,
} from '../../domain/tags';
import { actorFor } from './steps';

type Row = Record<string, any>;

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
    .orderByRaw('t.start_offset nulls last, t.end_offset desc nulls last, t.id');
  if (stepIds) q.whereIn('t.step_id', [...stepIds]);
  return (await q).map(toTagDTO);
}

export async function nerTagDTO(knex: Knex, id: number): Promise<NerTagDTO> {
  return toTagDTO(await tagQuery(knex).where('t.id', id).first());
}

const CLASSIFIER_COLUMNS = [
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
    .select(CLASSIFIER_COLUMNS);

export async function listClassifierTags(knex: Knex, documentId: number): Promise<ClassifierTagDTO[]> {
  return (await classifierQuery(knex).where('c.document_id', documentId).orderBy('c.id')).map(
    toClassifierDTO,
  );
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

export async function findClassifierType(knex: Knex, id: number): Promise<LabelRef | undefined> {
  const r = await knex('classifier_types as ct')
    .join('nodes as n', 'n.id', 'ct.node_id')
    .where('ct.id', id)
    .first(
      'ct.id',
      'ct.name',
      'n.id as nodeId',
      'n.process_id as processId',
      'n.activity_type as activityType',
    );
  return r ? { ...r, selectable: true } : undefined;
}

export interface TagRef {
  id: number;
  documentId: number;
  stepId: number | null;
  type: LabellingType;
  nerTagTypeId: number;
  startOffset: number | null;
  endOffset: number | null;
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
      'n.id as nodeId',
      'n.process_id as processId',
    );
}

export interface ClassifierTagRef {
  id: number;
  documentId: number;
  nodeId: number;
  processId: number;
}

export async function findClassifierTag(knex: Knex, id: number): Promise<ClassifierTagRef | undefined> {
  return knex('classifier_tags as c')
    .join('nodes as n', 'n.id', 'c.node_id')
    .where('c.id', id)
    .first('c.id', 'c.document_id as documentId', 'n.id as nodeId', 'n.process_id as processId');
}

/** The document, if it belongs to the process (a document of another process is not found). */
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

// --- refusals ---

/** A refused step as the API answers it: 423 for another user's block, 400 for a foreign step, else 409. */
export function stepRefused(r: StepRefusal): HttpError {
  if (r.code === 'documentBlocked') return locked('error.document.blocked');
  if (r.code === 'stepUndefined')
    return new HttpError(409, { message: 'error.tag.stepUndefined', errorKey: r.code, detail: r.message });
  if (r.code === 'wrongStep')
    return new HttpError(400, { message: 'error.tag.wrongStep', errorKey: r.code, detail: r.message });
  return new HttpError(409, {
    message: 'error.tag.stepNotEditable',
    errorKey: r.code,
    detail: `${TAG_MESSAGES['error.tag.stepNotEditable']} ${r.message}`,
  });
}

type NodeStep = Pick<StepState, 'id' | 'status' | 'blockedBy' | 'master' | 'order'>;

/** Holds the document row for the transaction; its block. */
async function holdDocument(trx: Knex.Transaction, documentId: number): Promise<number | null> {
  const doc = await trx('documents').where('id', documentId).forShare().first('blocked_by_id');
  return doc ? doc.blocked_by_id : null;
}

async function nodeSteps(trx: Knex.Transaction, documentId: number, nodeId: number): Promise<NodeStep[]> {
  return trx('steps')
    .where({ document_id: documentId, node_id: nodeId })
    .orderBy('order')
    .select('id', 'status', 'blocked_by_id as blockedBy', 'master', 'order');
}

/** The step of the node the caller's write goes to (domain/tags.ts chooseTagStep), or the refusal. */
async function stepForWrite(
  trx: Knex.Transaction,
  user: AuthUser,
  node: { nodeId: number; processId: number },
  documentId: number,
  wantedStepId: number | null | undefined,
): Promise<number> {
  const blockedBy = await holdDocument(trx, documentId);
  const steps = await nodeSteps(trx, documentId, node.nodeId);
  const actor = actorFor(user, { id: node.nodeId, processId: node.processId });
  const choice = chooseTagStep(steps, actor, blockedBy, wantedStepId);
  if ('refusal' in choice) throw stepRefused(choice.refusal);
  return choice.step.id;
}

/** Refuses unless the caller may edit this very step (the step a tag already belongs to). */
async function assertStepEditable(
  trx: Knex.Transaction,
  user: AuthUser,
  node: { nodeId: number; processId: number },
  documentId: number,
  stepId: number | null,
): Promise<void> {
  const blockedBy = await holdDocument(trx, documentId);
  const step: NodeStep | undefined =
    stepId === null
      ? undefined
      : await trx('steps')
          .where('id', stepId)
          .first('id', 'status', 'blocked_by_id as blockedBy', 'master', 'order');
  if (!step) throw stepRefused({ code: 'stepUndefined', message: TAG_MESSAGES['error.tag.stepUndefined'] });
  const r = stepEditRefusal(step, actorFor(user, { id: node.nodeId, processId: node.processId }), blockedBy);
  if (r) throw stepRefused(r);
}

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
  change: { tagType: LabelRef | null; startOffset: number | null; endOffset: number | null },
): Promise<NerTagDTO> {
  await knex.transaction(async (trx) => {
    await assertStepEditable(trx, user, tag, tag.documentId, tag.stepId);
    let stepId = tag.stepId;
    if (change.tagType && change.tagType.nodeId !== tag.nodeId)
      stepId = await stepForWrite(trx, user, change.tagType, tag.documentId, null);
    await trx('ner_tags')
      .where('id', tag.id)
      .update({
        step_id: stepId,
        ner_tag_type_id: change.tagType?.id ?? tag.nerTagTypeId,
        start_offset: change.startOffset ?? tag.startOffset,
        end_offset: change.endOffset ?? tag.endOffset,
        last_modified_by_id: user.id,
        last_modified_date: new Date(),
      });
  });
  return nerTagDTO(knex, tag.id);
}

export async function deleteNerTag(knex: Knex, user: AuthUser, tag: TagRef): Promise<void> {
  await knex.transaction(async (trx) => {
    await assertStepEditable(trx, user, tag, tag.documentId, tag.stepId);
    await trx('ner_tags').where('id', tag.id).delete();
  });
}

// --- classifier tag writes ---

/** Sets a classifier type on the document (per node; see domain/tags.ts). */
export async function addClassifierTag(
  knex: Knex,
  user: AuthUser,
  type: LabelRef,
  documentId: number,
  wantedStepId?: number | null,
): Promise<{ tag: ClassifierTagDTO; created: boolean }> {
  const { id, created } = await knex.transaction(async (trx) => {
    const stepId = await stepForWrite(trx, user, type, documentId, wantedStepId);
    const [row] = await trx('classifier_tags')
      .insert({
        document_id: documentId,
        step_id: stepId,
        node_id: type.nodeId,
        classifier_type_id: type.id,
        origin: 'USER' satisfies TagOrigin,
        created_by_id: user.id,
      })
      .onConflict(['document_id', 'node_id', 'classifier_type_id'])
      .ignore()
      .returning('id');
    if (row) return { id: Number(row.id), created: true };
    const had = await trx('classifier_tags')
      .where({ document_id: documentId, node_id: type.nodeId, classifier_type_id: type.id })
      .first('id');
    return { id: Number(had.id), created: false };
  });
  return { tag: toClassifierDTO(await classifierQuery(knex).where('c.id', id).first()), created };
}

/** Removes a classifier tag: the caller needs an editable step of its node in the document. */
export async function deleteClassifierTag(knex: Knex, user: AuthUser, tag: ClassifierTagRef): Promise<void> {
  await knex.transaction(async (trx) => {
    await stepForWrite(trx, user, tag, tag.documentId, null);
    await trx('classifier_tags').where('id', tag.id).delete();
  });
}

// --- the labelling menu's options ---

/**
 * The tag-type option tree (domain/tags.ts buildTagTypeOptions) of a document for the caller: the nodes of
 * the document's steps the caller may edit and holds WRITE on (only `nodeIds` among them when given), that
 * take the labelling type, in walk order, each with its tag types.
 */
export async function tagTypeOptions(
  knex: Knex,
  user: AuthUser,
  documentId: number,
  nodeIds: readonly number[] | null,
  type: LabellingType,
): Promise<TagTypeOption[]> {
  const doc = await knex('documents').where('id', documentId).first('blocked_by_id');
  const steps: (NodeStep & { nodeId: number; name: string; activityType: string; processId: number })[] =
    await knex('steps as s')
      .join('nodes as n', 'n.id', 's.node_id')
      .where('s.document_id', documentId)
      .orderBy('s.order')
      .select(
        's.id',
        's.status',
        's.blocked_by_id as blockedBy',
        's.master',
        's.order',
        'n.id as nodeId',
        'n.name',
        'n.activity_type as activityType',
        'n.process_id as processId',
      );
  const nodes = steps
    .filter((s) => nodeIds === null || nodeIds.includes(s.nodeId))
    .filter((s) => {
      const actor = actorFor(user, { id: s.nodeId, processId: s.processId });
      return modeSatisfies(actor.nodeMode, 'WRITE') && isStepEditable(s, actor, doc?.blocked_by_id ?? null);
    })
    .map((s) => ({ id: s.nodeId, name: s.name, activityType: s.activityType }));
  if (!nodes.length) return [];
  const tagTypes = await knex('ner_tag_types')
    .whereIn(
      'node_id',
      nodes.map((n) => n.id),
    )
    .orderBy('id')
    .select(
      'id',
      'node_id as nodeId',
      'parent_id as parentId',
      'name',
      'background_color as backgroundColor',
      'selectable',
      'disabled',
    );
  return buildTagTypeOptions(nodes, tagTypes, type);
}
