/**
 * The error catalogue of spec 1 section 8: turns a failed request into the text of one or more error toasts,
 * and a success response's X-soaApp-alert header into a success toast. Pure apart from the injected `t`.
 */
import type { TFunction } from 'i18next';
import type { ErrorBodyDTO, FieldErrorDTO } from '@domain';
import { HttpError, RequestError } from './client';

const SIZE_ALIASES = new Set(['Min', 'Max', 'DecimalMin', 'DecimalMax']);

/** 422 keys of the graph that have a dedicated message (the "graph mapping" of the catalogue). */
const GRAPH_ERROR_KEYS: Record<string, string> = {
  'error.graph.noCohesive': 'error.graph.noCohesive',
};

type Translate = TFunction | ((key: string, options?: Record<string, unknown>) => string);

function asBody(body: unknown): Partial<ErrorBodyDTO> & { errorKey?: string } {
  return body && typeof body === 'object' ? (body as Partial<ErrorBodyDTO>) : {};
}

/** The account check (GET api/account) is allowed to fail with 401 silently. */
export function isAccountCheck(error: HttpError): boolean {
  const path = error.url.split('?')[0];
  return error.method === 'GET' && /(^|\/)api\/account$/.test(path);
}

function decodeParam(raw: string | null): string {
  if (!raw) return '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function fieldErrorText(t: Translate, fe: FieldErrorDTO): string {
  const constraint = SIZE_ALIASES.has(fe.message) ? 'Size' : fe.message;
  const field = fe.field.replace(/\[\d*\]/g, '[]');
  const fieldName = t(`soaApp.${fe.objectName}.${field}`, {
    defaultValue: t(`global.field.${field}`, { defaultValue: fe.field }),
  });
  const detail = fe.key
    ? t(fe.key, { defaultValue: t(`error.${constraint}`, { defaultValue: constraint }) })
    : t(`error.${constraint}`, { defaultValue: constraint });
  return t('error.fieldError', { fieldName, detail, defaultValue: `Error on field "${fieldName}"` });
}

function bodyMessage(t: Translate, body: Partial<ErrorBodyDTO>): string | null {
  const key = body.message ?? body.key;
  if (!key) return null;
  return t(key, { ...(body.params ?? {}), defaultValue: key });
}

/**
 * The toast texts for a failed request (usually one; one per field error for validation failures);
 * an empty list means "say nothing".
 */
export function errorMessages(t: Translate, error: unknown): string[] {
  if (error instanceof HttpError) {
    const body = asBody(error.body);
    switch (error.status) {
      case 0:
        return [t('error.server.not.reachable', { defaultValue: 'Server not reachable' })];
      case 400: {
        const appError = error.headers.get('x-soaapp-error');
        if (appError) {
          const entityName = decodeParam(error.headers.get('x-soaapp-params'));
          return [t(appError, { entityName, param: entityName, defaultValue: appError })];
        }
        if (body.fieldErrors?.length) return body.fieldErrors.map((fe) => fieldErrorText(t, fe));
        return [bodyMessage(t, body) ?? t('error.unknown', { defaultValue: 'Unknown error!' })];
      }
      case 401:
        return isAccountCheck(error) ? [] : [t('error.http.401', { defaultValue: 'Unauthorized' })];
      case 403:
        return [t('error.http.403')];
      case 404:
        return [t('error.url.not.found', { defaultValue: 'Not found' })];
      case 422: {
        const key = (body.key && GRAPH_ERROR_KEYS[body.key]) ?? body.key ?? 'error.http.422';
        return [t(key, { ...(body.params ?? {}), defaultValue: t('error.http.422') })];
      }
      case 423:
        return [
          t(body.key ?? 'error.http.423', { ...(body.params ?? {}), defaultValue: t('error.http.423') }),
        ];
      default:
        return [bodyMessage(t, body) ?? t('error.unknown', { defaultValue: 'Unknown error!' })];
    }
  }
  if (error instanceof RequestError || error instanceof Error) {
    return [error.message || t('error.unknown', { defaultValue: 'Unknown error!' })];
  }
  return [t('error.unknown', { defaultValue: 'Unknown error!' })];
}

/** The success toast text from an X-soaApp-alert header, or null when the response carries none. */
export function alertMessage(t: Translate, headers: Headers): string | null {
  const alert = headers.get('x-soaapp-alert');
  if (!alert) return null;
  const param = decodeParam(headers.get('x-soaapp-params'));
  return t(alert, { param, defaultValue: alert });
}

/** The `errorKey` (short key like 'userexists') of a 400 app error body, if any. */
export function errorKeyOf(error: unknown): string | null {
  if (!(error instanceof HttpError)) return null;
  const body = asBody(error.body);
  return typeof body.errorKey === 'string' ? body.errorKey : null;
}

/** The server's `detail` (shown after 'Failed to sign in!'), if any. */
export function errorDetailOf(error: unknown): string | null {
  if (!(error instanceof HttpError)) return null;
  const body = asBody(error.body);
  return typeof body.detail === 'string' && body.detail ? body.detail : null;
}
