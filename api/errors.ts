/**
 * Error factories and the one error middleware that produces the spec's error catalogue
 * (spec 1 section 8). 5xx details never reach the client.
 */
import type { Context, Next } from 'koa';
import { DBError, NotFoundError, UniqueViolationError, ValidationError } from 'objection';
import type { ErrorBodyDTO, FieldErrorDTO } from '../domain/api-types';
import type { Violation } from '../domain/validation';
import { FilesStoreUnavailable } from '../server/files';

export const APP_HEADER = 'X-soaApp';

export class HttpError extends Error {
  constructor(
    public status: number,
    public body: Partial<ErrorBodyDTO> & Record<string, unknown>,
    public headers: Record<string, string> = {},
  ) {
    super(String(body.detail ?? body.message ?? status));
  }
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  423: 'Locked',
  429: 'Too Many Requests',
};

export const unauthorized = (detail?: string) => new HttpError(401, { message: 'error.http.401', detail });
/** A 400 with a human explanation (for refusals that have no field). */
export const badRequest = (detail: string) => new HttpError(400, { message: 'error.http.400', detail });
export const forbidden = () => new HttpError(403, { message: 'error.http.403' });
export const notFound = (entity = 'entity') =>
  new HttpError(404, { message: 'error.url.not.found', params: { entity } });
export const unprocessable = (key: string) => new HttpError(422, { key, message: key });
export const locked = (key: string) => new HttpError(423, { key, message: key });
export const tooManyRequests = (detail: string) => new HttpError(429, { message: 'error.http.429', detail });

/** A business rule failed: the UI shows the translated key from the app-error header. */
export function appError(key: string, entityName: string, errorKey?: string): HttpError {
  return new HttpError(
    400,
    { message: key, errorKey: errorKey ?? key.replace(/^error\./, ''), params: { entityName } },
    { [`${APP_HEADER}-error`]: key, [`${APP_HEADER}-params`]: entityName },
  );
}

export function fieldErrors(
  objectName: string,
  errors: { field: string; violation: Violation }[],
): HttpError {
  const list: FieldErrorDTO[] = errors.map(({ field, violation }) => ({
    objectName,
    field,
    message: violation.code,
    key: violation.key,
  }));
  return new HttpError(400, { message: 'error.validation', fieldErrors: list });
}

/** 400 with the field errors of domain rules that give flat violations ({field, code, key}). */
export const violationErrors = (
  objectName: string,
  violations: readonly ({ field: string } & Violation)[],
): HttpError =>
  fieldErrors(
    objectName,
    violations.map(({ field, code, key }) => ({ field, violation: { code, key } })),
  );

/** Collects rule results: `check(field, rule(value))`, then `throwIfAny()`. */
export class FieldErrorCollector {
  private errors: { field: string; violation: Violation }[] = [];
  constructor(private objectName: string) {}
  check(field: string, violation: Violation | null): this {
    if (violation) this.errors.push({ field, violation });
    return this;
  }
  throwIfAny(): void {
    if (this.errors.length) throw fieldErrors(this.objectName, this.errors);
  }
}

export function setAlert(ctx: Context, key: string, param: string | number): void {
  ctx.set(`${APP_HEADER}-alert`, key);
  ctx.set(`${APP_HEADER}-params`, encodeURIComponent(String(param)));
}

export async function errorMiddleware(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) throw notFound();
  } catch (err) {
    const e = toHttpError(err);
    if (e.status >= 500) ctx.app.emit('error', err, ctx);
    ctx.status = e.status;
    for (const [k, v] of Object.entries(e.headers)) ctx.set(k, v);
    ctx.body = {
      status: e.status,
      title: TITLES[e.status] ?? 'Error',
      message: `error.http.${e.status}`,
      ...e.body,
    } satisfies ErrorBodyDTO;
  }
}

/**
 * A PostgreSQL error (raw knex queries throw pg's DatabaseError; Objection wraps it in a DBError) mapped by
 * its SQLSTATE class to a 4xx when the input caused it, with a fixed text: the database's own message, which
 * may quote SQL or values, never reaches the client. Anything else is a 500 (logged, body without detail).
 */
export function databaseErrorStatus(err: unknown): HttpError | null {
  const native = (err instanceof DBError ? (err as { nativeError?: unknown }).nativeError : err) as
    { code?: unknown; severity?: unknown } | undefined;
  const code = native && typeof native.code === 'string' && 'severity' in native ? native.code : null;
  if (!code) return null;
  if (code === '23505') return new HttpError(409, { message: 'error.http.409', detail: 'It already exists' });
  if (code === '23503')
    return new HttpError(409, {
      message: 'error.http.409',
      detail: 'It refers to something that does not exist, or something else still refers to it',
    });
  if (code.startsWith('22') || code === '23502' || code === '23514' || code.startsWith('54'))
    return new HttpError(400, {
      message: 'error.http.400',
      detail: 'A value is malformed, out of range or too large',
    });
  if (code === '57014')
    return new HttpError(503, { title: 'Service Unavailable', message: 'error.http.503' });
  return null;
}

function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof NotFoundError) return notFound();
  if (err instanceof UniqueViolationError) return new HttpError(409, { message: 'error.http.409' });
  if (err instanceof ValidationError) return new HttpError(400, { message: 'error.http.400' });
  const db = databaseErrorStatus(err);
  if (db) return db;
  if (err instanceof FilesStoreUnavailable)
    return new HttpError(503, {
      title: 'Service Unavailable',
      message: 'error.http.503',
      detail: 'The files store cannot be reached; nothing was stored. Try again later.',
    });
  const status = (err as { status?: number; expose?: boolean }).status;
  if (status && status >= 400 && status < 500) {
    // koa / body parser errors (malformed JSON, payload too large)
    return new HttpError(status, { message: `error.http.${status}`, detail: (err as Error).message });
  }
  return new HttpError(500, { message: 'error.http.500' });
}
