/**
 * The bad-input corpus (issue 9): hundreds of malformed requests sent to the app as a user runs it (the API
 * and the worker that scripts/test.ts spawns as separate processes, on the run's PostgreSQL and Temporal),
 * signed in as an administrator (of its own: other suites sign the seeded admin in and out, and a logout ends
 * every session of its user) so that every request gets past the access checks to the parsing and
 * validation behind them. Truncated multipart, malformed and deeply nested JSON, wrong types, huge strings,
 * NUL and lone surrogates, out-of-range ids, wrong content types, a zip bomb, path-traversal names.
 *
 * Promise checked: no answer is a 5xx, no answer quotes SQL, and afterwards the API is healthy (database and
 * Temporal up) and the worker still carries a new document through its graph.
 */
import net from 'node:net';
import knexFactory from 'knex';
import { buildUser } from '../support/harness';
import { docxBomb } from '../support/zip';
import { api, BASE_URL, createProcess } from './support';

interface Case {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send as a raw socket write (for bodies cut off mid-stream); the answer may be a closed connection. */
  raw?: boolean;
}

const LONG = 'x'.repeat(1024 * 1024);
const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

function multipart(parts: { name: string; filename?: string; type?: string; data: string | Buffer }[]) {
  const boundary = '----corpus7MA4YWxkTrZu0gW';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename
      ? `form-data; name="${p.name}"; filename="${p.filename}"`
      : `form-data; name="${p.name}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n` +
          (p.type ? `Content-Type: ${p.type}\r\n` : '') +
          '\r\n',
      ),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

interface World {
  processId: number;
  uploadNodeId: number;
  clfNodeId: number;
  spanNodeId: number;
  documentId: number;
}

/** JSON routes with a body that is roughly valid, so that each mutation reaches the rules behind it. */
function jsonRoutes(w: World): { method: string; path: string; base: unknown }[] {
  return [
    {
      method: 'POST',
      path: '/api/processes',
      base: { name: 'corpus', isRagEnabled: false, processTags: [] },
    },
    { method: 'POST', path: '/api/process-tags', base: { name: 'corpus', color: '#123456' } },
    { method: 'PUT', path: '/api/process-tags', base: { id: 1, name: 'corpus', color: '#123456' } },
    { method: 'POST', path: '/api/secrets', base: { name: 'corpus', value: 'v', processId: w.processId } },
    {
      method: 'POST',
      path: '/api/nodes',
      base: { processId: w.processId, name: 'corpus', activityType: 'CLF', description: 'd' },
    },
    { method: 'PUT', path: '/api/nodes', base: { id: w.clfNodeId, processId: w.processId, name: 'c' } },
    { method: 'PUT', path: '/api/nodes/coordinates', base: [{ id: w.clfNodeId, x: 1, y: 2 }] },
    { method: 'POST', path: '/api/nodes/fetch-by-ids', base: [w.clfNodeId] },
    { method: 'POST', path: '/api/edges', base: { fromId: w.uploadNodeId, toId: w.clfNodeId } },
    { method: 'POST', path: '/api/predicates', base: { edgeId: 1, expression: 'x' } },
    {
      method: 'POST',
      path: `/api/node/${w.clfNodeId}/classifier-types`,
      base: { name: 'corpus', color: '#112233', description: 'd' },
    },
    {
      method: 'POST',
      path: `/api/node/${w.spanNodeId}/ner-tag-type`,
      base: { name: 'corpus', backgroundColor: '#111111', textColor: '#ffffff' },
    },
    {
      method: 'POST',
      path: `/api/node/${w.spanNodeId}/ner-tag-type/import`,
      base: [{ name: 'corpus', backgroundColor: '#111111', textColor: '#ffffff', children: [] }],
    },
    {
      method: 'POST',
      path: '/api/matching-rules/batch',
      base: { nodeId: w.spanNodeId, rules: [{ type: 'REGEX', expression: 'a+' }] },
    },
    {
      method: 'POST',
      path: '/api/ner-tag-relation-types',
      base: { nodeId: w.spanNodeId, name: 'corpus', color: '#000000' },
    },
    { method: 'POST', path: '/api/llm-models', base: { name: 'corpus', modalities: ['text'] } },
    {
      method: 'POST',
      path: '/api/sftp-connection-data',
      base: {
        processId: w.processId,
        name: 'c',
        host: 'example.test',
        port: 22,
        username: 'u',
        password: 'p',
      },
    },
    {
      method: 'POST',
      path: '/api/email-upload-connection-data',
      base: { nodeId: w.uploadNodeId, host: 'example.test', port: 993, username: 'u', password: 'p' },
    },
    { method: 'PUT', path: '/api/steps', base: { id: 1, master: true } },
    {
      method: 'PUT',
      path: '/api/documents',
      base: {
        id: w.documentId,
        filename: 'a.txt',
        path: 'p',
        documentType: 'TEXTFILE',
        processId: w.processId,
      },
    },
    { method: 'PUT', path: '/api/document-content', base: { id: w.documentId, content: 'text' } },
    {
      method: 'POST',
      path: '/api/account',
      base: { firstName: 'a', lastName: 'b', email: 'admin@localhost' },
    },
    {
      method: 'POST',
      path: '/api/register',
      base: { login: 'corpus', email: 'c@example.test', password: 'p' },
    },
    { method: 'POST', path: '/api/account/reset-password/init', base: 'nobody@example.test' },
    { method: 'POST', path: '/api/account/reset-password/finish', base: { key: 'k', newPassword: 'p' } },
    { method: 'PUT', path: `/api/processes/${w.processId}/process-tags`, base: [{ id: 1 }] },
  ];
}

