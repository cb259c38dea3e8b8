/**
 * The one HTTP client of the web app: fetch with a 60000 ms timeout, the bearer token from local or session
 * storage, JSON in and out. Failures throw HttpError (a response arrived, or status 0 when the server could
 * not be reached) or RequestError (no response, e.g. timeout). Cross-cutting reactions (error toasts,
 * success alerts, clearing the session on 401) are plugged in once with configureClient().
 */
import { AUTH_TOKEN_KEY, REQUEST_TIMEOUT_MS, basePath } from '../config';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RequestOptions {
  method?: HttpMethod;
  /** JSON body (serialised with JSON.stringify). */
  body?: unknown;
  /** Plain-text body (sent as text/plain), e.g. the e-mail of the password reset request. */
  text?: string;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Do not show an error toast for this call (the caller shows its own message). */
  silent?: boolean;
  /** A successful answer's body as a Blob, unparsed (downloads); error bodies are parsed as usual. */
  blob?: boolean;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** A response arrived with a non-2xx status, or (status 0) the server could not be reached. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
  readonly url: string;
  readonly method: HttpMethod;

  constructor(status: number, body: unknown, headers: Headers, url: string, method: HttpMethod) {
    super(`HTTP ${status} on ${method} ${url}`);
    this.name = 'HttpError';
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.url = url;
    this.method = method;
  }
}

/** No response at all (timeout); `message` says why. */
export class RequestError extends Error {
  readonly url: string;
  readonly method: HttpMethod;

  constructor(message: string, url: string, method: HttpMethod) {
    super(message);
    this.name = 'RequestError';
    this.url = url;
    this.method = method;
  }
}

export const isHttpError = (e: unknown): e is HttpError => e instanceof HttpError;

// --- token storage ---

export function getAuthToken(): string | null {
  return localStorage.getItem(AUTH_TOKEN_KEY) ?? sessionStorage.getItem(AUTH_TOKEN_KEY);
}

export function storeAuthToken(token: string, rememberMe: boolean): void {
  clearAuthToken();
  (rememberMe ? localStorage : sessionStorage).setItem(AUTH_TOKEN_KEY, token);
}

/** A token re-issued for the current session (password change): kept where the old one was. */
export function replaceAuthToken(token: string): void {
  storeAuthToken(token, localStorage.getItem(AUTH_TOKEN_KEY) !== null);
}

export function clearAuthToken(): void {
  localStorage.removeItem(AUTH_TOKEN_KEY);
  sessionStorage.removeItem(AUTH_TOKEN_KEY);
}

// --- hooks ---

export interface RequestContext {
  url: string;
  method: HttpMethod;
  silent: boolean;
}

export interface ClientHooks {
  onError?: (error: HttpError | RequestError, ctx: RequestContext) => void;
  onSuccess?: (response: ApiResponse<unknown>, ctx: RequestContext) => void;
  /** Called after a 401 cleared the stored token. */
  onAuthCleared?: () => void;
}

let hooks: ClientHooks = {};

export function configureClient(next: ClientHooks): void {
  hooks = next;
}

// --- request ---

export function buildUrl(path: string, query?: RequestOptions['query']): string {
  const clean = path.replace(/^\/+/, '');
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null) params.append(k, String(v));
  }
  const qs = params.toString();
  return `${basePath()}${clean}${qs ? `?${qs}` : ''}`;
}

