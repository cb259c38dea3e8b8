/**
 * The authorization matrix (issue 9): every route the app serves, enumerated from its declarations
 * (api/routes/index.ts `buildRoutes`, each made by api/route.ts `route()`), is called as every kind of
 * principal and must answer what its `access` declaration says (vocabulary in api/routes/access.ts):
 * - below the declared level: 401 for an anonymous caller, 403 for a signed-in one;
 * - at or above it (on the right process): anything but 401 and 403 (the handler may still answer 400,
 *   404, 409... for a body this test does not make fully valid).
 * The fixtures live in process P; the principals hold READ, WRITE or ADMIN on P, or on another process Q
 * (which must not open P), or nothing, or the global permission, or the admin role. Two more call with an
 * API key instead of a session (of an administrator, and of a user with ADMIN on P): 403 on every route a
 * key may not call (api/routes/access.ts keyMayCall: the account, keys, users...), the declared outcome
 * elsewhere.
 *
 * DECLARING A NEW ROUTE: `route({ method, path, access, body }, handler)` in its resource module, with who
 * may call it; for a `process` or `node` declaration name where the id is (`param`, `query` or `body`) and
 * its `kind`. A route cannot be mounted without a valid declaration (api/route.test.ts), and this test checks
 * that every route the app mounts is a declared one behind the gate of its declaration. A new `kind` needs a
 * resolver in api/access-gate.ts and a fixture in `world()` below; a body the handler's schema would refuse
 * before its access check goes into BODIES below (so that a refused caller meets the 403, not a 400).
 */
import crypto from 'node:crypto';
import type Router from '@koa/router';
import Koa from 'koa';
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import type { AppDeps } from '../../api/app';
import { loadConfig } from '../../server/config';
import { gateAccess, layerKeys, routeKey } from '../../api/route';
import { keyMayCall, refsOf, type Ref, type RefKind, type RouteAccess } from '../../api/routes/access';
import { createApiKey } from '../../api/services/api-keys';
import { buildRoutes, registerRoutes } from '../../api/routes';
import { modeSatisfies } from '../../domain/access';
import type { AccessMode } from '../../domain/enums';
import {
  buildProcess,
  buildUser,
  type BuiltUser,
  grant,
  insertNerTagType,
  insertNode,
  MISSING_ID,
  setupSuite,
  unique,
} from '../support/harness';

type Ids = Record<RefKind, number | string>;

interface Principal {
  name: string;
  token?: string;
  /** Signed in by this API key (X-API-Key) instead of a session token. */
  apiKey?: string;
  userId: number;
  /** The account, to sign in again after a route that ends its sessions. */
  user?: BuiltUser;
  admin?: boolean;
  global?: AccessMode;
  process?: 'P' | 'Q';
  mode?: AccessMode;
}

