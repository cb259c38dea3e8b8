/**
 * Response schemas shared by several route files (issue 32): what a route answers, declared on the route
 * (`response`, api/route.ts) for the OpenAPI document and checked against every answer under test. A schema
 * used by one route file stays beside its routes.
 */
import { z } from 'zod';
import { AccessModes, ActivityTypes, ComponentTypes, DocumentTypes } from '../domain/enums';
import { StepActions, StepStatuses } from '../domain/steps';
import type { AccountDTO, AuthorityDTO, ProcessDTO, ProcessTagDTO } from '../domain/api-types';
import type { DocumentStateDTO, StepDTO, UserRefDTO } from '../domain/document-state-types';
import { LabellingTypes, TagOrigins, type NerTagDTO } from '../domain/tags';
import { MatchingTypes, type MatchingRuleDTO } from '../domain/label-types';
import type { DocumentSummaryDTO } from './services/documents';

export const id = z.number().int();
export const idRef = z.object({ id });

export const processTagDto = z.object({
  id,
  name: z.string(),
  color: z.string(),
  predefined: z.boolean(),
}) satisfies z.ZodType<ProcessTagDTO>;

export const processActorDto = z.object({
  id: id.optional(),
  processId: id,
  actor: z.string(),
  name: z.string(),
});

export const processDto = z.object({
  id,
  name: z.string(),
  processTags: z.array(processTagDto),
  isRagEnabled: z.boolean(),
  ragTextSplitter: z.object({ id, name: z.string().optional() }).nullable(),
  actors: z.array(processActorDto),
  accessMode: z.enum(AccessModes).nullable(),
}) satisfies z.ZodType<ProcessDTO>;

/** A Spring page (api/paging.ts springPage): the content and the page's numbers. */
export const springPage = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    page: z.object({
      size: z.number().int(),
      totalElements: z.number().int(),
      totalPages: z.number().int(),
      number: z.number().int(),
    }),
  });

export const userRefDto = z.object({
  id,
  login: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
}) satisfies z.ZodType<UserRefDTO>;

export const documentSummaryDto = z.object({
  id,
  filename: z.string(),
  path: z.string(),
  documentType: z.enum(DocumentTypes),
  processId: id,
  status: z.enum(['WAITING', 'DONE']),
}) satisfies z.ZodType<DocumentSummaryDTO>;

/** A document as `GET /api/documents/{id}` answers it. */
export const documentDto = documentSummaryDto.extend({
  uploadNodeId: id.nullable(),
  mimeType: z.string(),
  size: z.number().int(),
  createdDate: z.iso.datetime(),
  lastModifiedDate: z.iso.datetime().nullable(),
  content: z.object({ id, content: z.string() }).nullable(),
  assignees: z.array(userRefDto),
  blockedBy: userRefDto.nullable(),
});

const stepNodeDto = z.object({
  id,
  name: z.string(),
  activityType: z.enum(ActivityTypes),
  requiresAcceptance: z.boolean(),
  priority: z.number().int(),
  automatic: z.boolean(),
});

/** The spec's stepDTO with its node, its error and the caller's actions (domain/document-state-types.ts). */
export const stepDto = z.object({
  id,
  documentId: id,
  status: z.enum(StepStatuses),
  master: z.boolean(),
  rejected: z.boolean(),
  blockedBy: userRefDto.nullable(),
  userId: id.nullable(),
  order: z.number().int(),
  nodeId: id,
  nodeName: z.string(),
  nodeDTO: stepNodeDto,
  errorMessage: z.string().nullable(),
  lastModifiedDate: z.string().nullable(),
  actions: z.array(z.enum(StepActions)),
  editable: z.boolean(),
}) satisfies z.ZodType<StepDTO>;

const stepBracketDto = z.object({ activityType: z.enum(ActivityTypes), steps: z.array(stepDto) });

