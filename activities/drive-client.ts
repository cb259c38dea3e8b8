/**
 * A small Drive v3 client over fetch for the cloud-drive nodes (send-to-drive action, drive upload poller),
 * bound to one row of `drive_connections`. The API base URL and the OAuth client are deployment
 * configuration (DRIVE_API_BASE_URL, GOOGLE_OAUTH_*), so the net guard does not apply.
 *
 * Tokens: the stored access token is used until it expires (a minute early); then, or when the API answers
 * 401, it is refreshed with the refresh token at the token endpoint and the new token and expiry are stored.
 * Tokens are stored sealed (db/crypto.ts): opened when first needed, sealed again when refreshed.
 * Every call has a 30 s budget. Failures are DriveErrors: `permanent` ones (4xx, a refused refresh) need a
 * person; the others (5xx, rate limits, network errors, timeouts) may succeed when tried again.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { saveDriveTokens, type DriveConnectionRow } from '../db/queries/drive-connections';
import { openRow, UnreadableCredential } from '../db/crypto';

export const DRIVE_TIMEOUT_MS = 30_000;
export const DEFAULT_DRIVE_API_BASE_URL = 'https://www.googleapis.com';
/** Refresh this long before the stored expiry, so a token does not expire in flight. */
const EXPIRY_MARGIN_MS = 60_000;
const LIST_PAGE_SIZE = 1000;
const GOOGLE_APPS_MIME = 'application/vnd.google-apps.';
export const FOLDER_MIME = 'application/vnd.google-apps.folder';

export type { DriveConnectionRow };

export interface DriveClientConfig {
  knex: Knex;
  /** DRIVE_API_BASE_URL; Google's when absent. */
  baseUrl?: string;
  /** The OAuth client and its token endpoint, to refresh access tokens. */
  oauth?: { tokenUrl: string; clientId: string; clientSecret: string };
}

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  /** Bytes; absent for Google Docs types, which have no stored content. */
  size: number | null;
  modifiedTime: string;
  webViewLink: string | null;
  appProperties: Record<string, string>;
}

export class DriveError extends Error {
  constructor(
    message: string,
    /** True when trying again cannot help (bad request, missing file or folder, refused sign-in). */
    readonly permanent: boolean,
    readonly status: number | null = null,
    /** The connection's sign-in is at fault (no token, refresh refused): no call of it can succeed. */
    readonly signIn = false,
  ) {
    super(message);
    this.name = 'DriveError';
  }
}

/** Google Docs, Sheets, folders...: listed but without downloadable content. */
export const isGoogleAppsType = (mimeType: string) => mimeType.startsWith(GOOGLE_APPS_MIME);

/** A string literal of the files.list query language (`'...'` with `\` and `'` escaped). */
export const queryLiteral = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The connection can be used by a node: signed in, with a token to use or to get. */
export const isUsable = (c: DriveConnectionRow) => c.authorized && Boolean(c.access_token || c.refresh_token);

/** Google's error body `{error: {message, errors: [{reason}]}}` (or the OAuth `{error, error_description}`). */
function errorOf(body: unknown): { message: string; reason: string } {
  const e = (body as { error?: unknown })?.error;
  if (typeof e === 'string') {
    const d = (body as { error_description?: unknown }).error_description;
    return { message: typeof d === 'string' ? `${e}: ${d}` : e, reason: e };
  }
  const obj = (e ?? {}) as { message?: unknown; errors?: { reason?: unknown }[] };
  return {
    message: typeof obj.message === 'string' ? obj.message : '',
    reason: typeof obj.errors?.[0]?.reason === 'string' ? obj.errors[0].reason : '',
  };
}

/** 429 and Google's rate-limit 403s pass with time, as 5xx do. */
const retryableStatus = (status: number, reason: string) =>
  status >= 500 || status === 429 || /rateLimitExceeded/i.test(reason);

async function failureOf(res: Response, what: string): Promise<DriveError> {
  const { message, reason } = errorOf(await res.json().catch(() => null));
  const detail = message ? `HTTP ${res.status}: ${message}` : `HTTP ${res.status}`;
  return new DriveError(`${what} failed (${detail})`, !retryableStatus(res.status, reason), res.status);
}