/** Bodies the handlers' schemas need besides the declared reference (keyed by `METHOD path`). */
const BODIES: Record<string, (ids: Ids) => unknown> = {
  'POST /api/nodes': (ids) => ({ processId: ids.process, activityType: 'CLF', name: unique('n') }),
  'PUT /api/nodes/coordinates': (ids) => [{ id: ids.node, x: 1, y: 1 }],
  'POST /api/edges': (ids) => ({ fromId: ids.node, toId: ids.node }),
  'POST /api/predicates': (ids) => ({ edgeId: ids.edge, predicateType: 'COMPLEX' }),
  'PUT /api/predicates': (ids) => ({ id: ids.predicate, edgeId: ids.edge, predicateType: 'COMPLEX' }),
  'PUT /api/matching-rules': (ids) => ({ id: ids.matchingRule, matchingType: 'EXACT', expression: 'a' }),
  'POST /api/documents': (ids) => ({ processId: ids.process, filename: 'm.txt', content: 'matrix' }),
  'PUT /api/documents': (ids) => ({
    id: ids.document,
    filename: 'renamed.txt',
    path: 'p',
    documentType: 'TEXTFILE',
    processId: ids.process,
  }),
  'DELETE /api/documents': (ids) => ({ documentIds: [ids.document], processId: ids.process }),
  'PUT /api/document-content': (ids) => ({ id: MISSING_ID, docId: ids.document, content: 'x' }),
  'POST /api/process-tags': () => ({ name: unique('tag'), color: '#123456' }),
  'PUT /api/v2/document/:id/assignees': () => [],
  'POST /api/ner-tags': (ids) => ({ documentId: ids.document, startOffset: 0, endOffset: 1 }),
  'POST /api/ner-tags/batch': (ids) => ({
    documentId: ids.document,
    spans: [{ startOffset: 0, endOffset: 1 }],
  }),
  'POST /api/classifier-tags': (ids) => ({ documentId: ids.document }),
  // below ADMIN on the process only one's own or the unassigned documents may be listed
  'POST /api/v2/document-info': () => ({ paged: true, filters: [{ type: 'UNASSIGNED', value: true }] }),
  // user administration (ROLE_ADMIN): valid bodies, so the administrator meets the handler (201, or 404 for
  // the missing id of an update); path ids stay MISSING_ID so that no shared user, role or authority is hit
  'POST /api/users': () => {
    const login = unique('matrix').toLowerCase();
    return { login, email: `${login}@example.test`, password: 'secret123', roles: ['ROLE_USER'] };
  },
  'PUT /api/users': () => ({
    id: MISSING_ID,
    login: unique('matrix').toLowerCase(),
    email: 'm@example.test',
  }),
  'POST /api/roles': () => ({ name: `ROLE_${unique('MATRIX').toUpperCase()}`, authorities: [] }),
  'PUT /api/roles': () => ({
    id: MISSING_ID,
    name: `ROLE_${unique('MATRIX').toUpperCase()}`,
    authorities: [],
  }),
  'POST /api/authorities': (ids) => ({ componentId: ids.process, type: 'PROCESS', mode: 'READ' }),
  // RAG: valid bodies (the query is refused after its access check: the suite's API has no rag profile)
  'PUT /api/rag-templates': (ids) => ({
    processId: ids.process,
    template: 'Q ${process.rag.input} D ${process.rag.documents}',
  }),
  'POST /api/rag': (ids) => ({ processId: ids.process, query: 'q', llmModel: { id: 1 } }),
  'PUT /api/processes/:id/rag': () => ({ isRagEnabled: false }),
  'POST /api/statistics': (ids) => ({
    type: 'WORK_TIMER',
    processId: ids.process,
    dateFrom: '2026-01-01',
    dateTo: '2026-01-31',
    zoneId: 'Europe/Warsaw',
  }),
  'POST /api/work-time': (ids) => ({
    clientId: crypto.randomUUID(),
    stepId: ids.step,
    startTime: new Date(Date.now() - 60_000).toISOString(),
    endTime: new Date().toISOString(),
  }),
};

/** Values of path parameters that name no declared reference. */
const PARAMS: Record<string, (p: Principal) => string> = {
  userId: (p) => String(p.userId),
  index: () => '0',
  action: () => 'complete',
  file: () => 'global.json',
  // POST /management/loggers/:name (an administrator's route; its body {} leaves the level as it is)
  name: () => 'matrix.test',
};

/** What the declaration lets the principal do on process P's fixtures. */
function expected(access: RouteAccess, p: Principal): 'allowed' | 401 | 403 {
  if (p.apiKey && !keyMayCall(access)) return 403;
  if (access.who === 'public') return 'allowed';
  if (!p.token && !p.apiKey) return 401;
  if (p.admin) return 'allowed';
  switch (access.who) {
    case 'signed-in':
      return 'allowed';
    case 'role':
      return 403;
    case 'global':
      return p.global && modeSatisfies(p.global, access.mode) ? 'allowed' : 403;
    default:
      return p.process === 'P' && modeSatisfies(p.mode ?? null, access.mode) ? 'allowed' : 403;
  }
}

/** Sets `name` (`[].id`, `filters[TYPE]`; `a.b` not needed so far) of a body to the id. */
function putInBody(body: unknown, ref: Ref, id: number | string): unknown {
  if (ref.name === '[].id') return Array.isArray(body) && body.length ? body : [{ id, x: 0, y: 0 }];
  const o = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const filter = /^filters\[(\w+)\]$/.exec(ref.name);
  if (filter) return { ...o, filters: [...((o.filters as unknown[]) ?? []), { type: filter[1], value: id }] };
  return { ...o, [ref.name]: ref.many ? [id] : id };
}

