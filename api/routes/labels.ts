/**
 * Labels of nodes (docs/api-graph.md "Labels, rules, relations"): classifier types (CLF nodes), NER tag
 * types (SPAN and LEXICON nodes) and the label file import/export. Reading needs READ on the node (the
 * higher of node and process mode); every change needs ADMIN on the node's process, but for NER tag types,
 * which WRITE on the node adds and renames (the options of the labelling menu, spec 2 section 6).
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id, matchingRuleDto as ruleDto, nested } from '../responses';

import { inBody, onNode, onProcess, param, query } from './access';
import type { Context } from 'koa';
import type { Knex } from 'knex';
import { z } from 'zod';
import { nodeRef, type NodeRef } from '../../db/queries/nodes';
import { validateLabelImport } from '../../domain/label-import-schema';
import {
  DataFormats,
  type ClassifierTypeDTO,
  type ImportResult,
  type LabelImportFile,
} from '../../domain/label-types';
import {
  acceptsClassifierTypes,
  acceptsNerTagTypes,
  classifierTypeViolations,
  nerTagTypeViolations,
  normalizeClassifierType,
  normalizeNerTagType,
  writerTagTypeInput,
} from '../../domain/labels';
import { modeSatisfies, nodeMode } from '../../domain/access';
import { LabellingTypes, type LabellingType } from '../../domain/tags';
import type { Violation } from '../../domain/validation';
import { shortcutConflictRule, type ShortcutLabel } from '../../domain/label-shortcuts';
import type { AppDeps } from '../app';
import {
  assertNodeMode,
  assertProcessMode,
  currentUser,
  mayReadDocumentOf,
  unreachable,
  type AuthUser,
} from '../auth';
import { appError, FieldErrorCollector, HttpError, notFound, setAlert } from '../errors';
import * as labels from '../services/labels';
import { tagTypeOptions } from '../services/tag-steps';
import { idParam } from '../validate';
import { processExists } from '../../db/queries/processes';
import { documentProcessId } from '../../db/queries/documents';

/**
 * The node of a label route, after the caller's access check: READ or WRITE on the node, or ADMIN on its
 * process.
 */
export async function nodeWithAccess(
  knex: Knex,
  user: AuthUser,
  nodeId: number,
  need: 'READ' | 'WRITE' | 'ADMIN',
): Promise<NodeRef> {
  const node = await nodeRef(knex, nodeId);
  if (!node) throw unreachable(user, 'node');
  if (need === 'ADMIN') assertProcessMode(user, node.processId, 'ADMIN');
  else assertNodeMode(user, node.id, node.processId, need);
  return node;
}

/** ADMIN on the node (its own grant or its process's): the whole tag type may be set, not only name and colours. */
const adminOfNode = (user: AuthUser, node: { id: number; processId: number }) =>
  modeSatisfies(nodeMode(user, node.id, node.processId), 'ADMIN');

const classifierTypeDto = z.object({
  id,
  name: z.string(),
  description: z.string().nullable(),
  backgroundColor: z.string(),
  prefixKey: z.string().nullable(),
  suffixKey: z.string().nullable(),
  nodeId: id,
}) satisfies z.ZodType<ClassifierTypeDTO>;
const nerTagTypeFields = {
  id,
  nodeId: id,
  parentId: id.nullable(),
  name: z.string(),
  backgroundColor: z.string(),
  textColor: z.string(),
  mandatory: z.boolean(),
  prefixKey: z.string().nullable(),
  suffixKey: z.string().nullable(),
  dataFormat: z.enum(DataFormats).nullable(),
  selectable: z.boolean(),
  disabled: z.boolean(),
  path: z.string(),
};
/** A tag type in a flat list. */
const nerTagTypeDto = z.object(nerTagTypeFields);
/** The tag type trees of `GET /api/root-ner-tag-types` (three levels described, deeper ones as objects). */
const nerTagTypeTree = nested(nerTagTypeFields, 'children', { optional: true });
/** The labelling menu's options of a document (domain/tags.ts TagTypeOption). */
const tagTypeOptionTree = nested(
  {
    optionId: z.number().int(),
    name: z.string(),
    backgroundColor: z.string(),
    isRoot: z.boolean(),
    parentId: z.number().int().nullable(),
    rootId: z.number().int(),
    path: z.string(),
    selectable: z.boolean(),
    nodeId: id,
  },
  'children',
);
const importResult = z.object({
  savedTagTypes: z.array(nerTagTypeDto),
  savedRules: z.array(ruleDto),
  duplicatedTagTypes: z.array(nerTagTypeDto),
  duplicatedRules: z.array(ruleDto),
}) satisfies z.ZodType<ImportResult>;
/** The import/export file (domain/label-types.ts LabelImportFile). */
const labelFile = z.object({ data: z.array(z.record(z.string(), z.unknown())) });

