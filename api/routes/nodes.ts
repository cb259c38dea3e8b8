/**
 * Nodes of the process graph (docs/api-graph.md "Nodes"): reads need READ on the process (or on the node,
 * when one is named), every change needs ADMIN on the process. Static facts (node properties, whitelists)
 * need a signed-in user only. Static paths are registered before `/api/nodes/:id`.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { SIGNED_IN, inBody, onNode, onProcess, param, query, withKeys } from './access';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { isAdmin } from '../../domain/access';
import { assertNodeMode, assertProcessMode, currentUser, unreachable } from '../auth';
import { notFound, setAlert } from '../errors';
import * as nodes from '../services/nodes';
import { idParam } from '../validate';
import { AccessModes, ActivityTypes } from '../../domain/enums';
import {
  AutoStepStatuses,
  BodyTypes,
  HttpRequestMethods,
  MailTypes,
  TaggingTypes,
  TriggerTypes,
  type NodeCoordinatesDTO,
  type NodePropertiesDTO,
} from '../../domain/graph-types';
import {
  CONDITIONAL_ACCEPTANCE_WHITELIST,
  CUSTOM_EXTERNAL_WHITELIST,
  LLM_EXTERNAL_WHITELIST,
  MULTIPROCESSED_WHITELIST,
  nodeProperties,
  TRAINABLE_WHITELIST,
} from '../../domain/nodes';
import { keepSchedulesInStep } from '../../server/schedules';
import { processExists } from '../../db/queries/processes';

const idRef = z.object({ id: z.number().int() });
const text = z.string().nullish();
const editorMap = z.record(z.string(), z.object({ value: text, editorState: text }));

const externalConfig = z.discriminatedUnion('configType', [
  z.object({ configType: z.literal('CUSTOM'), model: text, restApiUrl: text, restApiUrlEditorState: text }),
  z.object({ configType: z.literal('LLM'), llmModel: idRef.nullish(), secret: idRef.nullish() }),
]);

/** The NodeDTO as a request body: shapes only; the rules (messages, limits) are domain/nodes.ts. */
const nodeFields = {
  name: text,
  description: text,
  x: z.number().nullish(),
  y: z.number().nullish(),
  automatic: z.boolean().nullish(),
  autoStepStatus: z.enum(AutoStepStatuses).nullish(),
  mandatory: z.boolean().nullish(),
  requiresAcceptance: z.boolean().nullish(),
  priority: z.number().int().nullish(),
  handlesRelations: z.boolean().nullish(),
  triggerType: z.enum(TriggerTypes).nullish(),
  cron: text,
  threshold: z.number().int().nullish(),
  externalConfig: externalConfig.nullish(),
  trainableConfig: z
    .object({
      model: text,
      requestPath: text,
      automaticTraining: z
        .boolean()
        .nullish()
        .transform((v) => v ?? false),
      threshold: z
        .number()
        .int()
        .nullish()
        .transform((v) => v ?? 10),
    })
    .nullish(),
  additionalNodeSubmits: z
    .array(z.object({ docId: z.number().int().nullish(), submits: z.number() }))
    .nullish(),
  // type-specific settings
  supportedTaggingTypes: z.array(z.enum(TaggingTypes)).nullish(),
  relationPriorityMode: z.boolean().nullish(),
  annotatorsSeeEachOther: z.boolean().nullish(),
  llmModel: idRef.nullish(),
  secret: idRef.nullish(),
  prompt: text,
  promptEditorState: text,
  temperature: z.number().nullish(),
  attachFile: z.boolean().nullish(),
  endpoint: text,
  active: z.boolean().nullish(),
  smtpHost: text,
  smtpPort: z.number().int().nullish(),
  username: text,
  subject: text,
  template: text,
  templateEditorState: text,
  mailReceivers: z
    .array(
      z.object({
        id: z.number().int().nullish(),
        email: z.string().nullish(),
        type: z.enum(MailTypes).nullish(),
      }),
    )
    .nullish(),
  httpRequestMethod: z.enum(HttpRequestMethods).nullish(),
  url: text,
  urlEditorState: text,
  headers: editorMap.nullish(),
  requestBody: z
    .object({
      bodyType: z.enum(BodyTypes).nullish(),
      jsonBody: editorMap.nullish(),
      plainTextBody: text,
      plainTextBodyEditorState: text,
    })
    .nullish(),
  fileContent: text,
  fileContentEditorState: text,
  preferredFilename: text,
  preferredFilenameEditorState: text,
  sftpConnection: idRef.nullish(),
  payload: text,
  payloadEditorState: text,
  preferredDocName: text,
  preferredDocNameEditorState: text,
  receivers: z.array(idRef.extend({ name: text, processId: z.number().int().nullish() })).nullish(),
  sftpTransferRules: z
    .array(
      z.object({
        id: z.number().int().nullish(),
        name: text,
        sourceId: z.number().int(),
        targetId: z.number().int().nullish(),
        deleteAfterTransfer: z.boolean().nullish(),
      }),
    )
    .nullish(),
};