/** `GET /api/v2/document/{id}/state`: the document, its steps per node and per activity type. */
export const documentStateDto = z.object({
  document: z.object({
    id,
    filename: z.string(),
    path: z.string(),
    documentType: z.string(),
    processId: id,
    status: z.string(),
    mimeType: z.string(),
    size: z.number().int(),
    createdDate: z.string(),
    lastModifiedDate: z.string().nullable(),
    blockedBy: userRefDto.nullable(),
    assignees: z.array(userRefDto),
  }),
  steps: z.array(stepDto),
  assignees: z.array(userRefDto),
  blockedBy: userRefDto.nullable(),
  documentStepsInformation: z.array(
    z.object({ nodeDTO: stepNodeDto, steps: z.array(stepDto), activeStepId: id }),
  ),
  waitingStepsBracketsInformation: z.array(stepBracketDto),
  doneStepsInformation: z.array(stepBracketDto),
  selectedStepId: id.nullable(),
}) satisfies z.ZodType<DocumentStateDTO>;

/** A step action's answer: the step, the document's status and its state as they are now. */
export const stepActionDto = stepDto.extend({
  documentStatus: z.string(),
  documentState: documentStateDto.nullable(),
});

/**
 * A tree of objects with `fields` and a list of children of the same shape under `key`: described three
 * levels deep (OpenAPI 3.0 has no recursive inline schema), deeper levels as objects of any shape.
 */
export function nested<F extends z.ZodRawShape>(fields: F, key: string, opts: { optional?: boolean } = {}) {
  const children = (item: z.ZodType) => (opts.optional ? z.array(item).optional() : z.array(item));
  const deepest = z.object({ ...fields, [key]: children(z.record(z.string(), z.unknown())) });
  const middle = z.object({ ...fields, [key]: children(deepest) });
  return z.object({ ...fields, [key]: children(middle) });
}

export const authorityDto = z.object({
  id,
  componentId: z.number().int(),
  type: z.enum(ComponentTypes),
  mode: z.enum(AccessModes),
}) satisfies z.ZodType<AuthorityDTO>;

/** The own account (`GET /api/account`), and a user as the administration lists it. */
export const accountDto = z.object({
  id,
  login: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  activated: z.boolean(),
  langKey: z.string(),
  roles: z.array(z.string()),
  authorities: z.array(authorityDto),
  createdBy: z.string().nullable(),
  createdDate: z.string().nullable(),
  lastModifiedBy: z.string().nullable(),
  lastModifiedDate: z.string().nullable(),
}) satisfies z.ZodType<AccountDTO>;

/** An utterance of a transcript with its tokens. */
export const utteranceDto = z.object({
  id,
  docId: id,
  actor: z.string(),
  prevId: id.nullable(),
  nextId: id.nullable(),
  tokens: z.array(
    z.object({
      id,
      utteranceId: id,
      value: z.string(),
      tsStart: z.number().nullable(),
      tsEnd: z.number().nullable(),
      confidence: z.number().nullable(),
      properties: z.array(z.string()),
      unclear: z.boolean(),
    }),
  ),
});

/** A NER tag as answered (domain/tags.ts NerTagDTO). */
export const nerTagDto = z.object({
  id,
  type: z.enum(LabellingTypes),
  nerTagTypeId: id,
  nerTagType: z.object({
    id,
    name: z.string(),
    backgroundColor: z.string(),
    textColor: z.string(),
    nodeId: id,
    path: z.string(),
  }),
  utteranceTokens: z.array(z.object({ id })),
  startOffset: z.number().int().nullable(),
  endOffset: z.number().int().nullable(),
  tsStart: z.number().nullable(),
  tsEnd: z.number().nullable(),
  stepId: id.nullable(),
  nodeId: id,
  documentId: id,
  origin: z.enum(TagOrigins),
  createdById: id.nullable(),
  lastModifiedById: id.nullable(),
}) satisfies z.ZodType<NerTagDTO>;

export const matchingRuleDto = z.object({
  id,
  nerTagTypeId: id,
  expression: z.string(),
  matchingType: z.enum(MatchingTypes),
  tolerance: z.number().int().nullable(),
}) satisfies z.ZodType<MatchingRuleDTO>;
