/**
 * `npm test`: the same preparation as `npm start` with a database and a Temporal dev server of its own
 * (embedded PostgreSQL in .data/test-pg unless TEST_DATABASE_URL names a server, an in-memory dev server),
 * one workflow bundle shared by the suites, the built web app served by a real API + worker for the
 * end-to-end suite, then jest over every project. The Debian programs the suites start are checked first and
 * installed when missing (scripts/lib/system-deps.ts). Extra arguments go to jest (e.g. `npm test -- domain`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import {
  createDatabaseIfMissing,
  dropDatabase,
  splitDatabaseUrl,
  startEmbeddedPostgres,
} from './lib/postgres';
import { startOpenAiServer } from '../tests/support/openai-server';
import { freePort, waitForPort } from './lib/ports';
import { buildWebIfStale, migrateAndSeed, ROOT, spawnTs } from './lib/prepare';
import { ensureSystemPrograms, locateTool } from './lib/system-deps';
import { ensureTemporalCli, startTemporalDevServer } from './lib/temporal';
import { ensureVersitygw } from './lib/versitygw';
import { ensureDex } from './lib/dex';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../server/temporal-context';

// Per run, so two runs on one machine do not overwrite each other's bundle and results.
const TEST_DIR = path.join(ROOT, '.data', 'test', String(process.pid));

async function main(): Promise<number> {
  const started = Date.now();
  const stops: (() => Promise<void>)[] = [];
  const children: ChildProcess[] = [];
  fs.mkdirSync(TEST_DIR, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
  try {
    // Every Debian program the suites start (the parser's, Chromium, sshd, Dovecot, espeak-ng), each checked,
    // what is missing installed, or the run stops with the one command to run (scripts/lib/system-deps.ts).
    await ensureSystemPrograms('test', ROOT, process.env);
    const chromium = locateTool('chromium', process.env)!;
    const cli = process.env.TEST_TEMPORAL_ADDRESS ? null : ensureTemporalCli();
    // The S3-compatible server of the S3 file store's suites (tests/support/s3.ts), built once from the Go
    // module proxy when missing, so no suite waits for the build.
    env.VERSITYGW_BIN = ensureVersitygw();
    // Dex, the OpenID Connect provider of the single sign-on suites (scripts/lib/dex.ts), built the same way.
    env.DEX_BIN = ensureDex();

    // PostgreSQL: one fresh database per run.
    const database = `workbench_test_${process.pid}`;
    let serverUrl: string;
    if (process.env.TEST_DATABASE_URL) {
      serverUrl = splitDatabaseUrl(process.env.TEST_DATABASE_URL).serverUrl;
    } else {
      // A cluster per run, so two runs on one machine do not share (and delete) each other's data.
      const dataDir = path.join(ROOT, '.data', `test-pg-${process.pid}`);
      fs.rmSync(dataDir, { recursive: true, force: true });
      const pg = await startEmbeddedPostgres(dataDir, { persistent: false });
      stops.push(async () => {
        await pg.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(`${dataDir}.port`, { force: true });
      });
      serverUrl = pg.serverUrl;
    }
    await createDatabaseIfMissing(serverUrl, database);
    stops.push(() => dropDatabase(serverUrl, database));
    env.DATABASE_URL = `${serverUrl}/${database}`;

    // Temporal: an in-memory dev server of this run (continue-as-new suggested early for the engine tests).
    const temporalPromise = cli
      ? startTemporalDevServer(cli, {
          uiPort: null,
          dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': 200 },
        })
      : null;
    const bundlePromise = bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows/index'),
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
    });
    await migrateAndSeed(env.DATABASE_URL);
    // SKIP_WEB_BUILD=1 serves whatever dist/web holds (for running API suites while the web app is mid-edit).
    if (!process.env.SKIP_WEB_BUILD) buildWebIfStale();
    const temporal = await temporalPromise;
    if (temporal) stops.push(() => temporal.stop());
    env.TEMPORAL_ADDRESS = temporal ? temporal.address : process.env.TEST_TEMPORAL_ADDRESS;
    const bundle = await bundlePromise;
    const bundlePath = path.join(TEST_DIR, 'workflow-bundle.js');
    fs.writeFileSync(bundlePath, bundle.code);
    env.WORKFLOW_BUNDLE_PATH = bundlePath;

    // The app as a user runs it (API + worker), for the end-to-end suite; its LLM prompt nodes talk to a local
    // OpenAI-compatible stand-in (tests/support/openai-server: an echo of the request), never to the internet.
    const chat = await startOpenAiServer();
    stops.push(() => chat.close());
    const appPort = await freePort();
    const appEnv = {
      ...env,
      LLM_BASE_URL: chat.baseUrl,
      PORT: String(appPort),
      TEMPORAL_TASK_QUEUE: 'workbench-e2e',
      NODE_ENV: 'production',
      // The API documentation is on, as an administrator who wants it runs the app (issue 15); so is RAG
      // (issue 16: the RAG row action and POST api/rag need the rag profile).
      APP_PROFILES: 'dev,api-docs,rag',
      // The worker serves its Temporal metrics here; the API reads them into management/prometheus.
      WORKER_METRICS_PORT: String(await freePort()),
      // The suites share the database: this worker must not move their nodes' schedules to its queue.
      SCHEDULE_SYNC: 'off',
      // Nor start workflows of documents the suites insert without one.
      DOCUMENT_SWEEP: 'off',
      WEBHOOK_SWEEP: 'off',
      // The webhook receiver of tests/e2e/webhooks.test.ts, admitted by name: loopback addresses as such stay
      // refused (tests/e2e/pollers.test.ts expects 127.0.0.1 refused).
      OUTBOUND_ALLOWLIST: 'localhost',
      // The dev server runs headless: the admin menu's link to the Temporal UI points nowhere real.
      TEMPORAL_UI_URL: 'http://127.0.0.1:8233',
    };
    children.push(spawnTs('workflows/worker.ts', appEnv, 'e2e-worker'));
    children.push(spawnTs('api/server.ts', appEnv, 'e2e-api'));
    stops.push(async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once('exit', () => resolve());
              c.kill('SIGTERM');
              setTimeout(() => c.kill('SIGKILL'), 10000).unref();
            }),
        ),
      );
    });
    await waitForPort(appPort, '127.0.0.1', 120000);
    env.E2E_BASE_URL = `http://localhost:${appPort}`;
    env.CHROMIUM_PATH = chromium;
    env.ARTIFACTS_DIR = path.join(ROOT, 'tests', 'artifacts');
    console.log(
      `[test] ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${env.DATABASE_URL}, Temporal ${env.TEMPORAL_ADDRESS}`,
    );

    const resultsFile = path.join(TEST_DIR, 'results.json');
    fs.rmSync(resultsFile, { force: true });
    const jestArgs = ['--maxWorkers=2', '--json', `--outputFile=${resultsFile}`, ...process.argv.slice(2)];
    const code = await new Promise<number>((resolve) => {
      const jest = spawn(path.join(ROOT, 'node_modules', '.bin', 'jest'), jestArgs, {
        cwd: ROOT,
        env,
        stdio: 'inherit',
      });
      jest.on('exit', (c) => resolve(c ?? 1));
    });
    if (fs.existsSync(resultsFile)) {
      const r = JSON.parse(fs.readFileSync(resultsFile, 'utf8')) as {
        numPassedTests: number;
        numFailedTests: number;
        numPendingTests: number;
        numTotalTests: number;
      };
      console.log(
        `\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`,
      );
      if (r.numTotalTests === 0) return 1;
    }
    return code;
  } finally {
    for (const stop of stops.reverse()) await stop().catch((e) => console.error('[test] cleanup:', e));
    fs.rmSync(TEST_DIR, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[test] failed to prepare:', err);
    process.exit(1);
  },
);
