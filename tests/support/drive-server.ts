/**
 * A local stand-in for Google Drive v3 and its OAuth token endpoint, for tests of the cloud-drive nodes:
 *
 * - `POST /upload/drive/v3/files?uploadType=multipart` parses the multipart/related body (JSON metadata part,
 *   content part) and creates the file in its parents;
 * - `GET /drive/v3/files?q=...` lists files; the query may combine, with `and`, `'<id>' in parents`,
 *   `trashed = false` and `name = '<name>'` (anything else is a 400, so clients cannot rely on more); pages
 *   hold at most `pageSize` files (small, so paging is exercised) with a `nextPageToken`;
 * - `GET /drive/v3/files/<id>?alt=media` answers the content (403 fileNotDownloadable for Google Docs types);
 * - `POST /token` grants a new access token for a known refresh token (grant_type=refresh_token and the
 *   configured client), `invalid_grant` otherwise.
 *
 * Drive calls need `Authorization: Bearer <a token this server issued and did not revoke>`, else 401.
 * Responses honour a simple top-level `fields` list. Every request is recorded; statuses queued in
 * `failures` are answered (with a Google error body) to the next Drive calls, one each.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  content: Buffer;
  modifiedTime: string;
  trashed: boolean;
  appProperties: Record<string, string>;
}

export interface DriveRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

export interface DriveUpload {
  metadata: Record<string, unknown>;
  contentType: string;
  content: Buffer;
  fileId: string;
}

export interface DriveServer {
  /** DRIVE_API_BASE_URL of the workers (`http://127.0.0.1:<port>`). */
  baseUrl: string;
  /** The OAuth client of the workers (`googleOAuth`). */
  oauth: { tokenUrl: string; clientId: string; clientSecret: string };
  files: Map<string, StoredFile>;
  requests: DriveRequest[];
  uploads: DriveUpload[];
  /** Refresh-token grants received (the form of each). */
  tokenRequests: URLSearchParams[];
  /** Statuses answered to the next Drive calls (not token calls), one per call. */
  failures: number[];
  /** Largest page files.list answers. */
  pageSize: number;
  /** A valid access token. */
  issueAccessToken(): string;
  /** A refresh token the token endpoint accepts. */
  issueRefreshToken(): string;
  /** The token is refused from now on (access or refresh). */
  revoke(token: string): void;
  addFile(f: { name: string; parent: string; content?: string | Buffer; mimeType?: string }): StoredFile;
  webViewLink(fileId: string): string;
  close(): Promise<void>;
}

const CLIENT_ID = 'drive-test-client';
const CLIENT_SECRET = 'drive-test-secret';

/** Parses a multipart/related body into its parts (headers lower-cased, raw body bytes). */
export function parseMultipart(
  body: Buffer,
  boundary: string,
): { headers: Record<string, string>; body: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { headers: Record<string, string>; body: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error('no boundary in the body');
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts; // closing delimiter
    if (body.subarray(at, at + 2).toString() !== '\r\n') throw new Error('bad delimiter line');
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), at);
    if (next < 0) throw new Error('unterminated part');
    const part = body.subarray(at + 2, next);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) throw new Error('part without a header block');
    const headers: Record<string, string> = {};
    for (const line of part.subarray(0, split).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    parts.push({ headers, body: Buffer.from(part.subarray(split + 4)) });
    at = next + 2;
  }
}