/** Each top-level field (or the whole body) replaced by a hostile value. */
function mutations(base: unknown): { name: string; body: unknown }[] {
  const hostile: [string, unknown][] = [
    ['NUL', NUL],
    ['lone surrogate', LONE],
    ['1 MiB string', LONG],
    ['huge number', 1e308],
    ['negative id', -1],
    ['int4 overflow', 2147483648],
    ['array', [1, 'a', null]],
    ['object', { $gt: '' }],
    ['null', null],
  ];
  const out: { name: string; body: unknown }[] = [];
  if (base && typeof base === 'object' && !Array.isArray(base)) {
    const fields = Object.keys(base);
    for (const [hn, hv] of hostile) {
      // every field at once (one request per hostile value keeps the corpus in the hundreds, not thousands)
      out.push({ name: `all fields ${hn}`, body: Object.fromEntries(fields.map((f) => [f, hv])) });
    }
    for (const f of fields) {
      out.push({ name: `${f} NUL`, body: { ...base, [f]: NUL } });
      out.push({ name: `${f} 1 MiB`, body: { ...base, [f]: LONG } });
    }
  } else if (Array.isArray(base)) {
    for (const [hn, hv] of hostile) out.push({ name: `element ${hn}`, body: [hv] });
  } else {
    for (const [hn, hv] of hostile) out.push({ name: `body ${hn}`, body: hv });
  }
  return out;
}

