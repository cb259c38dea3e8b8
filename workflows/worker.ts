/**
 * Worker process entry: `tsx workflows/worker.ts`. Registers the workflows of workflows/index.ts and the
 * activities of activities/ on the task queue. Not part of the workflow bundle.
 */
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { loadAsrConfig } from '../server/config';
import { dataKeyring } from '../db/crypto';
import { startDocumentWorkflow, startMissingDocumentWorkflows } from '../server/document-workflows';
import { syncAllSchedules } from '../server/schedules';
import { createActivities, type ActivityDeps } from '../activities';
import type { ActionDeps } from '../activities/actions';
import { DEFAULT_LLM_BASE_URL } from '../activities/actions/llm-prompt';
import { createKnex } from '../db/connection';
import { officeLimitsFromEnv } from '../activities/parser/office';
import { ACTION_BATCH_WORKFLOW, actionBatchWorkflowId } from './action-contract';

export interface WorkerSettings {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  knex: Knex;
  /** Root of the stored files; default FILES_DIR (relative to the project) or `.data/files`, as the API. */
  filesDir?: string;
  /** Speech recognition engine of the parser; pocketsphinx when absent. */
  asr?: ActivityDeps['asr'];
  /** OUTBOUND_ALLOWLIST of the deployment; from the environment when absent. */
  outboundAllowlist?: string[];
  /** LLM_BASE_URL of the deployment (chat API of LLM prompt nodes); from the environment when absent. */
  llmBaseUrl?: string;
  /** DRIVE_API_BASE_URL of the deployment (cloud-drive nodes); from the environment when absent. */
  driveApiBaseUrl?: string;
  /** Token endpoint and client of cloud-drive connections; GOOGLE_OAUTH_* of the environment when absent. */
  googleOAuth?: ActionDeps['googleOAuth'];
  /** Time limit of one document's lexicon matching in ms; LEXICON_TIMEOUT_SECONDS of the environment when absent. */
  lexiconTimeoutMs?: number;
  /** A prebuilt bundle (tests share one); otherwise the worker bundles workflows/index.ts itself. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

/** The same default as server/config.ts filesDir, so the API and the worker read one directory. */
export function defaultFilesDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(__dirname, '..', env.FILES_DIR ?? path.join('.data', 'files'));
}

/** Speech engine of the parser from the environment (ASR_ENGINE, WHISPER_*), checked as the API checks it. */
export const asrFromEnv = (env: NodeJS.ProcessEnv = process.env): ActivityDeps['asr'] => loadAsrConfig(env);

/** The net guard's allowlist of actions (mail, requests, SFTP), as the API reads it. */
export const outboundAllowlistFromEnv = (env: NodeJS.ProcessEnv = process.env): string[] =>
  (env.OUTBOUND_ALLOWLIST ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** The chat API of LLM prompt nodes, as the API reads it (server/config.ts llmBaseUrl). */
export const llmBaseUrlFromEnv = (env: NodeJS.ProcessEnv = process.env): string =>
  env.LLM_BASE_URL || DEFAULT_LLM_BASE_URL;

/** The Drive v3 API of cloud-drive nodes (DRIVE_API_BASE_URL), Google's by default. */
export const driveApiBaseUrlFromEnv = (env: NodeJS.ProcessEnv = process.env): string =>
  env.DRIVE_API_BASE_URL || 'https://www.googleapis.com';

/** The OAuth client of cloud-drive connections, as the API reads it (server/config.ts googleOAuth). */
export const googleOAuthFromEnv = (env: NodeJS.ProcessEnv = process.env): ActionDeps['googleOAuth'] => ({
  tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
  clientId: env.GOOGLE_OAUTH_CLIENT_ID ?? '',
  clientSecret: env.GOOGLE_OAUTH_CLIENT_SECRET ?? '',
});

/**
 * The sweep of documents stored without a workflow (server/document-workflows.ts): every DOCUMENT_SWEEP_SECONDS
 * (60), documents older than that with no step; null with DOCUMENT_SWEEP=off (the test suites' workers,
 * whose shared database holds documents that suites insert without a workflow on purpose).
 */
export function documentSweepFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): { everyMs: number; olderThanMs: number } | null {
  if (env.DOCUMENT_SWEEP === 'off') return null;
  const seconds = Number(env.DOCUMENT_SWEEP_SECONDS ?? 60);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(
      `DOCUMENT_SWEEP_SECONDS must be a positive number of seconds (is ${env.DOCUMENT_SWEEP_SECONDS})`,
    );
  return { everyMs: seconds * 1000, olderThanMs: seconds * 1000 };
}

let runtimeInstalled = false;