/** The `q` terms this server understands (joined by `and`), as a predicate; throws on anything else. */
function parseQuery(q: string): (f: StoredFile) => boolean {
  const literal = `'((?:[^'\\\\]|\\\\.)*)'`;
  const unescape = (s: string) => s.replace(/\\(.)/g, '$1');
  const terms: [RegExp, (m: RegExpExecArray) => (f: StoredFile) => boolean][] = [
    [new RegExp(`${literal}\\s+in\\s+parents`, 'y'), (m) => (f) => f.parents.includes(unescape(m[1]))],
    [/trashed\s*=\s*(true|false)/y, (m) => (f) => f.trashed === (m[1] === 'true')],
    [new RegExp(`name\\s*=\\s*${literal}`, 'y'), (m) => (f) => f.name === unescape(m[1])],
  ];
  const tests: ((f: StoredFile) => boolean)[] = [];
  const text = q.trim();
  let at = 0;
  while (at < text.length) {
    let matched = false;
    for (const [re, test] of terms) {
      re.lastIndex = at;
      const m = re.exec(text);
      if (!m) continue;
      tests.push(test(m));
      at = re.lastIndex;
      matched = true;
      break;
    }
    if (!matched) throw new Error(`Unsupported query at: ${text.slice(at)}`);
    const and = /\s+and\s+|\s*$/y;
    and.lastIndex = at;
    const sep = and.exec(text);
    if (!sep || (sep[0] === '' && at < text.length))
      throw new Error(`Unsupported query at: ${text.slice(at)}`);
    at = and.lastIndex;
  }
  return (f) => tests.every((test) => test(f));
}

/** The requested top-level fields of a resource (`files(id,name)` selects inside lists). */
function pick(resource: Record<string, unknown>, fields: string | null): Record<string, unknown> {
  if (!fields) return resource;
  const out: Record<string, unknown> = {};
  for (const f of fields.split(',').map((x) => x.trim())) if (f in resource) out[f] = resource[f];
  return out;
}

