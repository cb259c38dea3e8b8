/**
 * Request validation with zod: shapes and types come from the schema; the spec's rules (messages, limits)
 * come from domain/validation.ts and are checked by the handlers with FieldErrorCollector.
 * A body of the wrong shape is reported as field errors, like a rule violation. A route's body schema is
 * declared on the route (api/route.ts), whose `input.body()` parses it here.
 */
import type { Context } from 'koa';
import { z } from 'zod';
import {
  maxLengthViolation,
  oversizedStrings,
  TEXT_LIMITS,
  unstorableStrings,
  unstorableTextViolation,
} from '../domain/limits';
import type { ConstraintCode } from '../domain/validation';
import { fieldErrors, HttpError } from './errors';

function codeOf(issue: z.core.$ZodIssue): ConstraintCode {
  switch (issue.code) {
    case 'too_small':
    case 'too_big':
      return 'Size';
    case 'invalid_format':
      return 'Pattern';
    default:
      return 'NotBlank';
  }
}

/**
 * Validates a body against its schema. First, whatever the schema: no string in the body (keys included)
 * may be longer than TEXT_LIMITS.anyString (domain/limits.ts), so an oversized field is a field error
 * `entity.validation.maxlength` and is never stored, even where the schema or the rules set no tighter limit;
 * and none may hold a NUL or a lone surrogate (`entity.validation.pattern`), which PostgreSQL cannot store
 * or which would be stored silently changed.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown, objectName: string): z.infer<S> {
  const oversized = oversizedStrings(value, TEXT_LIMITS.anyString);
  if (oversized.length)
    throw fieldErrors(
      objectName,
      oversized.map((path) => ({
        field: path || objectName,
        violation: maxLengthViolation(TEXT_LIMITS.anyString),
      })),
    );
  const unstorable = unstorableStrings(value);
  if (unstorable.length)
    throw fieldErrors(
      objectName,
      unstorable.map((path) => ({ field: path || objectName, violation: unstorableTextViolation })),
    );
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw fieldErrors(
    objectName,
    result.error.issues.map((issue) => ({
      field: issue.path.join('.') || objectName,
      violation: {
        code: codeOf(issue),
        key: issue.code === 'invalid_type' ? 'entity.validation.required' : `entity.validation.${issue.code}`,
      },
    })),
  );
}

/**
 * The largest id or index a request may name: PostgreSQL's integer (int4) limit. Ids are bigint columns but
 * indexes and positions are integer ones, and no sequence here comes near 2^31; one bound for every
 * parameter keeps a huge number a 400 instead of a database error.
 */
export const MAX_ID = 2147483647;

/** A numeric path or query parameter (an integer from 0 to MAX_ID); anything else is a 400. */
export function idParam(value: unknown, name = 'id'): number {
  return intParam(value, name, 0, MAX_ID);
}

/** A whole-number parameter from `min` to `max` (at most MAX_ID); anything else is a 400 naming the range. */
export function intParam(value: unknown, name: string, min: number, max: number): number {
  const text = String(value).trim();
  if (!/^\d{1,10}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new HttpError(400, {
      message: 'error.http.400',
      detail: `Parameter ${name} must be a whole number from ${min} to ${max}`,
    });
  }
  return Number(text);
}

/** The first value of a query parameter (`?a=1&a=2` gives '1'). */
export const firstValue = (v: string | string[] | undefined): string | undefined =>
  Array.isArray(v) ? v[0] : v;

/**
 * `?page&size` of a paged list: page from 0 (default 0), size 1..`max` (default `defaultSize`); an empty
 * value is the default; anything else is a 400.
 */
export function pageQuery(
  ctx: { query: Context['query'] },
  defaultSize: number,
  max = 100,
): { page: number; size: number } {
  const pageRaw = firstValue(ctx.query.page);
  const sizeRaw = firstValue(ctx.query.size);
  const page = pageRaw === undefined || pageRaw === '' ? 0 : idParam(pageRaw, 'page');
  const size = sizeRaw === undefined || sizeRaw === '' ? defaultSize : idParam(sizeRaw, 'size');
  if (size < 1 || size > max)
    throw new HttpError(400, { message: 'error.http.400', detail: `page >= 0 and 1 <= size <= ${max}` });
  return { page, size };
}

/** The id a body names for the access check, read before the rest of the body is validated. */
export function bodyId(ctx: Context, field: string, objectName: string): number {
  return parse(
    z.object({ [field]: z.number().int().min(1).max(MAX_ID) }),
    (ctx.request as unknown as { body: unknown }).body,
    objectName,
  )[field] as number;
}

/** `?stepIds=1,2` or `?stepIds=1&stepIds=2` (ids, duplicates dropped); absent means every step (null). */
export function stepIdsQuery(ctx: Context): number[] | null {
  const raw = ctx.query.stepIds;
  if (raw === undefined) return null;
  const parts = (Array.isArray(raw) ? raw : [raw])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return [...new Set(parts.map((v) => idParam(v, 'stepIds')))];
}
