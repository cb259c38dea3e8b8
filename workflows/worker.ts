/**
 * Worker process entry: `tsx workflows/worker.ts`. Registers the workflows of workflows/index.ts and the
 * activities of activities/ on the task queue, and a second Worker on the webhook task queue
 * (WEBHOOK_TASK_QUEUE, default `<TEMPORAL_TASK_QUEUE>-webhooks`) that runs the webhook delivery workflows and
 * their activity, so deliveries do not wait behind the document workflows' tasks. Not part of the workflow
 * bundle.
 */
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type State,
  type WorkerOptions,
} from '@temporalio/worker';
import { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { loadWorkerConfig, webhookTaskQueueOf, type WorkerConfig } from '../server/config';
import { dataKeyring } from '../db/crypto';
import { startDocumentWorkflow, startMissingDocumentWorkflows } from '../server/document-workflows';
import { syncAllSchedules } from '../server/schedules';
import { sweepWebhookDeliveries, wakeWebhookDeliveries } from '../server/webhook-dispatch';
import { createActivities, type ActivityDeps } from '../activities';
import { createWebhookActivities } from '../activities/webhooks';
import type { ActionDeps } from '../activities/actions';
import { createKnex } from '../db/connection';
import { ACTION_BATCH_WORKFLOW, actionBatchWorkflowId } from './action-contract';
import { getLogger, sdkLogFunction } from '../server/logger';
import { ensureSearchAttributes } from '../server/search-attributes';
import { requestIdInterceptors, WORKFLOW_INTERCEPTOR_MODULES } from '../server/temporal-context';
import { connectOptions, probeTemporalTls } from '../server/temporal-connection';
import { exitOnSettingError } from '../server/setting-error';
import { checkDatabaseUrl, probeDatabase } from '../server/database-connection';
import { databaseAnswers } from '../db/queries/health';
import { startHealthServer } from '../server/health';
import { openFileStore, type ObjectStoreSettings } from '../server/files';
import { setParserConcurrency } from '../activities/parser/concurrency';

const log = getLogger('worker');

export interface WorkerSettings {
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  /** The queue of webhook deliveries; WEBHOOK_TASK_QUEUE of the environment, else `<taskQueue>-webhooks`. */
  webhookTaskQueue?: string;
  knex: Knex;
  /** Root of the stored files; default FILES_DIR (relative to the project) or `.data/files`, as the API. */
  filesDir?: string;
  /** The bucket of the files (FILES_STORE, server/files-s3.ts), null for the directory; as the environment's when absent. */
  filesStore?: ObjectStoreSettings | null;
  /** Speech recognition engine of the parser; pocketsphinx when absent. */
  asr?: ActivityDeps['asr'];
  /** OUTBOUND_ALLOWLIST of the deployment; from the environment when absent. */
  outboundAllowlist?: string[];
  /** LLM_BASE_URL of the deployment (chat API of LLM prompt nodes); from the environment when absent. */
  llmBaseUrl?: string;
  /** DRIVE_API_BASE_URL of the deployment (cloud-drive nodes); from the environment when absent. */
  driveApiBaseUrl?: string;
  /** EMBEDDINGS_* of the deployment (dense RAG retrieval; null: lexical only); from the environment when absent. */
  embeddings?: ActivityDeps['embeddings'];
  /** Token endpoint and client of cloud-drive connections; GOOGLE_OAUTH_* of the environment when absent. */
  googleOAuth?: ActionDeps['googleOAuth'];
  /** Time limit of one document's lexicon matching in ms; LEXICON_TIMEOUT_SECONDS of the environment when absent. */
  lexiconTimeoutMs?: number;
  /** WEBHOOK_RETRY_HOURS in ms; from the environment when absent. */
  webhookRetryMs?: number;
  /** The environment's settings (server/config.ts loadWorkerConfig), read from process.env when absent. */
  config?: WorkerConfig;
  /** A prebuilt bundle (tests share one); otherwise the worker bundles workflows/index.ts itself. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

let runtimeInstalled = false;

/**
 * The SDK logs every worker state change at INFO; keep warnings and errors (LOG_LEVEL overrides). With a
 * metrics port (WORKER_METRICS_PORT) the runtime serves the SDK's Prometheus metrics there: task slots,
 * poll and schedule-to-start latencies, workflow task and activity execution latencies and failures.
 */
function installRuntime(metricsPort: number | null = null): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  try {
    const level = (process.env.TEMPORAL_LOG_LEVEL ?? 'WARN') as 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
    Runtime.install({
      // the SDK's lines as JSON lines like ours (server/logger.ts), not its plain text
      logger: new DefaultLogger(level, sdkLogFunction()),
      ...(metricsPort
        ? { telemetryOptions: { metrics: { prometheus: { bindAddress: `0.0.0.0:${metricsPort}` } } } }
        : {}),
    });
  } catch {
    // already installed by the host process
  }
}

/**
 * The Workers of one process run, stopped and reported as one: the main queue's and the webhook queue's.
 * `run` resolves when both have stopped (one that fails stops the other, and the failure is thrown).
 */
export class WorkerGroup {
  constructor(readonly workers: readonly Worker[]) {}

  /** RUNNING when all are; otherwise the state of the first that is not. */
  getState(): State {
    return this.workers.map((w) => w.getState()).find((st) => st !== 'RUNNING') ?? 'RUNNING';
  }

  async run(): Promise<void> {
    const runs = this.workers.map((w) =>
      w.run().catch((err: unknown) => {
        this.shutdown();
        throw err;
      }),
    );
    const settled = await Promise.allSettled(runs);
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Starts the shutdown of those still running (Worker.shutdown throws for one that is not). */
  shutdown(): void {
    for (const w of this.workers) if (w.getState() === 'RUNNING') w.shutdown();
  }
}

export async function createWorker(
  s: WorkerSettings,
): Promise<{ worker: WorkerGroup; connection: NativeConnection }> {
  // What the settings leave out comes from the environment, read as the API reads it (server/config.ts).
  const env: WorkerConfig = s.config ?? loadWorkerConfig();
  installRuntime(s.config?.metricsPort ?? null);
  // Caps on LibreOffice, OCR and speech recognition runs at once in this process (defaults from the cores).
  setParserConcurrency(env.parserConcurrency);
  const deps: ActivityDeps = {
    knex: s.knex,
    filesDir: s.filesDir ?? env.filesDir,
    filesStore: s.filesStore !== undefined ? s.filesStore : env.filesStore,
    asr: s.asr ?? env.asr,
    outboundAllowlist: s.outboundAllowlist ?? env.outboundAllowlist,
    llmBaseUrl: s.llmBaseUrl ?? env.llmBaseUrl,
    driveApiBaseUrl: s.driveApiBaseUrl ?? env.driveApiBaseUrl,
    embeddings: s.embeddings !== undefined ? s.embeddings : env.embeddings,
    googleOAuth: s.googleOAuth ?? env.googleOAuth,
    uploadMaxBytes: env.uploadMaxBytes,
    officeMaxUncompressedBytes: env.officeMaxUncompressedBytes,
    lexiconTimeoutMs: s.lexiconTimeoutMs ?? env.lexiconTimeoutMs,
    webhookRetryMs: s.webhookRetryMs ?? env.webhookRetryMs,
  };
  // TLS, mTLS and API key as the environment configures them (server/temporal-connection.ts); a TLS setting
  // the server refuses is reported by name rather than as the SDK's connection error.
  await probeTemporalTls(env.temporal, s.temporalAddress);
  const connection = await NativeConnection.connect(connectOptions(env.temporal, s.temporalAddress));
  await ensureSearchAttributes(connection, s.namespace);
  // IPS nodes start the documents they create in other processes on this worker's task queue.
  const client = new Client({
    connection,
    namespace: s.namespace,
    interceptors: { workflow: requestIdInterceptors.client },
  });
  deps.startDocument = (input) => startDocumentWorkflow(client, input, s.taskQueue);
  // The projection wakes the delivery workflows of the webhook events it stored, on their own queue.
  const webhookTaskQueue = webhookTaskQueueOf({
    taskQueue: s.taskQueue,
    webhookTaskQueue: s.webhookTaskQueue ?? env.webhookTaskQueue,
  });
  deps.wakeWebhooks = (pairs) =>
    wakeWebhookDeliveries(client, { taskQueue: s.taskQueue, webhookTaskQueue }, pairs);
  // A THRESHOLD reached starts the batch's workflow.
  deps.startActionBatch = (input) =>
    client.workflow.start(ACTION_BATCH_WORKFLOW, {
      taskQueue: s.taskQueue,
      workflowId: actionBatchWorkflowId(input.batchId),
      args: [input],
    });
  // One bundle for both Workers (each would bundle workflows/index.ts again); a prebuilt one carries the
  // workflow interceptor itself (bundleWorkflowCode with WORKFLOW_INTERCEPTOR_MODULES).
  const workflowBundle =
    s.workflowBundle ??
    (await bundleWorkflowCode({
      workflowsPath: require.resolve('./index'),
      workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
      logger: new DefaultLogger('WARN', sdkLogFunction()),
    }));
  const common = {
    connection,
    namespace: s.namespace,
    workflowBundle,
    // The request id of the API call that started a workflow reaches its activities.
    interceptors: { activity: [requestIdInterceptors.activity] },
    // On SIGTERM running activities get this long to finish before they are cancelled (WORKER_SHUTDOWN_GRACE).
    shutdownGraceTime: env.shutdownGraceMs,
  } satisfies Partial<WorkerOptions>;
  const main = await Worker.create({
    ...common,
    taskQueue: s.taskQueue,
    // all activities: delivery workflows started on this queue before it had its own still finish here
    activities: createActivities(deps),
  });
  // Webhook deliveries: their workflow and its activity (webhook-delivery.ts proxies on its own queue).
  const webhooks = await Worker.create({
    ...common,
    taskQueue: webhookTaskQueue,
    activities: createWebhookActivities(deps),
  });
  const worker = new WorkerGroup([main, webhooks]);
  return { worker, connection };
}

if (require.main === module) {
  let config: WorkerConfig;
  try {
    config = loadWorkerConfig();
    if (!config.databaseUrl) throw new Error('DATABASE_URL is not set');
    // DATABASE_URL's TLS files, before knex reads them (server/database-connection.ts).
    checkDatabaseUrl(config.databaseUrl);
  } catch (err) {
    exitOnSettingError(err, log);
    throw err;
  }
  const { taskQueue, temporalNamespace: namespace } = config;
  const databaseUrl = config.databaseUrl!;
  // A malformed DATA_ENCRYPTION_KEY stops the start here, not at the first credential a step reads.
  dataKeyring();
  const knex = createKnex(databaseUrl);
  // Liveness answers from the start; readiness once the worker polls, with the database, Temporal and the
  // files store UP (WORKER_HEALTH_PORT).
  let ready: { worker: WorkerGroup; connection: NativeConnection } | null = null;
  const health = config.healthPort
    ? startHealthServer(config.healthPort, [
        { name: 'db', check: () => databaseAnswers(knex) },
        {
          name: 'temporal',
          check: async () => {
            if (ready?.worker.getState() !== 'RUNNING') return false;
            const c = ready.connection;
            await c.withDeadline(Date.now() + 3000, () => c.healthService.check({}));
            return true;
          },
        },
        {
          name: 'filesStore',
          check: async () => (await openFileStore(config).health(config.diskMinFreeBytes)).status === 'UP',
        },
      ])
    : null;
  health?.catch((err) => {
    log.error(`health port ${config.healthPort} cannot be served`, { error: err as Error });
    process.exit(1);
  });
  // A setting that cannot work (a CA that did not sign the server) stops the start before Temporal is dialled.
  probeDatabase(databaseUrl)
    .then((reachable) => {
      if (!reachable) log.warn('the database is not reachable yet: readiness reports it DOWN until it is');
    })
    .then(() =>
      createWorker({
        temporalAddress: config.temporalAddress,
        namespace,
        taskQueue,
        knex,
        config,
        // A prebuilt bundle (WORKFLOW_BUNDLE_PATH: `npm test` shares one) spares each worker process bundling.
        workflowBundle: config.workflowBundlePath ? { codePath: config.workflowBundlePath } : undefined,
      }),
    )
    .then(async ({ worker, connection }) => {
      ready = { worker, connection };
      log.info(`polling task queues ${taskQueue} and ${webhookTaskQueueOf(config)}`, {
        ...(config.metricsPort ? { metrics: `http://0.0.0.0:${config.metricsPort}/metrics` } : {}),
        ...(config.healthPort ? { health: `http://0.0.0.0:${config.healthPort}/management/health` } : {}),
      });
      // Schedules of nodes changed while Temporal was unreachable (the API syncs them on each change).
      const client = new Client({ connection, namespace });
      if (config.scheduleSync)
        syncAllSchedules(client, knex, taskQueue).catch((err) =>
          log.error('schedules not synchronised', { error: err as Error }),
        );
      // Documents an interrupted upload stored without starting their workflow (DOCUMENT_SWEEP).
      const sweep = config.documentSweep;
      const sweeping = sweep
        ? setInterval(() => {
            startMissingDocumentWorkflows(client, knex, taskQueue, { olderThanMs: sweep.olderThanMs }).then(
              (ids) => ids.length && log.warn(`started the unstarted documents ${ids.join(', ')}`),
              (err) => log.error('document sweep failed', { error: err as Error }),
            );
          }, sweep.everyMs)
        : undefined;
      // Webhook deliveries whose writer died before waking their workflow (WEBHOOK_SWEEP).
      const hooks = config.webhookSweep;
      const sweepingHooks = hooks
        ? setInterval(() => {
            sweepWebhookDeliveries(client, knex, config, hooks.olderThanMs).then(
              (n) => n && log.warn(`woke the delivery workflows of ${n} unattempted webhook deliveries`),
              (err) => log.error('webhook sweep failed', { error: err as Error }),
            );
          }, hooks.everyMs)
        : undefined;
      // The SDK's runtime shuts the worker down on SIGINT and SIGTERM by itself.
      await worker.run();
      clearInterval(sweeping);
      clearInterval(sweepingHooks);
      (await health)?.close();
      await connection.close();
      await knex.destroy();
    })
    .catch((err) => {
      exitOnSettingError(err, log);
      log.error('failed', { error: err as Error });
      process.exit(1);
    });
}
