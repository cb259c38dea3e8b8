/** Shared preparation of `npm start` and `npm test`: database (migrated and seeded), Temporal, web build. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../../server/database-connection';
import { migrateLatest } from '../../db/migrate';
import { seed } from '../../db/seed';

export const ROOT = path.resolve(__dirname, '..', '..');

/** Migrations, then the seed; with `prod` in the profiles (default APP_PROFILES) no default account. */
export async function migrateAndSeed(
  databaseUrl: string,
  profiles: readonly string[] = (process.env.APP_PROFILES ?? '').split(',').map((p) => p.trim()),
): Promise<void> {
  // A setting that cannot work (DATABASE_URL's sslrootcert, ...) throws a SettingError naming it.
  const { knex } = await openDatabase(databaseUrl, { min: 0, max: 2 });
  try {
    await migrateLatest(knex);
    await seed(knex, { profiles });
  } finally {
    await knex.destroy();
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds the web app when dist/web is missing or older than its sources (web/ and domain/). */
export function buildWebIfStale(force = false): void {
  const index = path.join(ROOT, 'dist', 'web', 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sources = Math.max(newestMtime(path.join(ROOT, 'web')), newestMtime(path.join(ROOT, 'domain')));
  if (!force && built > sources) return;
  console.log('[setup] building the web app...');
  const r = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'vite'),
    ['build', '--config', 'web/vite.config.mts', '--logLevel', 'warn'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) throw new Error('web build failed');
}

/** Starts a TypeScript entry under tsx as a child process with the given environment. */
/** Stops child processes: SIGTERM, then SIGKILL for one still running after `graceMs`. */
export function stopChildren(children: readonly ChildProcess[], graceMs = 15000): Promise<void> {
  return Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const t = setTimeout(() => c.kill('SIGKILL'), graceMs);
          c.once('exit', () => {
            clearTimeout(t);
            resolve();
          });
          c.kill('SIGTERM');
        }),
    ),
  ).then(() => undefined);
}

export function spawnTs(entry: string, env: NodeJS.ProcessEnv, name: string) {
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [path.join(ROOT, entry)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code && code !== 0)
      console.error(`[${name}] exited with code ${code}${signal ? ` (${signal})` : ''}`);
  });
  return child;
}