function corpus(w: World): Case[] {
  const cases: Case[] = [];
  const json = (c: Omit<Case, 'headers'> & { type?: string }) =>
    cases.push({ ...c, headers: { 'Content-Type': c.type ?? 'application/json' } });

  for (const r of jsonRoutes(w)) {
    const label = `${r.method} ${r.path}`;
    for (const [n, body] of [
      ['truncated JSON', '{"name": "x'],
      ['trailing garbage', '{"name": "x"} garbage'],
      ['bare word', 'nul'],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ['nested arrays 5,000 deep', nested(5000)],
      ['nested objects 5,000 deep', nestedObject(5000)],
      ['3 MiB body', JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) })],
      ['empty body', ''],
    ] as [string, string | Buffer][]) {
      json({ name: `${label}: ${n}`, method: r.method, path: r.path, body });
    }
    json({ name: `${label}: XML`, method: r.method, path: r.path, body: '<a/>', type: 'application/xml' });
    json({
      name: `${label}: form`,
      method: r.method,
      path: r.path,
      body: 'a=b',
      type: 'application/x-www-form-urlencoded',
    });
    for (const m of mutations(r.base))
      json({ name: `${label}: ${m.name}`, method: r.method, path: r.path, body: JSON.stringify(m.body) });
  }

  // Out-of-range and malformed ids in paths and queries.
  for (const id of [
    '2147483648',
    '-1',
    '1e309',
    '99999999999999999999',
    'abc',
    '0x10',
    '1.5',
    '%00',
    '%F0',
  ]) {
    for (const p of [
      `/api/processes/${id}`,
      `/api/nodes/${id}`,
      `/api/documents/${id}`,
      `/api/documents/${w.documentId}/images/${id}`,
      `/api/documents/${id}/images/length`,
      `/api/steps/${id}`,
      `/api/v2/document/${id}/state`,
      `/api/v2/document/${id}/history`,
      `/api/asr-documents/${id}/audio`,
      `/api/edges?processId=${id}`,
      `/api/nodes?processId=${id}`,
      `/api/llm-chat-responses?documentId=${id}`,
      `/api/action-execution-results?nodeId=${id}`,
      `/api/classifier-types/${id}`,
    ])
      cases.push({ name: `GET ${p}`, method: 'GET', path: p });
    cases.push({ name: `DELETE /api/nodes/${id}`, method: 'DELETE', path: `/api/nodes/${id}` });
    cases.push({ name: `PUT /api/steps/${id}/complete`, method: 'PUT', path: `/api/steps/${id}/complete` });
  }

  // Uploads: truncated, malformed and hostile multipart bodies.
  const txt = multipart([
    { name: 'nodeId', data: String(w.uploadNodeId) },
    { name: 'file', filename: 'a.txt', type: 'text/plain', data: 'hello world '.repeat(1000) },
  ]);
  for (const cut of [10, 60, 120, 200, txt.body.length - 30, txt.body.length - 5]) {
    for (const path of ['/api/file-upload', '/api/upload/nothing-here']) {
      cases.push({
        name: `${path}: multipart cut at ${cut}`,
        method: 'POST',
        path,
        headers: { 'Content-Type': txt.type },
        body: txt.body.subarray(0, cut),
      });
    }
  }
  cases.push({
    name: 'file-upload: body cut off mid-stream (connection closed)',
    method: 'POST',
    path: '/api/file-upload',
    headers: { 'Content-Type': txt.type, 'Content-Length': String(txt.body.length) },
    body: txt.body.subarray(0, txt.body.length - 100),
    raw: true,
  });
  for (const [n, type] of [
    ['no boundary', 'multipart/form-data'],
    ['wrong boundary', 'multipart/form-data; boundary=nope'],
    ['JSON content type', 'application/json'],
    ['no content type', ''],
  ]) {
    cases.push({
      name: `file-upload: ${n}`,
      method: 'POST',
      path: '/api/file-upload',
      headers: type ? { 'Content-Type': type } : {},
      body: txt.body,
    });
  }
  for (const filename of [
    '../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '/etc/passwd',
    'a\u0000.txt',
    'a\ud800.txt',
    '.'.repeat(300) + '.txt',
    'x'.repeat(10000) + '.txt',
    'CON.txt',
    '',
  ]) {
    const m = multipart([
      { name: 'nodeId', data: String(w.uploadNodeId) },
      { name: 'file', filename, type: 'text/plain', data: 'hello' },
    ]);
    cases.push({
      name: `file-upload: filename ${JSON.stringify(filename.slice(0, 20))}`,
      method: 'POST',
      path: '/api/file-upload',
      headers: { 'Content-Type': m.type },
      body: m.body,
    });
  }
  for (const nodeId of ['abc', '2147483648', '-1', String(w.clfNodeId), '']) {
    const m = multipart([
      { name: 'nodeId', data: nodeId },
      { name: 'file', filename: 'a.txt', type: 'text/plain', data: 'hello' },
    ]);
    cases.push({
      name: `file-upload: nodeId ${nodeId}`,
      method: 'POST',
      path: '/api/file-upload',
      headers: { 'Content-Type': m.type },
      body: m.body,
    });
  }
  const bomb = multipart([
    { name: 'nodeId', data: String(w.uploadNodeId) },
    {
      name: 'file',
      filename: 'bomb.docx',
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      data: docxBomb(50 * 1024 * 1024),
    },
  ]);
  cases.push({
    name: 'file-upload: zip bomb docx',
    method: 'POST',
    path: '/api/file-upload',
    headers: { 'Content-Type': bomb.type },
    body: bomb.body,
  });

  // Path traversal in static, i18n and media paths.
  for (const p of [
    '/i18n/../../package.json',
    '/i18n/%2e%2e%2f%2e%2e%2fpackage.json',
    '/i18n/..%2f..%2fapi%2fconfig.ts',
    '/%2e%2e/%2e%2e/package.json',
    '/..%2f..%2f.data/keys/jwt-secret',
    '/assets/..%2f..%2f..%2fpackage.json',
    '/i18n/%00.json',
    '/api/upload/..%2f..%2fx',
  ])
    cases.push({ name: `GET ${p}`, method: 'GET', path: p });
  return cases;
}

/** Sends a body cut off mid-stream and closes the socket; resolves with the status line, if any. */
function sendRaw(c: Case, token: string): Promise<number | null> {
  const url = new URL(BASE_URL);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      const head =
        `${c.method} ${c.path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${token}\r\n` +
        Object.entries(c.headers ?? {})
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('') +
        '\r\n';
      socket.write(head);
      socket.write(c.body as Buffer);
      setTimeout(() => socket.destroy(), 200);
    });
    let data = '';
    socket.on('data', (d) => (data += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      resolve(m ? Number(m[1]) : null);
    });
  });
}

