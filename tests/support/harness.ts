/**
 * Integration-test harness: a real API (in this process, on a free port) over the run's PostgreSQL and
 * Temporal (DATABASE_URL, TEMPORAL_ADDRESS set by scripts/test.ts), plus an HTTP helper and builders.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Knex } from 'knex';
import { loadConfig, type AppConfig } from '../../api/config';
import { startApi, type RunningApi } from '../../api/server';
import type { AccessMode, ComponentType } from '../../domain/enums';

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

/** Signs in and returns the bearer token. */
export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await call(baseUrl, '/api/authenticate', { json: { username, password, rememberMe: false } });
  const header = res.headers.get('authorization') ?? '';
  if (res.status !== 200 || !header.startsWith('Bearer ')) {
    throw new Error(`login of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
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