export const createSchema = z.object({
  ...nodeFields,
  activityType: z.enum(ActivityTypes),
  processId: z.number().int(),
});
export const updateSchema = z.object({
  ...nodeFields,
  id: z.number().int(),
  activityType: z.enum(ActivityTypes).nullish(),
  processId: z.number().int().nullish(),
});
export const coordinates = z.object({ x: z.number(), y: z.number() });
export const coordinatesList = z.array(coordinates.extend({ id: z.number().int() }));
export const fetchByIds = z.object({ nodeIds: z.array(z.number().int()) });

/**
 * A node as answered (NodeDTO): the common fields, and the settings of its type. The answer carries null
 * for a setting of another type where NodeDTO says absent (the row's column), so the settings are nullish.
 */
const editorValue = z.object({ value: z.string(), editorState: z.string().nullish() });
export const nodeDto = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  activityType: z.enum(ActivityTypes),
  processId: z.number().int(),
  x: z.number(),
  y: z.number(),
  automatic: z.boolean(),
  autoStepStatus: z.enum(AutoStepStatuses),
  obligatory: z.boolean(),
  mandatory: z.boolean(),
  requiresAcceptance: z.boolean(),
  priority: z.number().int(),
  handlesRelations: z.boolean(),
  triggerType: z.enum(TriggerTypes),
  cron: z.string().nullable(),
  threshold: z.number().int().nullable(),
  externalConfig: z
    .discriminatedUnion('configType', [
      z.object({
        configType: z.literal('CUSTOM'),
        model: z.string().nullable(),
        restApiUrl: z.string().nullable(),
        restApiUrlEditorState: z.string().nullish(),
      }),
      z.object({ configType: z.literal('LLM'), llmModel: idRef.nullable(), secret: idRef.nullable() }),
    ])
    .nullable(),
  trainableConfig: z
    .object({
      model: z.string().nullable(),
      requestPath: z.string().nullable(),
      automaticTraining: z.boolean(),
      threshold: z.number().int(),
    })
    .nullable(),
  additionalNodeSubmits: z.array(z.object({ docId: z.number().int().nullable(), submits: z.number() })),
  accessMode: z.enum(AccessModes).nullable(),
  pollerStatus: z
    .object({
      lastRunDate: z.string().nullable(),
      lastSuccessDate: z.string().nullable(),
      lastImported: z.number().int(),
      lastError: z.string().nullable(),
      lastErrorDate: z.string().nullable(),
    })
    .nullish(),
  // type-specific settings (null or absent where the type has none)
  supportedTaggingTypes: z.array(z.enum(TaggingTypes)).nullish(),
  relationPriorityMode: z.boolean().nullish(),
  annotatorsSeeEachOther: z.boolean().nullish(),
  llmModel: idRef.nullish(),
  secret: idRef.nullish(),
  prompt: z.string().nullish(),
  promptEditorState: z.string().nullish(),
  temperature: z.number().nullish(),
  attachFile: z.boolean().nullish(),
  endpoint: z.string().nullish(),
  active: z.boolean().nullish(),
  smtpHost: z.string().nullish(),
  smtpPort: z.number().int().nullish(),
  username: z.string().nullish(),
  subject: z.string().nullish(),
  template: z.string().nullish(),
  templateEditorState: z.string().nullish(),
  mailReceivers: z
    .array(z.object({ id: z.number().int().nullable(), email: z.string(), type: z.enum(MailTypes) }))
    .nullish(),
  httpRequestMethod: z.enum(HttpRequestMethods).nullish(),
  url: z.string().nullish(),
  urlEditorState: z.string().nullish(),
  headers: z.record(z.string(), editorValue).nullish(),
  requestBody: z
    .object({
      bodyType: z.enum(BodyTypes).nullable(),
      jsonBody: z.record(z.string(), editorValue).nullish(),
      plainTextBody: z.string().nullish(),
      plainTextBodyEditorState: z.string().nullish(),
    })
    .nullish(),
  fileContent: z.string().nullish(),
  fileContentEditorState: z.string().nullish(),
  preferredFilename: z.string().nullish(),
  preferredFilenameEditorState: z.string().nullish(),
  sftpConnection: idRef.nullish(),
  payload: z.string().nullish(),
  payloadEditorState: z.string().nullish(),
  preferredDocName: z.string().nullish(),
  preferredDocNameEditorState: z.string().nullish(),
  receivers: z
    .array(
      z.object({ id: z.number().int(), name: z.string().nullish(), processId: z.number().int().optional() }),
    )
    .nullish(),
  sftpTransferRules: z
    .array(
      z.object({
        id: z.number().int().nullable(),
        name: z.string().nullable(),
        sourceId: z.number().int(),
        targetId: z.number().int().nullable(),
        deleteAfterTransfer: z.boolean(),
      }),
    )
    .nullish(),
});
const coordinatesDto = z.array(
  z.object({ id: z.number().int(), x: z.number(), y: z.number() }),
) satisfies z.ZodType<NodeCoordinatesDTO[]>;
const activityTypeList = z.array(z.enum(ActivityTypes));
const nodePropertiesDto = z.object({
  activityTypes: activityTypeList,
  uploadTypes: activityTypeList,
  actionTypes: activityTypeList,
  automaticTypes: activityTypeList,
  autoStepStatusDefaults: z.record(z.enum(ActivityTypes), z.enum(AutoStepStatuses)),
  multiprocessedWhitelist: activityTypeList,
  conditionalAcceptanceWhitelist: activityTypeList,
  customExternalWhitelist: activityTypeList,
  llmExternalWhitelist: activityTypeList,
  trainableWhitelist: activityTypeList,
  edgeWhitelist: z.record(z.enum(ActivityTypes), activityTypeList),
  defaults: z.object({
    temperature: z.number(),
    priority: z.number().int(),
    triggerType: z.enum(TriggerTypes),
    supportedTaggingTypes: z.array(z.enum(TaggingTypes)),
  }),
  limits: z.object({
    additionalSubmitsMin: z.number(),
    additionalSubmitsMax: z.number(),
    temperatureMin: z.number(),
    temperatureMax: z.number(),
    priorityMin: z.number(),
    priorityMax: z.number(),
    thresholdMin: z.number(),
    trainableThresholdMin: z.number(),
    nameMaxLength: z.number(),
  }),
}) satisfies z.ZodType<NodePropertiesDTO>;