export async function startDriveServer(): Promise<DriveServer> {
  const files = new Map<string, StoredFile>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  let seq = 0;
  const nextId = () => `f${++seq}${crypto.randomBytes(4).toString('hex')}`;
  let baseUrl = '';

  const webViewLink = (id: string) => `https://drive.example/file/d/${id}/view`;
  const resourceOf = (f: StoredFile): Record<string, unknown> => ({
    kind: 'drive#file',
    id: f.id,
    name: f.name,
    mimeType: f.mimeType,
    parents: f.parents,
    ...(f.mimeType.startsWith('application/vnd.google-apps.') ? {} : { size: String(f.content.length) }),
    modifiedTime: f.modifiedTime,
    webViewLink: webViewLink(f.id),
    appProperties: f.appProperties,
  });
  const create = (f: Omit<StoredFile, 'id' | 'modifiedTime' | 'trashed'>): StoredFile => {
    const file: StoredFile = { ...f, id: nextId(), modifiedTime: new Date().toISOString(), trashed: false };
    files.set(file.id, file);
    return file;
  };

  const state: Omit<DriveServer, 'baseUrl' | 'oauth' | 'close'> = {
    files,
    requests: [],
    uploads: [],
    tokenRequests: [],
    failures: [],
    pageSize: 2,
    issueAccessToken() {
      const t = `access-${crypto.randomBytes(8).toString('hex')}`;
      accessTokens.add(t);
      return t;
    },
    issueRefreshToken() {
      const t = `refresh-${crypto.randomBytes(8).toString('hex')}`;
      refreshTokens.add(t);
      return t;
    },
    revoke(token) {
      accessTokens.delete(token);
      refreshTokens.delete(token);
    },
    addFile({ name, parent, content = '', mimeType = 'text/plain' }) {
      return create({
        name,
        parents: [parent],
        mimeType,
        content: Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8'),
        appProperties: {},
      });
    },
    webViewLink,
  };

  function token(req: http.IncomingMessage, form: URLSearchParams) {
    state.tokenRequests.push(form);
    const ok =
      form.get('grant_type') === 'refresh_token' &&
      form.get('client_id') === CLIENT_ID &&
      form.get('client_secret') === CLIENT_SECRET &&
      refreshTokens.has(form.get('refresh_token') ?? '');
    if (req.method !== 'POST' || !ok)
      return { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been revoked.' } };
    return {
      status: 200,
      body: { access_token: state.issueAccessToken(), expires_in: 3599, token_type: 'Bearer' },
    };
  }

  function drive(req: http.IncomingMessage, url: URL, raw: Buffer): { status: number; body: unknown } {
    const error = (status: number, message: string, reason = 'badRequest') => ({
      status,
      body: { error: { code: status, message, errors: [{ reason, message }] } },
    });
    const auth = req.headers.authorization ?? '';
    const bearer = /^Bearer (.+)$/.exec(auth)?.[1];
    if (!bearer || !accessTokens.has(bearer))
      return error(401, 'Request had invalid authentication credentials.', 'authError');
    const failure = state.failures.shift();
    if (failure !== undefined) return error(failure, `Injected HTTP ${failure}`, 'backendError');
    const fields = url.searchParams.get('fields');

    if (req.method === 'POST' && url.pathname === '/upload/drive/v3/files') {
      if (url.searchParams.get('uploadType') !== 'multipart') return error(400, 'Only multipart uploads');
      const boundary = /boundary="?([^";]+)"?/.exec(req.headers['content-type'] ?? '')?.[1];
      if (!/^multipart\/related/.test(req.headers['content-type'] ?? '') || !boundary)
        return error(400, 'Expected a multipart/related body');
      let parts;
      try {
        parts = parseMultipart(raw, boundary);
      } catch (err) {
        return error(400, `Bad multipart body: ${(err as Error).message}`);
      }
      if (parts.length !== 2 || !/^application\/json/.test(parts[0].headers['content-type'] ?? ''))
        return error(400, 'Expected a JSON metadata part and a content part');
      const metadata = JSON.parse(parts[0].body.toString('utf8')) as Record<string, unknown>;
      const contentType = parts[1].headers['content-type'] ?? 'application/octet-stream';
      const parents = (metadata.parents as string[] | undefined) ?? ['root'];
      const file = create({
        name: String(metadata.name ?? 'Untitled'),
        parents,
        mimeType: String(metadata.mimeType ?? contentType),
        content: parts[1].body,
        appProperties: (metadata.appProperties as Record<string, string>) ?? {},
      });
      state.uploads.push({ metadata, contentType, content: parts[1].body, fileId: file.id });
      return { status: 200, body: pick(resourceOf(file), fields) };
    }

    if (req.method === 'GET' && url.pathname === '/drive/v3/files') {
      let matches: (f: StoredFile) => boolean;
      try {
        matches = parseQuery(url.searchParams.get('q') ?? '');
      } catch (err) {
        return error(400, (err as Error).message, 'invalid');
      }
      const all = [...files.values()].filter(matches);
      const offset = Number(url.searchParams.get('pageToken') ?? 0);
      const size = Math.min(Number(url.searchParams.get('pageSize') ?? 100), state.pageSize);
      const page = all.slice(offset, offset + size);
      const inner = /files\(([^)]*)\)/.exec(fields ?? '')?.[1] ?? null;
      return {
        status: 200,
        body: {
          ...(offset + size < all.length ? { nextPageToken: String(offset + size) } : {}),
          files: page.map((f) => pick(resourceOf(f), inner)),
        },
      };
    }

    const one = /^\/drive\/v3\/files\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const file = files.get(decodeURIComponent(one[1]));
      if (!file) return error(404, `File not found: ${one[1]}.`, 'notFound');
      if (url.searchParams.get('alt') !== 'media')
        return { status: 200, body: pick(resourceOf(file), fields) };
      if (file.mimeType.startsWith('application/vnd.google-apps.'))
        return error(403, 'Only files with binary content can be downloaded.', 'fileNotDownloadable');
      return { status: 200, body: file.content };
    }
    return error(404, `No route ${req.method} ${url.pathname}`, 'notFound');
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', baseUrl);
      let answer: { status: number; body: unknown };
      if (url.pathname === '/token') {
        answer = token(req, new URLSearchParams(raw.toString('utf8')));
      } else {
        state.requests.push({
          method: req.method ?? '',
          path: url.pathname,
          query: url.searchParams,
          authorization: req.headers.authorization,
        });
        answer = drive(req, url, raw);
      }
      if (Buffer.isBuffer(answer.body)) {
        res.writeHead(answer.status, { 'Content-Type': 'application/octet-stream' });
        res.end(answer.body);
      } else {
        res.writeHead(answer.status, { 'Content-Type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(answer.body));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    baseUrl,
    oauth: { tokenUrl: `${baseUrl}/token`, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