describe('the bad-input corpus against the running stack', () => {
  let token: string;
  let world: World;

  beforeAll(async () => {
    const knex = knexFactory({
      client: 'pg',
      connection: process.env.DATABASE_URL,
      pool: { min: 0, max: 1 },
    });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] }).finally(() => knex.destroy());
    const signIn = await fetch(`${BASE_URL}/api/authenticate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: admin.login, password: admin.password }),
    });
    token = signIn.headers.get('authorization') ?? '';
    expect(token).toMatch(/^Bearer /);
    const processId = await createProcess(token, `Corpus ${Date.now()}`);
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const uploadNodeId = nodes.find((n) => n.activityType === 'HUP')!.id;
    const node = (activityType: string) =>
      api<{ id: number }>(token, '/api/nodes', {
        method: 'POST',
        body: JSON.stringify({ processId, name: `${activityType} ${Date.now()}`, activityType }),
      });
    const clf = await node('CLF');
    const span = await node('SPAN');
    // Upload -> an automatic file parser: the worker's part of the check after the corpus.
    const parser = await api<{ id: number }>(token, '/api/nodes', {
      method: 'POST',
      body: JSON.stringify({
        processId,
        name: `Parser ${Date.now()}`,
        activityType: 'FILE_PARSER',
        autoStepStatus: 'DONE',
      }),
    });
    await api(token, '/api/edges', {
      method: 'POST',
      body: JSON.stringify({ fromId: uploadNodeId, toId: parser.id }),
    });
    const form = new FormData();
    form.append('nodeId', String(uploadNodeId));
    form.append('file', new Blob(['a document of the corpus'], { type: 'text/plain' }), 'corpus.txt');
    const up = await fetch(`${BASE_URL}/api/file-upload`, {
      method: 'POST',
      headers: { Authorization: token },
      body: form,
    });
    expect(up.status).toBe(201);
    const doc = (await up.json()) as { id: number };
    world = { processId, uploadNodeId, clfNodeId: clf.id, spanNodeId: span.id, documentId: doc.id };
  });

  it('answers every malformed request with a 4xx that quotes no SQL, and stays healthy', async () => {
    const cases = corpus(world);
    expect(cases.length).toBeGreaterThanOrEqual(200);
    const failures: string[] = [];
    for (const c of cases) {
      if (c.raw) {
        const status = await sendRaw(c, token);
        if (status !== null && status >= 500) failures.push(`${c.name}: ${status}`);
        continue;
      }
      let res: Response;
      try {
        res = await fetch(`${BASE_URL}${c.path}`, {
          method: c.method,
          headers: { Authorization: token, ...(c.headers ?? {}) },
          body: c.body as RequestInit['body'],
        });
      } catch (err) {
        failures.push(`${c.name}: no answer (${(err as Error).message})`);
        continue;
      }
      const text = await res.text();
      if (res.status >= 500) failures.push(`${c.name}: ${res.status} ${text.slice(0, 200)}`);
      else if (
        /\b(select|insert into|update .* set|delete from)\b.*\b(from|where|values|returning)\b/i.test(text)
      )
        failures.push(`${c.name}: SQL in the answer: ${text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);

    const health = await fetch(`${BASE_URL}/management/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as { status: string };
    expect(body.status).toBe('UP');
  }, 600000);

  it('still carries a new document through the worker after the corpus', async () => {
    const form = new FormData();
    form.append('nodeId', String(world.uploadNodeId));
    form.append('file', new Blob(['after the corpus'], { type: 'text/plain' }), 'after.txt');
    const up = await fetch(`${BASE_URL}/api/file-upload`, {
      method: 'POST',
      headers: { Authorization: token },
      body: form,
    });
    expect(up.status).toBe(201);
    const { id } = (await up.json()) as { id: number };
    // The worker parses it and the parser's step ends DONE (autoStepStatus): wait for the projection.
    type Step = { status: string; nodeDTO: { activityType: string } };
    const parsed = (steps: Step[]) =>
      steps.some((s) => s.nodeDTO.activityType === 'FILE_PARSER' && s.status === 'DONE');
    let steps: Step[] = [];
    for (let i = 0; i < 300 && !parsed(steps); i++) {
      await new Promise((r) => setTimeout(r, 200));
      steps = (await api<{ steps?: Step[] }>(token, `/api/v2/document/${id}/state`)).steps ?? [];
    }
    expect(steps.map((s) => [s.nodeDTO.activityType, s.status])).toContainEqual(['FILE_PARSER', 'DONE']);
  }, 120000);
});