async function send(url: string, init: RequestInit, what: string): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(DRIVE_TIMEOUT_MS) });
  } catch (err) {
    const e = err as Error;
    const why = e.name === 'TimeoutError' ? `no answer within ${DRIVE_TIMEOUT_MS / 1000} s` : e.message;
    throw new DriveError(`${what} failed (${why})`, false);
  }
}

/** A multipart/related body: the JSON metadata part, then the content part (Drive's multipart upload). */
export function multipartBody(
  metadata: Record<string, unknown>,
  mimeType: string,
  content: Uint8Array,
): { boundary: string; body: Buffer } {
  const boundary = `drive-${crypto.randomUUID()}`;
  const head =
    `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(metadata)}\r\n` +
    `--${boundary}\r\nContent-Type: ${mimeType}\r\n\r\n`;
  return {
    boundary,
    body: Buffer.concat([Buffer.from(head, 'utf8'), content, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]),
  };
}

export interface DriveClient {
  /** Creates a file in the folder; `appProperties` are private to this application. */
  uploadMultipart(
    folderId: string,
    name: string,
    mimeType: string,
    bytes: Uint8Array,
    appProperties?: Record<string, string>,
  ): Promise<{ id: string; webViewLink: string | null }>;
  /** The folder's files that are not in the trash (every page), optionally only those of one name. */
  listFolder(folderId: string, opts?: { name?: string }): Promise<DriveFile[]>;
  /** A file's content; Google Docs types have none (a permanent DriveError). */
  download(file: Pick<DriveFile, 'id' | 'name' | 'mimeType'>): Promise<Uint8Array>;
}

