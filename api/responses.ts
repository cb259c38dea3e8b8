/**
 * Response schemas shared by several route files (issue 32): what a route answers, declared on the route
 * (`response`, api/route.ts) for the OpenAPI document and checked against every answer under test. A schema
 * used by one route file stays beside its routes.
 */
import { z } from 'zod';
import { AccessModes } from '../domain/enums';
import type { ProcessDTO, ProcessTagDTO } from '../domain/api-types';

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
