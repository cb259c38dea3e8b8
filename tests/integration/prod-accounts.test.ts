/**
 * Production accounts (issue 27 section 4): with the `prod` profile the seed creates no account, the first
 * administrator comes from ADMIN_USERNAME / ADMIN_PASSWORD at the API's start or from `npm run create-admin`,
 * and the API refuses to start while a seeded account keeps its default password. Each case on a fresh
 * database of its own (the suites share the run's database, whose seed has admin/admin).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { seed } from '../../db/seed';
import { startApi } from '../../api/server';
import { loadConfig } from '../../server/config';
import { StartRefused } from '../../server/first-admin';
import { createDatabaseIfMissing, dropDatabase, splitDatabaseUrl } from '../../scripts/lib/postgres';
import { migrateAndSeed } from '../../scripts/lib/prepare';
import { login } from '../support/harness';

const ROOT = path.resolve(__dirname, '..', '..');
const { serverUrl } = splitDatabaseUrl(loadConfig(process.env).databaseUrl);
const JWT_SECRET = crypto.randomBytes(48).toString('base64');
const dropped: string[] = [];
const pools: Knex[] = [];

/** A new database, migrated and seeded with the given profiles. */
async function freshDatabase(profiles: string[]): Promise<{ url: string; knex: Knex }> {
  const name = `wb_prod_${crypto.randomBytes(4).toString('hex')}`;
  await createDatabaseIfMissing(serverUrl, name);
  dropped.push(name);
  const url = `${serverUrl}/${name}`;
  await migrateAndSeed(url, profiles);
  const knex = createKnex(url, { min: 0, max: 2 });
  pools.push(knex);
  return { url, knex };
}

const prodConfig = (url: string, extra: NodeJS.ProcessEnv = {}) =>
  loadConfig({ ...process.env, DATABASE_URL: url, PORT: '0', APP_PROFILES: 'prod', JWT_SECRET, ...extra });

function run(entry: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, entry), ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // A start that is not refused would serve forever: stopped, and its exit code is then null.
    const stop = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(stop);
      resolve({ code, stdout, stderr });
    });
  });
}

const logins = async (knex: Knex) => (await knex('users').orderBy('login').pluck('login')) as string[];

afterAll(async () => {
  for (const k of pools) await k.destroy();
  for (const name of dropped) await dropDatabase(serverUrl, name);
});

describe('the prod profile', () => {
  it('seeds no account and no demo process, but the roles and the system tags', async () => {
    const { knex } = await freshDatabase(['prod']);
    expect(await logins(knex)).toEqual([]);
    expect(await knex('processes').pluck('name')).toEqual([]);
    expect((await knex('roles').orderBy('name').pluck('name')).length).toBeGreaterThan(0);
    expect((await knex('process_tags').where({ predefined: true })).length).toBe(4);
  });

  it('creates the first administrator from ADMIN_USERNAME / ADMIN_PASSWORD once, who can sign in', async () => {
    const { url, knex } = await freshDatabase(['prod']);
    const api = await startApi(prodConfig(url, { ADMIN_USERNAME: 'Ops', ADMIN_PASSWORD: 'first-pass-27' }));
    try {
      expect(await logins(knex)).toEqual(['ops']);
      await login(`http://127.0.0.1:${api.port}`, 'ops', 'first-pass-27');
    } finally {
      await api.close();
    }
    // Started again with other values: the administrator exists, nothing is created or changed.
    const again = await startApi(prodConfig(url, { ADMIN_USERNAME: 'other', ADMIN_PASSWORD: 'second-pass' }));
    try {
      expect(await logins(knex)).toEqual(['ops']);
      await login(`http://127.0.0.1:${again.port}`, 'ops', 'first-pass-27');
    } finally {
      await again.close();
    }
  });

  it('refuses an ADMIN_PASSWORD that breaks the password rules or is a default one', async () => {
    const { url, knex } = await freshDatabase(['prod']);
    await expect(startApi(prodConfig(url, { ADMIN_USERNAME: 'ops', ADMIN_PASSWORD: 'abc' }))).rejects.toThrow(
      /4 to 50 characters/,
    );
    await expect(
      startApi(prodConfig(url, { ADMIN_USERNAME: 'ops', ADMIN_PASSWORD: 'admin' })),
    ).rejects.toBeInstanceOf(StartRefused);
    expect(await logins(knex)).toEqual([]);
  });

  it('refuses to start, in one line naming the accounts, while admin/admin and user/user keep their passwords', async () => {
    // A database seeded without prod (as `npm start` did before), then started with prod.
    const { url, knex } = await freshDatabase(['dev']);
    const refused = await run('api/server.ts', [], {
      ...process.env,
      DATABASE_URL: url,
      PORT: '0',
      APP_PROFILES: 'prod',
      JWT_SECRET,
    });
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^The API cannot start: profile prod: the accounts "admin" and "user" still have/,
    );
    expect(lines[0]).toMatch(/change them .* or delete them/);

    // One changed, the other still refused; both changed, the start goes on.
    const bcrypt = await import('bcryptjs');
    await knex('users')
      .where({ login: 'admin' })
      .update({ password_hash: await bcrypt.hash('changed-1', 4) });
    await expect(startApi(prodConfig(url))).rejects.toThrow(
      /the account "user" still has its default password/,
    );
    await knex('users')
      .where({ login: 'user' })
      .update({ password_hash: await bcrypt.hash('changed-2', 4) });
    const api = await startApi(prodConfig(url));
    await api.close();
    // Seeding again without prod keeps a changed password (idempotent seed).
    await seed(knex);
    await startApi(prodConfig(url)).then((a) => a.close());
  });
});

describe('npm run create-admin', () => {
  it('creates the first administrator from its arguments once, then refuses with the existing one named', async () => {
    const { url, knex } = await freshDatabase(['prod']);
    const env = { ...process.env, DATABASE_URL: url, ADMIN_USERNAME: '', ADMIN_PASSWORD: '' };
    const first = await run(
      'scripts/create-admin.ts',
      ['--username', 'chief', '--password', 'chief-pass-1'],
      env,
    );
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain('administrator "chief" created');
    const second = await run(
      'scripts/create-admin.ts',
      ['--username', 'deputy', '--password', 'deputy-pass'],
      env,
    );
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(
      'create-admin: an administrator exists already ("chief"): nothing created; add users from Administration > Users',
    );
    expect(await logins(knex)).toEqual(['chief']);
    const api = await startApi(prodConfig(url));
    try {
      await login(`http://127.0.0.1:${api.port}`, 'chief', 'chief-pass-1');
    } finally {
      await api.close();
    }
  });

  it('takes ADMIN_USERNAME / ADMIN_PASSWORD and, without a terminal or values, says what to give', async () => {
    const { url, knex } = await freshDatabase(['prod']);
    const missing = await run('scripts/create-admin.ts', [], {
      ...process.env,
      DATABASE_URL: url,
      ADMIN_USERNAME: '',
      ADMIN_PASSWORD: '',
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('give --username and --password');
    const fromEnv = await run('scripts/create-admin.ts', [], {
      ...process.env,
      DATABASE_URL: url,
      ADMIN_USERNAME: 'envadmin',
      ADMIN_PASSWORD: 'env-pass-27',
    });
    expect(fromEnv.code).toBe(0);
    expect(await logins(knex)).toEqual(['envadmin']);
  });
});
