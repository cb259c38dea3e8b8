/**
 * `npm run backup:trial`: backup and restore tried end to end on this machine (issue 27 section 4), with the
 * commands docs/operations.md gives an operator. Everything lives under a temporary folder (BACKUP_TRIAL_DIR to
 * keep it): a PostgreSQL server of its own from this machine's binaries (so pg_dump and pg_restore match its
 * version; scripts/lib/postgres-server.ts), the Temporal dev server with its SQLite file (as `npm start` runs
 * it), the files store, and the app (API + worker) on them.
 *
 * 1. BACKUP_TRIAL_DOCUMENTS (3) documents uploaded to upload -> classification; each waits at its step.
 * 2. The app and the dev server stop; backed up: `pg_dump -Fc` of the workbench database, a copy of the
 *    dev server's SQLite file, a tar of the files store.
 * 3. Wiped: the database dropped, the SQLite file and the files store deleted.
 * 4. Restored: `createdb` + `pg_restore`, the SQLite file and the files copied back; the dev server and the
 *    app start again.
 * 5. Checked: the same documents with their steps, each file by its hash, each `document-<id>` workflow
 *    RUNNING, and one classification step started and completed through the API (the restored workflow
 *    takes the Update and moves on).
 * Exits 0 when every check holds, 1 with the first that does not.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import type { Knex } from 'knex';
import { startApi } from '../api/server';
import { createKnex } from '../db/connection';
import { insertObligatoryUploadNode } from '../db/queries/nodes';
import { loadConfig } from '../server/config';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../server/temporal-context';
import { createWorker } from '../workflows/worker';
import { benchCaller, benchSignIn, type BenchCall } from './lib/bench-app';
import { createDatabaseIfMissing, dropDatabase } from './lib/postgres';
import { startPostgresServer } from './lib/postgres-server';
import { migrateAndSeed } from './lib/prepare';
import { ensureTemporalCli, startTemporalDevServer, type RunningTemporal } from './lib/temporal';

const say = (line: string) => console.log(`[backup-trial] ${line}`);

/** Runs a command as the operator would type it (printed), failing with its stderr. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  say(`$ ${[path.basename(cmd), ...args].join(' ')}`);
  try {
    execFileSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    throw new Error(
      `${path.basename(cmd)} failed: ${(err as { stderr?: Buffer }).stderr?.toString().trim()}`,
      {
        cause: err,
      },
    );
  }
}

interface App {
  call: BenchCall;
  knex: Knex;
  client: Client;
  stop(): Promise<void>;
}

async function startApp(o: {
  databaseUrl: string;
  temporal: RunningTemporal;
  workflowCode: string;
  filesDir: string;
}): Promise<App> {
  const taskQueue = 'workbench';
  const knex = createKnex(o.databaseUrl, { min: 0, max: 4 });
  const { worker, connection } = await createWorker({
    temporalAddress: o.temporal.address,
    namespace: 'default',
    taskQueue,
    knex,
    filesDir: o.filesDir,
    workflowBundle: { code: o.workflowCode },
  });
  const running = worker.run();
  const env = {
    ...process.env,
    DATABASE_URL: o.databaseUrl,
    PORT: '0',
    TEMPORAL_ADDRESS: o.temporal.address,
    TEMPORAL_TASK_QUEUE: taskQueue,
    FILES_DIR: o.filesDir,
  };
  const api = await startApi(loadConfig(env));
  const base = `http://127.0.0.1:${api.port}`;
  const clientConnection = await Connection.connect({ address: o.temporal.address });
  return {
    call: benchCaller(base, await benchSignIn(base, 'admin', 'admin')),
    knex,
    client: new Client({ connection: clientConnection }),
    async stop() {
      await api.close();
      worker.shutdown();
      await running;
      await connection.close();
      await clientConnection.close();
      await knex.destroy();
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const check = (ok: boolean, what: string) => {
  if (!ok) throw new Error(`check failed: ${what}`);
  say(`ok: ${what}`);
};

async function main(): Promise<number> {
  const keep = process.env.BACKUP_TRIAL_DIR;
  const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'backup-trial-'));
  fs.mkdirSync(dir, { recursive: true });
  const documents = Number(process.env.BACKUP_TRIAL_DOCUMENTS ?? 3);
  const filesDir = path.join(dir, 'files');
  const temporalDb = path.join(dir, 'temporal.db');
  const backup = path.join(dir, 'backup');
  fs.mkdirSync(filesDir, { recursive: true });
  fs.mkdirSync(backup, { recursive: true });
  const cli = ensureTemporalCli();
  const stops: (() => Promise<void>)[] = [];
  let temporal: RunningTemporal | undefined;
  let app: App | undefined;
  try {
    say(`working in ${dir}`);
    const pg = await startPostgresServer(path.join(dir, 'pg'));
    stops.push(() => pg.stop());
    const databaseUrl = `${pg.serverUrl}/workbench`;
    const bin = (name: string) => path.join(pg.binDir, name);
    if (!fs.existsSync(bin('pg_dump')))
      throw new Error(`no pg_dump in ${pg.binDir} (Debian: apt-get install postgresql; or set POSTGRES_BIN)`);
    await createDatabaseIfMissing(pg.serverUrl, 'workbench');
    await migrateAndSeed(databaseUrl, ['dev']);
    const workflowCode = (
      await bundleWorkflowCode({
        workflowsPath: require.resolve('../workflows/index'),
        workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
        logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
      })
    ).code;

    // 1. Documents waiting at their first human step.
    temporal = await startTemporalDevServer(cli, { dbFile: temporalDb, uiPort: null });
    app = await startApp({ databaseUrl, temporal, workflowCode, filesDir });
    const [proc] = await app.knex('processes').insert({ name: 'Backup trial' }).returning('id');
    const upload = (await insertObligatoryUploadNode(app.knex, proc.id)).id;
    const [clf] = await app
      .knex('nodes')
      .insert({ process_id: proc.id, name: 'Classify', activity_type: 'CLF', automatic: false })
      .returning('id');
    await app.knex('edges').insert({ process_id: proc.id, from_id: upload, to_id: clf.id });
    const ids: number[] = [];
    const hashes = new Map<number, string>();
    for (let i = 0; i < documents; i++) {
      const bytes = Buffer.from(`Document ${i} of the backup trial ${crypto.randomUUID()}\n`);
      const form = new FormData();
      form.append('nodeId', String(upload));
      form.append('file', new Blob([new Uint8Array(bytes)]), `trial-${i}.txt`);
      const { id, path: key } = await app.call<{ id: number; path: string }>(
        'POST',
        '/api/file-upload',
        form,
      );
      ids.push(id);
      hashes.set(id, key);
    }
    const waitingSteps = (knex: Knex) =>
      until(`${documents} steps waiting at the classification`, async () => {
        const rows = await knex('steps')
          .where({ node_id: clf.id, status: 'WAITING' })
          .whereIn('document_id', ids);
        return rows.length === documents ? rows : undefined;
      });
    const before = await waitingSteps(app.knex);
    say(`${documents} documents wait at their classification step`);
    await app.stop();
    app = undefined;
    await temporal.stop();
    temporal = undefined;

    // 2. Backup (the dev server stopped: its SQLite file is copied whole).
    run(bin('pg_dump'), ['-Fc', '-f', path.join(backup, 'workbench.dump'), '-d', databaseUrl]);
    run('cp', [temporalDb, path.join(backup, 'temporal.db')]);
    run('tar', ['-C', filesDir, '-czf', path.join(backup, 'files.tar.gz'), '.']);

    // 3. Wipe.
    await dropDatabase(pg.serverUrl, 'workbench');
    fs.rmSync(temporalDb, { force: true });
    fs.rmSync(filesDir, { recursive: true, force: true });
    say('wiped: database dropped, temporal.db and the files store deleted');

    // 4. Restore.
    run(bin('createdb'), [`--maintenance-db=${pg.serverUrl}/postgres`, 'workbench']);
    run(bin('pg_restore'), ['--no-owner', '-d', databaseUrl, path.join(backup, 'workbench.dump')]);
    run('cp', [path.join(backup, 'temporal.db'), temporalDb]);
    fs.mkdirSync(filesDir, { recursive: true });
    run('tar', ['-C', filesDir, '-xzf', path.join(backup, 'files.tar.gz')]);
    temporal = await startTemporalDevServer(cli, { dbFile: temporalDb, uiPort: null });
    app = await startApp({ databaseUrl, temporal, workflowCode, filesDir });

    // 5. Checks.
    const restored = app;
    const after = await waitingSteps(restored.knex);
    check(
      JSON.stringify(after.map((s) => s.id).sort()) === JSON.stringify(before.map((s) => s.id).sort()),
      `the ${documents} documents are back with their waiting steps`,
    );
    for (const id of ids) {
      const bytes = fs.readFileSync(path.join(filesDir, hashes.get(id)!));
      check(
        crypto.createHash('sha256').update(bytes).digest('hex') === path.basename(hashes.get(id)!),
        `document ${id}'s file is back and matches its hash`,
      );
      const described = await restored.client.workflow.getHandle(`document-${id}`).describe();
      check(described.status.name === 'RUNNING', `workflow document-${id} is RUNNING`);
    }
    const step = after[0];
    await restored.call('POST', `/api/step/assign?docId=${step.document_id}&nodeId=${clf.id}`);
    say(`the admin started working on step ${step.id}`);
    const completed = await restored.call<{ status: string }>('PUT', `/api/steps/${step.id}/complete`);
    check(
      completed.status === 'DONE',
      `the restored workflow completed step ${step.id} (${completed.status})`,
    );
    say('backup and restore: every check held');
    return 0;
  } catch (err) {
    console.error(`[backup-trial] ${(err as Error).message}`);
    return 1;
  } finally {
    await app?.stop().catch((e) => console.error(e));
    await temporal?.stop().catch((e) => console.error(e));
    for (const stop of stops.reverse()) await stop().catch((e) => console.error(e));
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code));