/** `?nodeIds=1,2` or `?nodeIds=1&nodeIds=2`; absent or empty gives no ids. */
export function nodeIdsParam(ctx: Context): number[] {
  const raw = ctx.query.nodeIds;
  const parts = (Array.isArray(raw) ? raw : [raw ?? ''])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return [...new Set(parts.map((v) => idParam(v, 'nodeIds')))];
}

/** Fails with the field errors of a `{field: violation}` record (rules of domain/labels.ts). */
export function checkViolations(objectName: string, violations: Record<string, Violation | null>): void {
  const errors = new FieldErrorCollector(objectName);
  for (const [field, violation] of Object.entries(violations)) errors.check(field, violation);
  errors.throwIfAny();
}

/** A label on a node of the wrong type: the spec's 'data validation unexpected error'. */
const wrongNodeType = (entity: string) => appError('error.dataValidationUnexpectedError', entity);

export const classifierTypeSchema = z.object({
  id: z.number().int().nullish(),
  nodeId: z.number().int().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  backgroundColor: z.string().nullish(),
  prefixKey: z.string().nullish(),
  suffixKey: z.string().nullish(),
});
export const classifierTypeUpdateSchema = classifierTypeSchema.extend({ id: z.number().int() });

export const nerTagTypeSchema = z.object({
  id: z.number().int().nullish(),
  nodeId: z.number().int().nullish(),
  parentId: z.number().int().nullish(),
  name: z.string().nullish(),
  backgroundColor: z.string().nullish(),
  textColor: z.string().nullish(),
  mandatory: z.boolean().nullish(),
  prefixKey: z.string().nullish(),
  suffixKey: z.string().nullish(),
  dataFormat: z.enum(DataFormats).nullish(),
  selectable: z.boolean().nullish(),
  disabled: z.boolean().nullish(),
});
export const nerTagTypeUpdateSchema = nerTagTypeSchema.extend({ id: z.number().int() });

type ClassifierTypeBody = z.infer<typeof classifierTypeSchema>;
type NerTagTypeBody = z.infer<typeof nerTagTypeSchema>;

/** A clash of the keys with the node's other labels, reported on suffixKey when both keys are well formed. */
function withShortcutConflict<T extends { prefixKey: Violation | null; suffixKey: Violation | null }>(
  violations: T,
  conflict: Violation | null,
): T {
  if (violations.prefixKey || violations.suffixKey) return violations;
  return { ...violations, suffixKey: conflict };
}

function classifierValues(
  input: ClassifierTypeBody,
  others: readonly ShortcutLabel[],
): labels.ClassifierTypeValues {
  const draft = {
    name: input.name ?? '',
    description: input.description ?? null,
    backgroundColor: input.backgroundColor ?? '',
    prefixKey: input.prefixKey ?? null,
    suffixKey: input.suffixKey ?? null,
  };
  const saved = normalizeClassifierType(draft);
  const violations = classifierTypeViolations(
    draft,
    others.map((c) => c.name),
  );
  checkViolations('classifierType', withShortcutConflict(violations, shortcutConflictRule(saved, others)));
  return saved;
}

async function nerValues(
  knex: Knex,
  nodeId: number,
  input: NerTagTypeBody,
  id?: number,
): Promise<labels.NerTagTypeValues> {
  const draft = {
    name: input.name ?? '',
    backgroundColor: input.backgroundColor ?? '',
    textColor: input.textColor ?? '',
    parentId: input.parentId ?? null,
    prefixKey: input.prefixKey ?? null,
    suffixKey: input.suffixKey ?? null,
  };
  const nodeTagTypes = await labels.listTagTypes(knex, [nodeId]);
  const violations = nerTagTypeViolations({ ...draft, id }, nodeTagTypes);
  const saved = normalizeNerTagType(draft);
  checkViolations(
    'nerTagType',
    withShortcutConflict(violations, shortcutConflictRule({ ...saved, id }, nodeTagTypes)),
  );
  return {
    ...saved,
    mandatory: input.mandatory ?? false,
    dataFormat: input.dataFormat ?? null,
    selectable: input.selectable ?? true,
    disabled: input.disabled ?? false,
  };
}