export function createDriveClient(config: DriveClientConfig, connection: DriveConnectionRow): DriveClient {
  const base = (config.baseUrl || DEFAULT_DRIVE_API_BASE_URL).replace(/\/+$/, '');
  const conn = { ...connection };
  const label = `the cloud-drive connection "${conn.name}"`;
  let opened = false;

  /** Opens the stored tokens once; an unreadable one needs a new sign-in, like a refused one. */
  function openTokens(): void {
    if (opened) return;
    try {
      Object.assign(
        conn,
        openRow('drive_connections', { access_token: conn.access_token, refresh_token: conn.refresh_token }),
      );
    } catch (err) {
      if (!(err instanceof UnreadableCredential)) throw err;
      throw new DriveError(`${err.message} Sign in again in the node's settings.`, true, null, true);
    }
    opened = true;
  }

  async function refresh(): Promise<string> {
    openTokens();
    const oauth = config.oauth;
    if (!conn.refresh_token)
      throw new DriveError(
        `The access of ${label} expired: sign in again in the node's settings`,
        true,
        null,
        true,
      );
    if (!oauth?.tokenUrl)
      throw new DriveError('No OAuth token endpoint is configured (GOOGLE_OAUTH_*)', true, null, true);
    const res = await send(
      oauth.tokenUrl,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: conn.refresh_token,
          client_id: oauth.clientId,
          client_secret: oauth.clientSecret,
        }),
      },
      `Refreshing the access of ${label}`,
    );
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok || typeof body.access_token !== 'string') {
      const { reason } = errorOf(body);
      if (res.status >= 500 || res.status === 429)
        throw new DriveError(
          `Refreshing the access of ${label} failed (HTTP ${res.status})`,
          false,
          res.status,
        );
      throw new DriveError(
        `The sign-in of ${label} was refused (${reason || `HTTP ${res.status}`}): sign in again in the node's settings`,
        true,
        res.status,
        true,
      );
    }
    const expiresIn = Number(body.expires_in);
    conn.access_token = body.access_token;
    conn.token_expiry = Number.isFinite(expiresIn) ? new Date(Date.now() + expiresIn * 1000) : null;
    if (typeof body.refresh_token === 'string') conn.refresh_token = body.refresh_token;
    await saveDriveTokens(config.knex, conn.id, {
      accessToken: conn.access_token,
      refreshToken: conn.refresh_token,
      tokenExpiry: conn.token_expiry,
    });
    return conn.access_token;
  }

  async function token(): Promise<string> {
    openTokens();
    const expiry = conn.token_expiry ? new Date(conn.token_expiry).getTime() : null;
    const fresh = expiry === null || expiry - EXPIRY_MARGIN_MS > Date.now();
    return conn.access_token && fresh ? conn.access_token : refresh();
  }

  /** One API call with the access token; a 401 refreshes the token and tries once more. */
  async function call(url: string, init: RequestInit, what: string): Promise<Response> {
    let res = await send(url, withToken(init, await token()), what);
    if (res.status === 401) {
      await res.body?.cancel();
      res = await send(url, withToken(init, await refresh()), what);
    }
    if (!res.ok) throw await failureOf(res, what);
    return res;
  }

  return {
    async uploadMultipart(folderId, name, mimeType, bytes, appProperties) {
      const metadata = { name, parents: [folderId], mimeType, ...(appProperties ? { appProperties } : {}) };
      const { boundary, body } = multipartBody(metadata, mimeType, bytes);
      const res = await call(
        `${base}/upload/drive/v3/files?uploadType=multipart&supportsAllDrives=true&fields=id,name,webViewLink`,
        { method: 'POST', headers: { 'Content-Type': `multipart/related; boundary=${boundary}` }, body },
        `Uploading ${name} to the folder ${folderId}`,
      );
      const created = (await res.json()) as { id?: unknown; webViewLink?: unknown };
      if (typeof created.id !== 'string')
        throw new DriveError(`Uploading ${name} returned no file id`, false, res.status);
      return {
        id: created.id,
        webViewLink: typeof created.webViewLink === 'string' ? created.webViewLink : null,
      };
    },

    async listFolder(folderId, opts = {}) {
      const terms = [`${queryLiteral(folderId)} in parents`, 'trashed = false'];
      if (opts.name !== undefined) terms.push(`name = ${queryLiteral(opts.name)}`);
      const files: DriveFile[] = [];
      let pageToken: string | undefined;
      do {
        const params = new URLSearchParams({
          q: terms.join(' and '),
          fields: 'nextPageToken,files(id,name,mimeType,size,modifiedTime,webViewLink,appProperties)',
          pageSize: String(LIST_PAGE_SIZE),
          supportsAllDrives: 'true',
          includeItemsFromAllDrives: 'true',
        });
        if (pageToken) params.set('pageToken', pageToken);
        const res = await call(
          `${base}/drive/v3/files?${params}`,
          { method: 'GET' },
          `Listing the folder ${folderId}`,
        );
        const page = (await res.json()) as { nextPageToken?: string; files?: Record<string, unknown>[] };
        for (const f of page.files ?? []) files.push(toFile(f));
        pageToken = page.nextPageToken || undefined;
      } while (pageToken);
      return files;
    },

    async download(file) {
      if (isGoogleAppsType(file.mimeType))
        throw new DriveError(
          `${file.name} is a Google Docs file (${file.mimeType}) and cannot be downloaded as it is`,
          true,
        );
      const res = await call(
        `${base}/drive/v3/files/${encodeURIComponent(file.id)}?alt=media&supportsAllDrives=true`,
        { method: 'GET' },
        `Downloading ${file.name}`,
      );
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}

function withToken(init: RequestInit, accessToken: string): RequestInit {
  return {
    ...init,
    headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${accessToken}` },
  };
}

function toFile(f: Record<string, unknown>): DriveFile {
  const size = Number(f.size);
  return {
    id: String(f.id),
    name: String(f.name ?? f.id),
    mimeType: String(f.mimeType ?? 'application/octet-stream'),
    size: f.size === undefined || !Number.isFinite(size) ? null : size,
    modifiedTime: String(f.modifiedTime ?? ''),
    webViewLink: typeof f.webViewLink === 'string' ? f.webViewLink : null,
    appProperties: (f.appProperties ?? {}) as Record<string, string>,
  };
}