/** The SDK logs every worker state change at INFO; keep warnings and errors (LOG_LEVEL overrides). */
function installRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    const level = (process.env.TEMPORAL_LOG_LEVEL ?? 'WARN') as 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
    Runtime.install({ logger: new DefaultLogger(level) });
  } catch {
    // already installed by the host process
  }
}

export async function createWorker(
  s: WorkerSettings,
): Promise<{ worker: Worker; connection: NativeConnection }> {
  installRuntime();
  const deps: ActivityDeps = {
    knex: s.knex,
    filesDir: s.filesDir ?? defaultFilesDir(),
    asr: s.asr ?? asrFromEnv(),
    outboundAllowlist: s.outboundAllowlist ?? outboundAllowlistFromEnv(),
    llmBaseUrl: s.llmBaseUrl ?? llmBaseUrlFromEnv(),
    driveApiBaseUrl: s.driveApiBaseUrl ?? driveApiBaseUrlFromEnv(),
    googleOAuth: s.googleOAuth ?? googleOAuthFromEnv(),
    uploadMaxBytes: Number(process.env.UPLOAD_MAX_BYTES ?? 50 * 1024 * 1024),
    officeMaxUncompressedBytes: officeLimitsFromEnv().maxUncompressedBytes,
    lexiconTimeoutMs:
      s.lexiconTimeoutMs ??
      (process.env.LEXICON_TIMEOUT_SECONDS ? Number(process.env.LEXICON_TIMEOUT_SECONDS) * 1000 : undefined),
  };
  const connection = await NativeConnection.connect({ address: s.temporalAddress });
  // IPS nodes start the documents they create in other processes on this worker's task queue.
  const client = new Client({ connection, namespace: s.namespace });
  deps.startDocument = (input) => startDocumentWorkflow(client, input, s.taskQueue);
  // A THRESHOLD reached starts the batch's workflow.
  deps.startActionBatch = (input) =>
    client.workflow.start(ACTION_BATCH_WORKFLOW, {
      taskQueue: s.taskQueue,
      workflowId: actionBatchWorkflowId(input.batchId),
      args: [input],
    });
  const worker = await Worker.create({
    connection,
    namespace: s.namespace,
    taskQueue: s.taskQueue,
    ...(s.workflowBundle
      ? { workflowBundle: s.workflowBundle }
      : { workflowsPath: require.resolve('./index') }),
    activities: createActivities(deps),
  });
  return { worker, connection };
}

if (require.main === module) {
  const env = process.env;
  if (!env.DATABASE_URL) throw new Error('DATABASE_URL is not set');
  // A malformed DATA_ENCRYPTION_KEY stops the start here, not at the first credential a step reads.
  dataKeyring();
  const knex = createKnex(env.DATABASE_URL);
  createWorker({
    temporalAddress: env.TEMPORAL_ADDRESS ?? 'localhost:7233',
    namespace: env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'workbench',
    knex,
    filesDir: defaultFilesDir(env),
    asr: asrFromEnv(env),
    // A prebuilt bundle (WORKFLOW_BUNDLE_PATH: `npm test` shares one) spares each worker process bundling.
    workflowBundle: env.WORKFLOW_BUNDLE_PATH ? { codePath: env.WORKFLOW_BUNDLE_PATH } : undefined,
  })
    .then(async ({ worker, connection }) => {
      const taskQueue = env.TEMPORAL_TASK_QUEUE ?? 'workbench';
      console.log(`[worker] polling task queue ${taskQueue}`);
      // Schedules of nodes changed while Temporal was unreachable (the API syncs them on each change).
      const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE ?? 'default' });
      if (env.SCHEDULE_SYNC !== 'off')
        syncAllSchedules(client, knex, taskQueue).catch((err) =>
          console.error('[worker] schedules not synchronised:', err),
        );
      // Documents an interrupted upload stored without starting their workflow (DOCUMENT_SWEEP).
      const sweep = documentSweepFromEnv(env);
      const sweeping = sweep
        ? setInterval(() => {
            startMissingDocumentWorkflows(client, knex, taskQueue, { olderThanMs: sweep.olderThanMs }).then(
              (ids) =>
                ids.length && console.warn(`[worker] started the unstarted documents ${ids.join(', ')}`),
              (err) => console.error('[worker] document sweep failed:', err),
            );
          }, sweep.everyMs)
        : undefined;
      // The SDK's runtime shuts the worker down on SIGINT and SIGTERM by itself.
      await worker.run();
      clearInterval(sweeping);
      await connection.close();
      await knex.destroy();
    })
    .catch((err) => {
      console.error('[worker] failed:', err);
      process.exit(1);
    });
}
