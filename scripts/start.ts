/**
 * `npm start`: the file parser's programs (installed when missing, or the start stops with the command to
 * run: scripts/lib/system-deps.ts), PostgreSQL (DATABASE_URL or embedded under .data/pg), Temporal
 * (TEMPORAL_ADDRESS or the dev server with .data/temporal.db), migrations and seed, web build, then the
 * worker and the API, each started again if it dies. Ctrl-C stops every child; a second start reuses the
 * data.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createDatabaseIfMissing, startEmbeddedPostgres, type RunningPostgres } from './lib/postgres';
import { buildWebIfStale, migrateAndSeed, ROOT, spawnTs, stopChildren } from './lib/prepare';
import { ensureTemporalCli, startTemporalDevServer, type RunningTemporal } from './lib/temporal';
import { ensureSystemPrograms } from './lib/system-deps';
import { waitForPort } from './lib/ports';
import { loadTemporalConnection } from '../server/temporal-connection';
import { EXIT_CONFIG, SettingError } from '../server/setting-error';

async function main() {
  const env = { ...process.env };
  const stops: (() => Promise<void>)[] = [];
  const children: ChildProcess[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\n[start] stopping...');
    await stopChildren(children);
    for (const stop of stops.reverse()) await stop().catch((e) => console.error(e));
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    await ensureSystemPrograms('start', ROOT, env);
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
    // Temporal's client configuration (variables, or a profile of TEMPORAL_CONFIG_FILE) names a server, or the
    // dev server runs; a setting that cannot work stops here with its name (server/temporal-connection.ts).
    const temporal = loadTemporalConnection(env);
    if (!temporal.addressConfigured) {
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
      // The admin menu and the document detail link to it (management/info, administrators only).
      if (temporalUi && !env.TEMPORAL_UI_URL) env.TEMPORAL_UI_URL = temporalUi;
    }
    console.log('[start] migrating and seeding the database...');
    await migrateAndSeed(env.DATABASE_URL);
    buildWebIfStale();

    env.PORT = env.PORT ?? '8080';
    env.NODE_ENV = env.NODE_ENV ?? 'production';
    const isStopping = () => stopping;
    supervise('workflows/worker.ts', env, 'worker', children, isStopping, () => void shutdown(1));
    supervise('api/server.ts', env, 'api', children, isStopping, () => void shutdown(1));
    await waitForPort(Number(env.PORT), '127.0.0.1', 120000);

    console.log('');
    console.log(`  Workbench:    http://localhost:${env.PORT}   (admin/admin, user/user)`);
    console.log(`  Health:       http://localhost:${env.PORT}/management/health`);
    if (temporalUi) console.log(`  Temporal UI:  ${temporalUi}`);
    console.log(
      `  Temporal:     ${env.TEMPORAL_ADDRESS ?? temporal.address} (namespace ${temporal.namespace}` +
        `${temporal.mtls ? ', mTLS' : temporal.tls ? ', TLS' : ''}${temporal.authentication.includes('api-key') ? ', API key' : ''})`,
    );
    console.log(`  Database:     ${env.DATABASE_URL}`);
    console.log('  Ctrl-C stops everything.');
    console.log('');
  } catch (err) {
    console.error(`[start] ${(err as Error).message}`);
    await shutdown(err instanceof SettingError ? EXIT_CONFIG : 1);
  }
}

/**
 * Runs a child and starts it again when it dies (a crash of the API or the worker must not stop the
 * database and Temporal with it): after 1 s, doubling to 30 s while it keeps dying within a minute of its
 * start. A child that dies five times in a row within 10 s of starting (a configuration error) ends the
 * whole start with an error instead of looping.
 */
function supervise(
  entry: string,
  env: NodeJS.ProcessEnv,
  name: string,
  children: ChildProcess[],
  isStopping: () => boolean,
  giveUp: () => void,
): void {
  let delay = 1000;
  let quickDeaths = 0;
  const run = () => {
    const startedAt = Date.now();
    const child = spawnTs(entry, env, name);
    children.push(child);
    child.once('exit', (code, signal) => {
      children.splice(children.indexOf(child), 1);
      if (isStopping()) return;
      // A setting that cannot work (its line is above): starting again would only print it again.
      if (code === EXIT_CONFIG) {
        console.error(`[start] ${name} stopped on a setting that cannot work (above): stopping`);
        giveUp();
        return;
      }
      const lived = Date.now() - startedAt;
      quickDeaths = lived < 10000 ? quickDeaths + 1 : 0;
      if (quickDeaths >= 5) {
        console.error(`[start] ${name} keeps failing at start: stopping`);
        giveUp();
        return;
      }
      delay = lived > 60000 ? 1000 : Math.min(delay * 2, 30000);
      console.error(
        `[start] ${name} stopped (${signal ?? `code ${code}`}); starting it again in ${delay / 1000} s`,
      );
      setTimeout(() => {
        if (!isStopping()) run();
      }, delay);
    });
  };
  run();
}

void main();