describe('authorization matrix: every route as every principal', () => {
  const suite = setupSuite();
  const principals: Principal[] = [];
  let P: number;
  let Q: number;
  let ids: Ids;
  const fixtureProcesses: number[] = [];

  /** One resource of each kind the declarations name, in a process. */
  async function world(processId: number): Promise<Ids> {
    const k = suite.knex;
    const upload = await insertObligatoryUploadNode(k, processId);
    const node = await insertNode(k, processId, 'SPAN');
    const other = await insertNode(k, processId, 'SPAN');
    const endpoint = `ep-${crypto.randomBytes(4).toString('hex')}`;
    await k('nodes')
      .insert({
        process_id: processId,
        name: unique('hup'),
        activity_type: 'HUP',
        settings: JSON.stringify({ endpoint, active: true }),
      })
      .returning('id');
    const [edge] = await k('edges')
      .insert({ process_id: processId, from_id: node.id, to_id: other.id })
      .returning('id');
    const [predicate] = await k('predicates')
      .insert({ edge_id: edge.id, predicate_type: 'COMPLEX' })
      .returning('id');
    const [secret] = await k('secrets')
      .insert({ process_id: processId, name: unique('s'), value: 'v' })
      .returning('id');
    const [classifierType] = await k('classifier_types')
      .insert({ node_id: node.id, name: unique('c'), background_color: '#111111' })
      .returning('id');
    const tag = await insertNerTagType(k, node.id);
    const [matchingRule] = await k('matching_rules')
      .insert({ ner_tag_type_id: tag.id, expression: 'abc', matching_type: 'EXACT' })
      .returning('id');
    const [relationType] = await k('ner_relation_types')
      .insert({ node_id: node.id, name: unique('r'), color: '#222222' })
      .returning('id');
    const [emailConnection] = await k('email_upload_connections')
      .insert({ node_id: node.id, imap_host: 'imap.example.test', address: 'a@example.test', password: 'p' })
      .returning('id');
    const [sftpConnection] = await k('sftp_connections')
      .insert({ node_id: node.id, name: unique('sftp'), address: 'sftp.example.test' })
      .returning('id');
    const [ragTemplate] = await k('rag_templates')
      .insert({ process_id: processId, template: '${process.rag.input} ${process.rag.documents}' })
      .returning('id');
    const hash = crypto.randomBytes(32).toString('hex');
    const [document] = await k('documents')
      .insert({
        process_id: processId,
        upload_node_id: upload.id,
        filename: 'doc.txt',
        path: `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
        content_hash: hash,
        mime_type: 'text/plain',
        size: 1,
        document_type: 'TEXTFILE',
      })
      .returning('id');
    const [step] = await k('steps')
      .insert({ document_id: document.id, node_id: node.id, order: 1 })
      .returning('id');
    const [nerTag] = await k('ner_tags')
      .insert({
        document_id: document.id,
        step_id: step.id,
        ner_tag_type_id: tag.id,
        start_offset: 0,
        end_offset: 1,
      })
      .returning('id');
    const [nerTag2] = await k('ner_tags')
      .insert({
        document_id: document.id,
        step_id: step.id,
        ner_tag_type_id: tag.id,
        start_offset: 1,
        end_offset: 2,
      })
      .returning('id');
    const [relationGraph] = await k('ner_tag_relation_graphs')
      .insert({ document_id: document.id, step_id: step.id, node_id: node.id })
      .returning('id');
    await k('ner_tag_relations').insert({
      graph_id: relationGraph.id,
      from_id: nerTag.id,
      to_id: nerTag2.id,
      relation_type_id: relationType.id,
    });
    const [utterance] = await k('utterances')
      .insert({ document_id: document.id, actor: 'SPEAKER1' })
      .returning('id');
    const [utteranceToken] = await k('utterance_tokens')
      .insert({ utterance_id: utterance.id, position: 0, value: 'słowo', ts_start: 0, ts_end: 100 })
      .returning('id');
    const [classifierTag] = await k('classifier_tags')
      .insert({
        document_id: document.id,
        step_id: step.id,
        node_id: node.id,
        classifier_type_id: classifierType.id,
      })
      .returning('id');
    const [issue] = await k('issues')
      .insert({
        document_id: document.id,
        type: 'TEXT',
        title: 'a',
        text: 'a',
        start_offset: 0,
        end_offset: 1,
      })
      .returning('id');
    return {
      process: processId,
      node: node.id,
      document: document.id,
      step: step.id,
      edge: edge.id,
      predicate: predicate.id,
      secret: secret.id,
      ragTemplate: ragTemplate.id,
      classifierType: classifierType.id,
      nerTagType: tag.id,
      nerTag: nerTag.id,
      classifierTag: classifierTag.id,
      relationType: relationType.id,
      issue: issue.id,
      relationGraph: relationGraph.id,
      matchingRule: matchingRule.id,
      utteranceToken: utteranceToken.id,
      emailConnection: emailConnection.id,
      sftpConnection: sftpConnection.id,
      uploadEndpoint: endpoint,
    };
  }

  /** A throwaway process (for destructive routes) the P principals hold their modes on. */
  async function throwawayWorld(): Promise<Ids> {
    const { id } = await buildProcess(suite.knex);
    fixtureProcesses.push(id);
    for (const p of principals)
      if (p.process === 'P')
        await grant(suite.knex, p.userId, { componentId: id, type: 'PROCESS', mode: p.mode! });
    return world(id);
  }

  beforeAll(async () => {
    P = (await buildProcess(suite.knex)).id;
    Q = (await buildProcess(suite.knex)).id;
    await world(Q);
    const signed = async (
      name: string,
      opts: Parameters<typeof buildUser>[1],
      extra: Partial<Principal>,
    ): Promise<Principal> => {
      const user = await buildUser(suite.knex, opts);
      return { name, token: await suite.signIn(user), userId: user.id, user, ...extra };
    };
    principals.push({ name: 'anonymous', userId: 1 });
    principals.push(await signed('no authority', {}, {}));
    for (const [label, pid] of [
      ['P', P],
      ['Q', Q],
    ] as const)
      for (const mode of ['READ', 'WRITE', 'ADMIN'] as const)
        principals.push(
          await signed(
            `${mode} on ${label}`,
            { authorities: [{ componentId: pid, type: 'PROCESS', mode }] },
            { process: label, mode },
          ),
        );
    principals.push(
      await signed(
        'global WRITE',
        { authorities: [{ componentId: -1, type: 'PROCESS', mode: 'WRITE' }] },
        { global: 'WRITE' },
      ),
    );
    // An administrator of its own, not the seeded one: POST /api/logout ends every session of its caller,
    // and the suites running beside this one hold tokens of the seeded admin.
    principals.push(await signed('admin role', { roles: ['ROLE_ADMIN', 'ROLE_USER'] }, { admin: true }));
    // API keys: the same kinds of owner, signed in by a key only
    const keyed = async (
      name: string,
      opts: Parameters<typeof buildUser>[1],
      extra: Partial<Principal>,
    ): Promise<Principal> => {
      const user = await buildUser(suite.knex, opts);
      const key = await createApiKey(suite.knex, user.id, new Date(Date.now() + 86_400_000));
      return { name, apiKey: key.token, userId: user.id, ...extra };
    };
    principals.push(
      await keyed('admin role by API key', { roles: ['ROLE_ADMIN', 'ROLE_USER'] }, { admin: true }),
    );
    principals.push(
      await keyed(
        'ADMIN on P by API key',
        { authorities: [{ componentId: P, type: 'PROCESS', mode: 'ADMIN' }] },
        { process: 'P', mode: 'ADMIN' },
      ),
    );
    ids = await world(P);
  });

  // Only the routes' paths are read here; a real configuration, so a route reading any of it builds.
  const deps = {
    config: loadConfig({ ...process.env, PORT: '0' }),
    knex: {},
    temporal: {},
    mailer: {},
  } as unknown as AppDeps;
  const declared = buildRoutes(deps).flat();
  const served = declared.map(routeKey);
  const ROUTE_ACCESS: Record<string, RouteAccess> = Object.fromEntries(
    declared.map((r) => [routeKey(r), r.access]),
  );
  const MULTIPART = new Set(declared.filter((r) => r.body === 'multipart').map(routeKey));

  it('every route the app mounts is a declared one, behind the gate of its declaration', () => {
    expect(new Set(served).size).toBe(served.length);
    // what registerRoutes (api/app.ts) really mounts: every layer of every router, whatever made it
    const app = new Koa();
    registerRoutes(app, deps);
    const layers = app.middleware.flatMap((mw) => (mw as { router?: Router }).router?.stack ?? []);
    const mounted = layers.flatMap((layer) => layerKeys(layer));
    expect([...mounted].sort()).toEqual([...served].sort());
    const ungated = layers.flatMap((layer) =>
      layerKeys(layer).filter((key) => {
        const gate = gateAccess(layer.stack[0]);
        return !gate || JSON.stringify(gate) !== JSON.stringify(ROUTE_ACCESS[key]);
      }),
    );
    expect(ungated).toEqual([]);
  });

  it('closes every account-level route to API keys (issue 25: a key acts on data, never for the account)', () => {
    const accountLevel = [
      'POST /api/authenticate',
      'POST /api/account',
      'POST /api/account/change-password',
      'POST /api/account/reset-password/init',
      'POST /api/account/reset-password/finish',
      'POST /api/register',
      'GET /api/verify',
      'POST /api/logout',
      'GET /api/api-keys',
      'POST /api/api-keys',
      'DELETE /api/api-keys/:id',
      ...served.filter((k) => /^\w+ \/api\/(users|_search\/users|roles|authorities)\b/.test(k)),
      'GET /management/audits',
      'POST /management/loggers/:name',
    ];
    expect(accountLevel.filter((k) => !ROUTE_ACCESS[k])).toEqual([]);
    expect(accountLevel.filter((k) => keyMayCall(ROUTE_ACCESS[k]))).toEqual([]);
    // and what keys may call besides the data of processes is a short list of reads
    const beyondData = served.filter(
      (k) => keyMayCall(ROUTE_ACCESS[k]) && !['process', 'node', 'global'].includes(ROUTE_ACCESS[k].who),
    );
    expect(beyondData.filter((k) => !k.startsWith('GET '))).toEqual([]);
  });

  /** Calls one route as one principal, with the fixture ids where the declaration says. */
  async function callRoute(key: string, p: Principal, world: Ids) {
    const access = ROUTE_ACCESS[key];
    const [method, pattern] = key.split(' ');
    const refs = refsOf(access);
    const ref = refs[0];
    let path = pattern.replace(/:(\w+)/g, (_, name: string) => {
      const r = refs.find((x) => x.from === 'param' && x.name === name);
      if (r) return encodeURIComponent(String(world[r.kind]));
      return PARAMS[name]?.(p) ?? String(MISSING_ID);
    });
    let body: unknown = BODIES[key]?.(world);
    if (ref?.from === 'query') path += `?${ref.name}=${encodeURIComponent(String(world[ref.kind]))}`;
    if (ref?.from === 'body') body = putInBody(body, ref, world[ref.kind]);
    const headers: Record<string, string> = {};
    if (p.token) headers.Authorization = `Bearer ${p.token}`;
    if (p.apiKey) headers['X-API-Key'] = p.apiKey;
    let payload: FormData | string | undefined;
    if (MULTIPART.has(key)) {
      const form = new FormData();
      if (ref?.from === 'body') form.append(ref.name, String(world[ref.kind]));
      form.append('file', new Blob([`matrix ${unique('x')}`]), 'm.txt');
      payload = form;
    } else if (body !== undefined || ['POST', 'PUT'].includes(method)) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body ?? {});
    }
    const res = await fetch(`${suite.api.baseUrl}${path}`, { method, headers, body: payload });
    await res.arrayBuffer();
    return res.status;
  }

  const destructive = (key: string) =>
    key.startsWith('DELETE ') && !/blocked-by|assignee/.test(key) && ROUTE_ACCESS[key].who !== 'global';
  /** Routes that end the caller's sessions: run last, and the principal signs in again after each. */
  const REVOKING = new Set(['POST /api/logout']);

  it('answers each route as its declaration says, for each principal', async () => {
    const failures: string[] = [];
    const serverErrors: string[] = [];
    const ordinary = (k: string) => !destructive(k) && !REVOKING.has(k);
    const check = async (key: string, p: Principal) => {
      const world = destructive(key) ? await throwawayWorld() : ids;
      const status = await callRoute(key, p, world);
      if (REVOKING.has(key) && p.user && p.token) p.token = await suite.signIn(p.user);
      const want = expected(ROUTE_ACCESS[key], p);
      const ok = want === 'allowed' ? status !== 401 && status !== 403 : status === want;
      if (!ok) failures.push(`${key} as ${p.name}: ${status}, expected ${want}`);
      if (status >= 500) serverErrors.push(`${key} as ${p.name}: ${status}`);
    };
    // The ordinary routes four calls at a time (their answers do not depend on each other's order: the
    // matrix checks authorization, which no ordinary call changes); destructive and revoking ones in order.
    const pending = served.filter(ordinary).flatMap((key) => principals.map((p) => [key, p] as const));
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let next = pending.shift(); next; next = pending.shift()) await check(...next);
      }),
    );
    for (const key of [...served.filter(destructive), ...served.filter((k) => REVOKING.has(k))])
      for (const p of principals) await check(key, p);
    failures.sort();
    if (serverErrors.length)
      console.warn(`5xx in the matrix (not an authorization failure):\n${serverErrors.join('\n')}`);
    expect(failures).toEqual([]);
    // Every route times every principal (about two thousand calls, more with each route): on two shared cores
    // under a full parallel run that takes longer than the default minute, and past four minutes at a load
    // average of 30: the limit only catches a hung call.
  }, 600_000);

  it('answers an unknown id like an id of a process the caller cannot reach', async () => {
    const reader = principals.find((p) => p.name === 'READ on Q')!;
    for (const [path, id] of [
      ['/api/documents/', ids.document],
      ['/api/steps/', ids.step],
      ['/api/v2/document/', ids.document],
    ] as const) {
      const suffix = path === '/api/v2/document/' ? '/state' : '';
      const other = await suite.get(`${path}${id}${suffix}`, reader.token);
      const unknown = await suite.get(`${path}${MISSING_ID}${suffix}`, reader.token);
      expect([path, other.status]).toEqual([path, 403]);
      expect([path, unknown.status]).toEqual([path, 403]);
    }
    const chat = (id: number | string) => suite.get(`/api/llm-chat-responses?documentId=${id}`, reader.token);
    expect([(await chat(ids.document)).status, (await chat(MISSING_ID)).status]).toEqual([403, 403]);
    // The admin reaches everything: an unknown id is a plain 404.
    expect((await suite.get(`/api/steps/${MISSING_ID}`, suite.admin)).status).toBe(404);
  });

  // Issue 25 finding 6: the routes whose reference is in the body are checked by their handlers, and eleven of
  // them answered 404 (or 200 []) for an unknown id but 403 for another process's. Every such route, as the
  // highest caller of another process: an id of P and an id that exists nowhere must get the same answer.
  it('answers unknown and unreachable body references alike on every route that takes one', async () => {
    const outsider = principals.find((p) => p.name === 'ADMIN on Q')!;
    const nowhere = Object.fromEntries(
      Object.keys(ids).map((k) => [k, k === 'uploadEndpoint' ? `nowhere-${MISSING_ID}` : MISSING_ID]),
    ) as Ids;
    const differ: string[] = [];
    for (const key of served.filter((k) => refsOf(ROUTE_ACCESS[k]).some((r) => r.from === 'body'))) {
      const foreign = await callRoute(key, outsider, ids);
      const unknown = await callRoute(key, outsider, nowhere);
      if (foreign !== 403 || unknown !== 403) differ.push(`${key}: P's id ${foreign}, unknown id ${unknown}`);
    }
    expect(differ).toEqual([]);
  });

  it('PUT /api/steps answers nothing of the step to a caller without WRITE on its node (finding 4)', async () => {
    for (const name of ['no authority', 'READ on P', 'ADMIN on Q']) {
      const p = principals.find((x) => x.name === name)!;
      const res = await suite.send('PUT', '/api/steps', p.token, { id: ids.step });
      expect([name, res.status, res.body.documentId]).toEqual([name, 403, undefined]);
    }
    const writer = principals.find((x) => x.name === 'WRITE on P')!;
    const res = await suite.send('PUT', '/api/steps', writer.token, { id: ids.step });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(ids.step);
  });
});