async function parseBody(res: Response): Promise<unknown> {
  if (res.status === 204) return null;
  const text = await res.text();
  if (!text) return null;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const method = options.method ?? 'GET';
  const url = buildUrl(path, options.query);
  const ctx: RequestContext = { url, method, silent: options.silent ?? false };
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;

  const headers: Record<string, string> = { Accept: 'application/json, text/plain, */*', ...options.headers };
  let body: BodyInit | undefined;
  if (options.text !== undefined) {
    headers['Content-Type'] = 'text/plain';
    body = options.text;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const token = getAuthToken();
  if (token) headers.Authorization = `Bearer ${token}`;

  const controller = new AbortController();
  let timedOut = false;
  const timer = window.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort);

  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, signal: controller.signal });
  } catch (cause) {
    window.clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
    if (timedOut) {
      const err = new RequestError(`timeout of ${timeoutMs}ms exceeded`, url, method);
      hooks.onError?.(err, ctx);
      throw err;
    }
    if (options.signal?.aborted) throw cause; // cancelled by the caller (e.g. react-query): no toast
    const err = new HttpError(0, null, new Headers(), url, method);
    hooks.onError?.(err, ctx);
    throw err;
  }

  let data: unknown;
  try {
    data = options.blob && res.ok ? await res.blob() : await parseBody(res);
  } finally {
    window.clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }

  if (!res.ok) {
    const err = new HttpError(res.status, data, res.headers, url, method);
    // 401 only: the token is missing, expired or revoked. A 403 is a signed-in user refused one thing (a
    // route of a higher access mode): the session stays.
    if (res.status === 401) {
      clearAuthToken();
      hooks.onAuthCleared?.();
    }
    hooks.onError?.(err, ctx);
    throw err;
  }

  const response: ApiResponse<T> = { data: data as T, status: res.status, headers: res.headers };
  hooks.onSuccess?.(response, ctx);
  return response;
}

type Opts = Omit<RequestOptions, 'method' | 'body'>;

/** Shorthands returning the response body. */
export const http = {
  get: <T>(path: string, opts?: Opts) => request<T>(path, { ...opts, method: 'GET' }).then((r) => r.data),
  post: <T>(path: string, body?: unknown, opts?: Opts) =>
    request<T>(path, { ...opts, method: 'POST', body }).then((r) => r.data),
  put: <T>(path: string, body?: unknown, opts?: Opts) =>
    request<T>(path, { ...opts, method: 'PUT', body }).then((r) => r.data),
  delete: <T = void>(path: string, opts?: Opts & { body?: unknown }) =>
    request<T>(path, { ...opts, method: 'DELETE' }).then((r) => r.data),
};

// --- multipart upload with progress ---

export interface UploadOptions {
  /** Called with the bytes sent and the total while the body goes out. */
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Do not show an error toast (the caller lists the failure itself). */
  silent?: boolean;
}

/**
 * POSTs form data with XMLHttpRequest (fetch reports no upload progress), with the same bearer token,
 * timeout, error types and hooks as `request`: resolves with the parsed body of a 2xx answer, else throws
 * HttpError (status 0 when the server could not be reached) or RequestError (timeout).
 */
export function uploadForm<T>(path: string, form: FormData, options: UploadOptions = {}): Promise<T> {
  const method: HttpMethod = 'POST';
  const url = buildUrl(path);
  const ctx: RequestContext = { url, method, silent: options.silent ?? false };
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.timeout = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    xhr.setRequestHeader('Accept', 'application/json, text/plain, */*');
    const token = getAuthToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    const fail = (err: HttpError | RequestError) => {
      hooks.onError?.(err, ctx);
      reject(err);
    };
    const headersOf = () => {
      const h = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) h.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      return h;
    };
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded, e.total);
    };
    xhr.onload = () => {
      options.signal?.removeEventListener('abort', onAbort);
      const headers = headersOf();
      let data: unknown = xhr.responseText || null;
      if ((headers.get('content-type') ?? '').includes('json') && xhr.responseText) {
        try {
          data = JSON.parse(xhr.responseText) as unknown;
        } catch {
          /* keep the text */
        }
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        hooks.onSuccess?.({ data, status: xhr.status, headers }, ctx);
        resolve(data as T);
        return;
      }
      if (xhr.status === 401) {
        clearAuthToken();
        hooks.onAuthCleared?.();
      }
      fail(new HttpError(xhr.status, data, headers, url, method));
    };
    xhr.onerror = () => {
      options.signal?.removeEventListener('abort', onAbort);
      fail(new HttpError(0, null, new Headers(), url, method));
    };
    xhr.ontimeout = () => {
      options.signal?.removeEventListener('abort', onAbort);
      fail(new RequestError(`timeout of ${xhr.timeout}ms exceeded`, url, method));
    };
    xhr.onabort = () => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    xhr.send(form);
  });
}