export function labelRoutes({ knex }: AppDeps): Route[] {
  return [
    // --- classifier types ---

    route(
      {
        method: 'GET',
        path: '/api/process/:id/classifier-types',
        access: onProcess('READ', param('id', 'process')),
        response: z.array(classifierTypeDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const processId = idParam(ctx.params.id);
        assertProcessMode(user, processId, 'READ');
        if (!(await processExists(knex, processId))) throw notFound('process');
        ctx.body = await labels.listClassifierTypesOfProcess(knex, processId);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/node/:nodeId/classifier-types',
        access: onNode('READ', param('nodeId', 'node')),
        response: z.array(classifierTypeDto),
      },
      async (ctx) => {
        const node = await nodeWithAccess(
          knex,
          currentUser(ctx),
          idParam(ctx.params.nodeId, 'nodeId'),
          'READ',
        );
        ctx.body = await labels.listClassifierTypesOfNode(knex, node.id);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/classifier-types/:id',
        access: onNode('READ', param('id', 'classifierType')),
        response: classifierTypeDto,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const found = await labels.findClassifierType(knex, idParam(ctx.params.id));
        if (!found) throw notFound('classifierType');
        await nodeWithAccess(knex, user, found.nodeId, 'READ');
        ctx.body = found;
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/node/:nodeId/classifier-types',
        access: onProcess('ADMIN', param('nodeId', 'node')),
        body: { schema: classifierTypeSchema, object: 'classifierType' },
        response: classifierTypeDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const node = await nodeWithAccess(
          knex,
          currentUser(ctx),
          idParam(ctx.params.nodeId, 'nodeId'),
          'ADMIN',
        );
        if (!acceptsClassifierTypes(node.activityType)) throw wrongNodeType('classifierType');
        const input = body();
        const others = await labels.listClassifierTypesOfNode(knex, node.id);
        const created = await labels.createClassifierType(knex, node.id, classifierValues(input, others));
        ctx.status = 201;
        setAlert(ctx, 'soaApp.classifierType.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/classifier-types',
        access: onProcess('ADMIN', inBody('id', 'classifierType')),
        body: { schema: classifierTypeUpdateSchema, object: 'classifierType' },
        response: classifierTypeDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const current = await labels.findClassifierType(knex, input.id);
        if (!current) throw unreachable(user, 'classifierType');
        await nodeWithAccess(knex, user, current.nodeId, 'ADMIN');
        const others = (await labels.listClassifierTypesOfNode(knex, current.nodeId)).filter(
          (c) => c.id !== current.id,
        );
        const updated = await labels.updateClassifierType(knex, current.id, classifierValues(input, others));
        setAlert(ctx, 'soaApp.classifierType.updated', updated.name);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/classifier-types/:id',
        access: onProcess('ADMIN', param('id', 'classifierType')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const current = await labels.findClassifierType(knex, idParam(ctx.params.id));
        if (!current) throw notFound('classifierType');
        await nodeWithAccess(knex, user, current.nodeId, 'ADMIN');
        await labels.deleteClassifierType(knex, current.id);
        setAlert(ctx, 'soaApp.classifierType.deleted', current.name);
        ctx.status = 204;
      },
    ),

    // --- NER tag types ---

    route(
      {
        method: 'GET',
        path: '/api/node/:nodeId/ner-tag-type',
        access: onNode('READ', param('nodeId', 'node')),
        response: z.array(nerTagTypeDto),
      },
      async (ctx) => {
        const node = await nodeWithAccess(
          knex,
          currentUser(ctx),
          idParam(ctx.params.nodeId, 'nodeId'),
          'READ',
        );
        ctx.body = await labels.listTagTypes(knex, [node.id]);
      },
    ),

    /**
     * The root tag types of the nodes with their children (spec 3), or, with `documentId`, the labelling
     * menu's option tree of spec 2 (services/tags.ts tagTypeOptions): roots per node (-nodeId) of the
     * document's steps the caller may edit, restricted to `nodeIds` when given, for `labellingType`
     * (SPAN_TAG unless given).
     */
    route(
      {
        method: 'GET',
        path: '/api/root-ner-tag-types',
        access: onNode('READ', query('nodeIds', 'node', true)),
        response: z.union([z.array(nerTagTypeTree), z.array(tagTypeOptionTree)]),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const nodeIds = nodeIdsParam(ctx);
        const nodes = [];
        for (const nodeId of nodeIds) nodes.push(await nodeWithAccess(knex, user, nodeId, 'READ'));
        if (ctx.query.documentId === undefined) {
          ctx.body = nodeIds.length ? await labels.listRootTagTypes(knex, nodeIds) : [];
          return;
        }
        const documentId = idParam(ctx.query.documentId, 'documentId');
        const docProcessId = await documentProcessId(knex, documentId);
        if (
          docProcessId === undefined ||
          !(await mayReadDocumentOf(knex, user, docProcessId)) ||
          nodes.some((n) => n.processId !== docProcessId)
        )
          throw unreachable(user, 'document');
        const type = ctx.query.labellingType ?? 'SPAN_TAG';
        if (!LabellingTypes.includes(type as LabellingType))
          throw new HttpError(400, {
            message: 'error.labellingType',
            errorKey: 'labellingType',
            detail: `Not supported labelling type: ${String(type)}`,
          });
        ctx.body = await tagTypeOptions(
          knex,
          user,
          documentId,
          ctx.query.nodeIds === undefined ? null : nodeIds,
          type as LabellingType,
        );
      },
    ),

    // WRITE on the node adds an option of the labelling menu (spec 2 section 6): below ADMIN only the name,
    // colours and parent are taken.

    // spec 2 section 6: options of the labelling menu are added and edited with WRITE on the node (what a
    // caller below ADMIN may change is limited by the handler)
    route(
      {
        method: 'POST',
        path: '/api/node/:nodeId/ner-tag-type',
        access: onNode('WRITE', param('nodeId', 'node')),
        body: { schema: nerTagTypeSchema, object: 'nerTagType' },
        response: nerTagTypeDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const node = await nodeWithAccess(knex, user, idParam(ctx.params.nodeId, 'nodeId'), 'WRITE');
        if (!acceptsNerTagTypes(node.activityType)) throw wrongNodeType('nerTagType');
        const asked = body();
        const input = adminOfNode(user, node) ? asked : writerTagTypeInput(asked, null);
        const created = await labels.createTagType(knex, node.id, await nerValues(knex, node.id, input));
        ctx.status = 201;
        setAlert(ctx, 'soaApp.nerTagType.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/ner-tag-type',
        access: onNode('WRITE', inBody('id', 'nerTagType')),
        body: { schema: nerTagTypeUpdateSchema, object: 'nerTagType' },
        response: nerTagTypeDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const asked = body();
        const current = await labels.findTagType(knex, asked.id);
        if (!current) throw unreachable(user, 'nerTagType');
        const node = await nodeWithAccess(knex, user, current.nodeId, 'WRITE');
        const input = adminOfNode(user, node) ? asked : writerTagTypeInput(asked, current);
        const values = await nerValues(knex, current.nodeId, input, current.id);
        const updated = await labels.updateTagType(knex, current, values);
        setAlert(ctx, 'soaApp.nerTagType.updated', updated.name);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/ner-tag-type/:id',
        access: onProcess('ADMIN', param('id', 'nerTagType')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const current = await labels.findTagType(knex, idParam(ctx.params.id));
        if (!current) throw notFound('nerTagType');
        await nodeWithAccess(knex, user, current.nodeId, 'ADMIN');
        await labels.deleteTagType(knex, current.id);
        setAlert(ctx, 'soaApp.nerTagType.deleted', current.name);
        ctx.status = 204;
      },
    ),

    // --- import and export ---

    route(
      {
        method: 'GET',
        path: '/api/node/:nodeId/ner-tag-type/export',
        access: onNode('READ', param('nodeId', 'node')),
        response: labelFile,
      },
      async (ctx) => {
        const node = await nodeWithAccess(
          knex,
          currentUser(ctx),
          idParam(ctx.params.nodeId, 'nodeId'),
          'READ',
        );
        ctx.set('Content-Disposition', `attachment; filename="labels-node-${node.id}.json"`);
        ctx.set('Access-Control-Expose-Headers', 'Content-Disposition');
        ctx.type = 'application/json';
        ctx.body = await labels.exportLabels(knex, node.id);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/node/:nodeId/ner-tag-type/import',
        access: onProcess('ADMIN', param('nodeId', 'node')),
        response: importResult,
      },
      async (ctx) => {
        const node = await nodeWithAccess(
          knex,
          currentUser(ctx),
          idParam(ctx.params.nodeId, 'nodeId'),
          'ADMIN',
        );
        if (!acceptsNerTagTypes(node.activityType)) throw wrongNodeType('nerTagType');
        const file: unknown = (ctx.request as unknown as { body: unknown }).body;
        const errors = validateLabelImport(file);
        if (errors.length) throw new HttpError(400, { message: 'Validation Failed', errors });
        ctx.body = await labels.importLabels(knex, node.id, file as LabelImportFile);
      },
    ),
  ];
}
