/**
 * `npm start`: PostgreSQL (DATABASE_URL or embedded under .data/pg), Temporal (TEMPORAL_ADDRESS or the dev
 * server with .data/temporal.db), migrations and seed, web build, then the worker and the API. Ctrl-C stops
 * every child; a second start reuses the data.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createDatabaseIfMissing, startEmbeddedPostgres, type RunningPostgres } from './lib/postgres';
import { buildWebIfStale, migrateAndSeed, ROOT, spawnTs } from './lib/prepare';
import { ensureTemporalCli, startTemporalDevServer, type RunningTemporal } from './lib/temporal';
import { waitForPort } from './lib/ports';

async function main() {
  const env = { ...process.env };
  const stops: (() => Promise<void>)[] = [];
  const children: ChildProcess[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\n[start] stopping...');
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            const t = setTimeout(() => c.kill('SIGKILL'), 15000);
            c.once('exit', () => {
              clearTimeout(t);
              resolve();
            });
            c.kill('SIGTERM');
          }),
      ),
    );
    for (const stop of stops.reverse()) await stop().catch((e) => console.error(e));
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    if (!env.DATABASE_URL) {
      console.log('[start] starting embedded PostgreSQL (.data/pg)...');
      const pg: RunningPostgres = await startEmbeddedPostgres(path.join(ROOT, '.data', 'pg'), {
        persistent: true,
      });
      stops.push(() => pg.stop());
      await createDatabaseIfMissing(pg.serverUrl, 'workbench');
      env.DATABASE_URL = pg.urlFor('workbench');
    }
    let temporalUi: string | null = null;
    if (!env.TEMPORAL_ADDRESS) {
      const cli = ensureTemporalCli();
      console.log('[start] starting the Temporal dev server (.data/temporal.db)...');
      const t: RunningTemporal = await startTemporalDevServer(cli, {
        dbFile: path.join(ROOT, '.data', 'temporal.db'),
        port: 7233,
        uiPort: 8233,
      });
      stops.push(() => t.stop());
      env.TEMPORAL_ADDRESS = t.address;
      temporalUi = t.uiUrl;
    }
    console.log('[start] migrating and seeding the database...');
    await migrateAndSeed(env.DATABASE_URL);
    buildWebIfStale();

    env.PORT = env.PORT ?? '8080';
    env.NODE_ENV = env.NODE_ENV ?? 'production';
    children.push(spawnTs('workflows/worker.ts', env, 'worker'));
    const api = spawnTs('api/server.ts', env, 'api');
    children.push(api);
    for (const c of children) c.on('exit', () => void shutdown(1));
    await waitForPort(Number(env.PORT), '127.0.0.1', 120000);

    console.log('');
    console.log(`  Workbench:    http://localhost:${env.PORT}   (admin/admin, user/user)`);
    console.log(`  Health:       http://localhost:${env.PORT}/management/health`);
    if (temporalUi) console.log(`  Temporal UI:  ${temporalUi}`);
    console.log(`  Temporal:     ${env.TEMPORAL_ADDRESS}`);
    console.log(`  Database:     ${env.DATABASE_URL}`);
    console.log('  Ctrl-C stops everything.');
    console.log('');
  } catch (err) {
    console.error(`[start] ${(err as Error).message}`);
    await shutdown(1);
  }
}

void main();