/** Null in the body means "not given": the stored value or the default applies (masked secrets, too). */
const withoutNulls = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** Fields whose null is a real value (clearing them), not "not given". */
const NULLABLE = [
  'description',
  'cron',
  'threshold',
  'externalConfig',
  'trainableConfig',
  'llmModel',
  'secret',
  'sftpConnection',
  'requestBody',
  'promptEditorState',
  'templateEditorState',
  'urlEditorState',
  'fileContentEditorState',
  'preferredFilenameEditorState',
  'payloadEditorState',
  'preferredDocNameEditorState',
];

function nodeInput(parsed: Record<string, unknown>): Record<string, unknown> {
  const out = withoutNulls(parsed);
  for (const k of NULLABLE) if (parsed[k] === null) out[k] = null;
  return out;
}

const processIdQuery = (ctx: Context) => idParam(ctx.query.processId, 'processId');

export function nodeRoutes(deps: AppDeps): Route[] {
  const { knex } = deps;

  const whitelists = {
    'multiprocessed-nodes-whitelist': MULTIPROCESSED_WHITELIST,
    'nodes-with-conditional-acceptance-whitelist': CONDITIONAL_ACCEPTANCE_WHITELIST,
    'custom-external-nodes-whitelist': CUSTOM_EXTERNAL_WHITELIST,
    'llm-external-nodes-whitelist': LLM_EXTERNAL_WHITELIST,
    'trainable-nodes-whitelist': TRAINABLE_WHITELIST,
  };

  /** The node of the `:id` parameter, after checking the caller's mode on it. */
  const nodeOf = async (ctx: Context, mode: 'READ' | 'ADMIN') => {
    const user = currentUser(ctx);
    const id = idParam(ctx.params.id);
    const node = await nodes.findNode(knex, id);
    if (!node) throw notFound('node');
    if (mode === 'READ') assertNodeMode(user, node.id, node.processId, 'READ');
    else assertProcessMode(user, node.processId, 'ADMIN');
    return { user, node };
  };

  return [
    route(
      {
        method: 'GET',
        path: '/api/node-properties',
        access: withKeys(SIGNED_IN),
        response: nodePropertiesDto,
      },
      (ctx) => {
        currentUser(ctx);
        ctx.body = nodeProperties();
      },
    ),

    // before `/api/nodes/:id`, which would match them too
    ...Object.entries(whitelists).map(([path, list]) =>
      route(
        {
          method: 'GET',
          path: `/api/nodes/${path}`,
          access: withKeys(SIGNED_IN),
          response: activityTypeList,
        },
        (ctx) => {
          currentUser(ctx);
          ctx.body = [...list];
        },
      ),
    ),

    route(
      {
        method: 'GET',
        path: '/api/nodes',
        access: onProcess('READ', query('processId', 'process')),
        response: z.array(nodeDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const processId = processIdQuery(ctx);
        assertProcessMode(user, processId, 'READ');
        ctx.body = await nodes.listNodes(knex, user, processId);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/span-nodes',
        access: onProcess('READ', query('processId', 'process')),
        response: z.array(nodeDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const processId = processIdQuery(ctx);
        assertProcessMode(user, processId, 'READ');
        ctx.body = await nodes.listNodes(knex, user, processId, 'SPAN');
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/nodes/fetch-by-ids',
        access: onNode('READ', inBody('nodeIds', 'node', true)),
        body: { schema: fetchByIds, object: 'nodeIds' },
        response: z.array(nodeDto),
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const { nodeIds } = body();
        const found = await nodes.findNodes(knex, nodeIds);
        // An id that exists nowhere answers like one of a process the caller cannot reach (issue 25 finding 6).
        if (!isAdmin(user) && found.length !== new Set(nodeIds).size) throw unreachable(user, 'node');
        for (const n of found) assertNodeMode(user, n.id, n.processId, 'READ');
        ctx.body = await nodes.toNodeDTOs(knex, user, found);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/nodes/coordinates',
        access: onProcess('ADMIN', inBody('[].id', 'node', true)),
        body: { schema: coordinatesList, object: 'nodeCoordinates' },
        response: coordinatesDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const list = body();
        const found = await nodes.findNodes(
          knex,
          list.map((c) => c.id),
        );
        if (found.length !== new Set(list.map((c) => c.id)).size) throw unreachable(user, 'node');
        for (const n of found) assertProcessMode(user, n.processId, 'ADMIN');
        ctx.body = await nodes.saveCoordinates(knex, list);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/nodes/:id',
        access: onNode('READ', param('id', 'node')),
        response: nodeDto,
      },
      async (ctx) => {
        const { user, node } = await nodeOf(ctx, 'READ');
        ctx.body = await nodes.toNodeDTO(knex, user, node);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/nodes/:id/previousNodes',
        access: onNode('READ', param('id', 'node')),
        response: z.array(nodeDto),
      },
      async (ctx) => {
        const { user, node } = await nodeOf(ctx, 'READ');
        ctx.body = await nodes.previousNodes(knex, user, node);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/nodes',
        access: onProcess('ADMIN', inBody('processId', 'process')),
        body: { schema: createSchema, object: 'node' },
        status: 201,
        response: nodeDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        assertProcessMode(user, input.processId, 'ADMIN');
        if (!(await processExists(knex, input.processId))) throw notFound('process');
        const created = await nodes.createNode(knex, user, {
          ...nodeInput(input),
          activityType: input.activityType,
          processId: input.processId,
        });
        await keepSchedulesInStep(deps, [created.id]);
        ctx.status = 201;
        setAlert(ctx, 'soaApp.node.created', created.name);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/nodes',
        access: onProcess('ADMIN', inBody('id', 'node')),
        body: { schema: updateSchema, object: 'node' },
        response: nodeDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const stored = await nodes.findNode(knex, input.id);
        if (!stored) throw unreachable(user, 'node');
        assertProcessMode(user, stored.processId, 'ADMIN');
        const updated = await nodes.updateNode(knex, user, stored, nodeInput(input));
        await keepSchedulesInStep(deps, [updated.id]);
        setAlert(ctx, 'soaApp.node.updated', updated.name);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/nodes/:id/coordinates',
        access: onProcess('ADMIN', param('id', 'node')),
        body: { schema: coordinates, object: 'nodeCoordinates' },
        response: coordinatesDto.element,
      },
      async (ctx, { body }) => {
        const { node } = await nodeOf(ctx, 'ADMIN');
        const { x, y } = body();
        [ctx.body] = await nodes.saveCoordinates(knex, [{ id: node.id, x, y }]);
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/nodes/:id',
        access: onProcess('ADMIN', param('id', 'node')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const { node } = await nodeOf(ctx, 'ADMIN');
        await nodes.deleteNode(knex, node);
        await keepSchedulesInStep(deps, [node.id]);
        setAlert(ctx, 'soaApp.node.deleted', node.name);
        ctx.status = 204;
      },
    ),
  ];
}
