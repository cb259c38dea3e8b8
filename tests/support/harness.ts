/**
 * Integration-test harness: a real API (in this process, on a free port) over the run's PostgreSQL and
 * Temporal (DATABASE_URL, TEMPORAL_ADDRESS set by scripts/test.ts), plus an HTTP helper and builders.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import knexFactory, { type Knex } from 'knex';
import { loadConfig, type AppConfig } from '../../server/config';
import { startApi, type RunningApi } from '../../api/server';
import { createApiClient, type ApiClient } from '../../api/client';
import type { AccessMode, ComponentType } from '../../domain/enums';
import type { EdgeDTO, NodeDTO } from '../../domain/graph-types';

export interface TestApi extends RunningApi {
  baseUrl: string;
  config: AppConfig;
}

export async function startTestApi(overrides: Partial<AppConfig> = {}): Promise<TestApi> {
  const config = { ...loadConfig({ ...process.env, PORT: '0' }), ...overrides };
  const api = await startApi(config);
  return { ...api, baseUrl: `http://127.0.0.1:${api.port}`, config };
}

export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  method?: string;
  token?: string;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

/** Calls the API; parses JSON bodies; never throws on HTTP errors. */
export async function call<T = any>(baseUrl: string, path: string, opts: CallOptions = {}): Promise<Res<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.text !== undefined) {
    headers['Content-Type'] = 'text/plain';
    body = opts.text;
  }
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${baseUrl}${path}`, {
    method: opts.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/** An answer of the typed client (api/client) as a Res: its status, headers and body (or error body). */
export const resOf = <T>(result: { data?: T; error?: unknown; response: Response }): Res<T> => ({
  status: result.response.status,
  headers: result.response.headers,
  body: (result.data ?? result.error) as T,
});

/** Signs in and returns the bearer token (through the typed client). */
export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await createApiClient(baseUrl).POST('/api/authenticate', {
    body: { username, password, rememberMe: false },
  });
  const header = res.response.headers.get('authorization') ?? '';
  if (res.response.status !== 200 || !header.startsWith('Bearer ')) {
    throw new Error(`login of ${username} failed: ${res.response.status} ${JSON.stringify(res.error)}`);
  }
  return header.slice('Bearer '.length);
}

export const unique = (prefix: string) => `${prefix}_${crypto.randomBytes(4).toString('hex')}`;

export interface BuiltUser {
  id: number;
  login: string;
  password: string;
  email: string;
}

/** Inserts an activated user with roles and own authorities (cheap bcrypt cost: tests only). */
export async function buildUser(
  knex: Knex,
  opts: {
    login?: string;
    password?: string;
    roles?: string[];
    authorities?: { componentId: number; type: ComponentType; mode: AccessMode }[];
    activated?: boolean;
  } = {},
): Promise<BuiltUser> {
  const login = opts.login ?? unique('u').toLowerCase();
  const password = opts.password ?? 'secret123';
  const email = `${login}@example.test`;
  const [user] = await knex('users')
    .insert({
      login,
      email,
      password_hash: await bcrypt.hash(password, 4),
      activated: opts.activated ?? true,
      lang_key: 'en',
      created_by: 'test',
    })
    .returning('*');
  for (const name of opts.roles ?? ['ROLE_USER']) {
    const role = await knex('roles').where({ name }).first();
    await knex('user_roles').insert({ user_id: user.id, role_id: role.id });
  }
  for (const a of opts.authorities ?? []) {
    await grant(knex, user.id, a);
  }
  return { id: user.id, login, password, email };
}

export async function grant(
  knex: Knex,
  userId: number,
  a: { componentId: number; type: ComponentType; mode: AccessMode },
): Promise<void> {
  let auth = await knex('authorities')
    .where({ component_id: a.componentId, type: a.type, mode: a.mode })
    .first();
  if (!auth) {
    [auth] = await knex('authorities')
      .insert({ component_id: a.componentId, type: a.type, mode: a.mode })
      .onConflict(['component_id', 'type', 'mode'])
      .merge()
      .returning('*');
  }
  await knex('user_authorities').insert({ user_id: userId, authority_id: auth.id }).onConflict().ignore();
}

/** Inserts a process with the given tag ids (default: the first predefined tag). */
export async function buildProcess(
  knex: Knex,
  opts: { name?: string; tagIds?: number[]; isRagEnabled?: boolean } = {},
): Promise<{ id: number; name: string }> {
  const name = opts.name ?? unique('Process');
  const [p] = await knex('processes')
    .insert({ name, is_rag_enabled: opts.isRagEnabled ?? false })
    .returning('*');
  const tagIds = opts.tagIds ?? [
    (await knex('process_tags').where({ predefined: true }).orderBy('id').first()).id,
  ];
  for (const tagId of tagIds)
    await knex('process_process_tags').insert({ process_id: p.id, process_tag_id: tagId });
  return { id: p.id, name };
}

export async function buildTag(
  knex: Knex,
  opts: { name?: string; color?: string; predefined?: boolean } = {},
): Promise<{ id: number; name: string; color: string; predefined: boolean }> {
  const [t] = await knex('process_tags')
    .insert({
      name: opts.name ?? unique('tag'),
      color: opts.color ?? '#123456',
      predefined: opts.predefined ?? false,
    })
    .returning('*');
  return { id: t.id, name: t.name, color: t.color, predefined: t.predefined };
}

/** An id no row has. */
export const MISSING_ID = 987654321;

/** The field errors of a 400 answer as [field, key] pairs, in the answer's order. */
export const fieldKeys = (res: Res) =>
  (res.body.fieldErrors ?? []).map((f: { field: string; key: string }) => [f.field, f.key]);

/** The field errors of a 400 body as { field: key }. */
export const fieldKeyMap = (body: { fieldErrors?: { field: string; key: string }[] }) =>
  Object.fromEntries((body.fieldErrors ?? []).map((fe) => [fe.field, fe.key]));

/** Inserts a node directly (no API rules, no defaults). */
export async function insertNode(
  knex: Knex,
  processId: number,
  activityType: string,
  name = unique(activityType),
): Promise<{ id: number; process_id: number; name: string }> {
  const [node] = await knex('nodes')
    .insert({ process_id: processId, name, activity_type: activityType })
    .returning('*');
  return node;
}

/** Inserts a root NER tag type on a node (its path is its name). */
export async function insertNerTagType(
  knex: Knex,
  nodeId: number,
  name = unique('Tag'),
): Promise<{ id: number; node_id: number; name: string; path: string }> {
  const [t] = await knex('ner_tag_types')
    .insert({ node_id: nodeId, name, background_color: '#111111', text_color: '#ffffff', path: name })
    .returning('*');
  return t;
}

/** What setupSuite() gives a suite: knex at once, api and admin once its beforeAll has run. */
export interface Suite {
  readonly api: TestApi;
  /** The suite's own pool on the run's database (not the API's), usable from the start. */
  readonly knex: Knex;
  /** The seeded admin's bearer token. */
  readonly admin: string;
  /**
   * The typed client of this suite's API (api/client, generated from docs/openapi.json), signed with the
   * bearer token or API key given (none: anonymous). `resOf()` turns its answers into a Res.
   */
  apiClient(auth?: string | { apiKey: string }): ApiClient;
  /** call() against this suite's API. */
  call<T = any>(path: string, opts?: CallOptions): Promise<Res<T>>;
  get<T = any>(path: string, token?: string): Promise<Res<T>>;
  send<T = any>(method: string, path: string, token: string | undefined, json?: unknown): Promise<Res<T>>;
  signIn(user: BuiltUser): Promise<string>;
  /** A new user with the given mode on one process, signed in. */
  userWith(processId: number, mode: AccessMode): Promise<string>;
  /** POST /api/nodes (name unique() after the type unless given), as the admin unless a token is given. */
  createNode(processId: number, json: Record<string, unknown>, token?: string): Promise<Res<NodeDTO>>;
  /** A node created through the API; throws unless it was created. */
  node(processId: number, activityType: string, json?: Record<string, unknown>): Promise<NodeDTO>;
  /** An edge created through the API by the admin; throws unless it was created. */
  edge(fromId: number, toId: number): Promise<EdgeDTO>;
}

export interface SuiteOptions {
  /** Configuration overrides of the API; a function when they need something started first. */
  config?: Partial<AppConfig> | (() => Promise<Partial<AppConfig>>);
  /** Sees every response of call/get/send (e.g. to check in afterAll that no secret ever leaked). */
  onResponse?: (res: Res) => void;
}

/**
 * The usual top of an integration suite: call it inside describe(). Its beforeAll starts the API and signs
 * the seeded admin in; its afterAll closes the API. The suite's own beforeAll/afterAll run after these.
 */
export function setupSuite(opts: SuiteOptions = {}): Suite {
  // Connections are opened on first use only; the API of the suite has a pool of its own.
  const knex = knexFactory({
    client: 'pg',
    connection: loadConfig(process.env).databaseUrl,
    pool: { min: 0, max: 4 },
  });
  let api: TestApi | undefined;
  let admin: string | undefined;
  const started = () => {
    if (!api) throw new Error('setupSuite: the API is not started yet (use it inside hooks and tests)');
    return api;
  };
  const suite: Suite = {
    get api() {
      return started();
    },
    knex,
    get admin() {
      started();
      return admin!;
    },
    async call<T = any>(path: string, callOpts: CallOptions = {}) {
      const res = await call<T>(started().baseUrl, path, callOpts);
      opts.onResponse?.(res);
      return res;
    },
    apiClient: (auth) =>
      createApiClient(started().baseUrl, typeof auth === 'string' ? { token: auth } : auth),
    get: (path, token) => suite.call(path, { token }),
    send: (method, path, token, json) => suite.call(path, { method, token, json }),
    signIn: (user) => login(started().baseUrl, user.login, user.password),
    userWith: async (processId, mode) =>
      suite.signIn(
        await buildUser(knex, { authorities: [{ componentId: processId, type: 'PROCESS', mode }] }),
      ),
    createNode: async (processId, json, token = suite.admin) => {
      const res = resOf(
        await suite.apiClient(token).POST('/api/nodes', {
          // any fields: suites also send what the API must refuse
          body: { processId, name: unique(String(json.activityType ?? 'Node')), ...json } as never,
        }),
      );
      opts.onResponse?.(res);
      return res as Res<NodeDTO>;
    },
    async node(processId, activityType, json = {}) {
      const res = await suite.createNode(processId, { activityType, ...json });
      if (res.status !== 201) throw new Error(`node: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async edge(fromId, toId) {
      const res = resOf(await suite.apiClient(suite.admin).POST('/api/edges', { body: { fromId, toId } }));
      opts.onResponse?.(res);
      if (res.status !== 201) throw new Error(`edge: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
  };
  beforeAll(async () => {
    api = await startTestApi(typeof opts.config === 'function' ? await opts.config() : opts.config);
    admin = await login(api.baseUrl, 'admin', 'admin');
  });
  afterAll(async () => {
    await api?.close();
    await knex.destroy();
  });
  return suite;
}
