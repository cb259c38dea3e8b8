/**
 * The product on a real Temporal cluster (issue 26 section 2, scripts/lib/cluster.ts): the server built from
 * its Go module, persistence and visibility on the run's PostgreSQL, four services as separate processes, the
 * frontend serving mTLS. An API process and a worker process (scripts/lib/scale-out.ts) get nothing but the
 * cluster's Temporal variables; documents uploaded through the API are parsed by the worker and reach their
 * first human step (a manual CLF step WAITING), and the document workflows are found through the custom search
 * attributes (advanced visibility on PostgreSQL).
 *
 * Runs when `temporal-server` and `temporal-sql-tool` v1.32.2 are built (PATH or ~/go/bin: `npm run cluster`
 * and `.ci/run` build them once); when they are not, it says so on the console and in the skipped suite's
 * title, since building them takes minutes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import {
  clusterBinariesBuilt,
  freeClusterPort,
  startCluster,
  TEMPORAL_SERVER_VERSION,
  type RunningCluster,
} from '../../scripts/lib/cluster';
import { dropDatabase, splitDatabaseUrl } from '../../scripts/lib/postgres';
import { checkScaleOut, signIn, startScaleOut, type ScaleOutCluster } from '../../scripts/lib/scale-out';
import { documentWorkflowId } from '../../workflows/document-contract';
import { connectOptions, loadTemporalConnection, probeTemporalTls } from '../../server/temporal-connection';

jest.setTimeout(300_000);

const built = clusterBinariesBuilt();
const NOT_BUILT = `temporal-server / temporal-sql-tool ${TEMPORAL_SERVER_VERSION} not built (npm run cluster builds them)`;
if (!built) console.log(`[cluster test] skipped: ${NOT_BUILT}`);
const TITLE = 'the product on a Temporal cluster (mTLS, PostgreSQL, four services)';

(built ? describe : describe.skip)(built ? TITLE : `${TITLE}: SKIPPED, ${NOT_BUILT}`, () => {
  const database = `temporal_cluster_test_${process.pid}`;
  let dir: string;
  let cluster: RunningCluster | undefined;
  let app: ScaleOutCluster | undefined;
  let knex: Knex;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-test-'));
    knex = createKnex(process.env.DATABASE_URL!, { min: 0, max: 2 });
    cluster = await startCluster({
      dataDir: dir,
      frontendPort: await freeClusterPort(),
      database,
      log: () => {},
    });
    // Only Temporal's variables point the processes at the cluster (the run's own TEMPORAL_ADDRESS replaced).
    app = await startScaleOut({
      databaseUrl: process.env.DATABASE_URL!,
      temporalAddress: cluster.address,
      apis: 1,
      workers: 1,
      env: cluster.clientEnv,
    });
  });

  afterAll(async () => {
    await app?.stop();
    await cluster?.stop();
    const { serverUrl } = splitDatabaseUrl(process.env.DATABASE_URL!);
    for (const db of [database, `${database}_visibility`]) await dropDatabase(serverUrl, db).catch(() => {});
    await knex?.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('takes documents uploaded through the API to their first human step, over mTLS, found by their search attributes', async () => {
    const c = cluster!;
    expect(Object.values(c.processes).map((p) => p.exitCode)).toEqual([null, null, null, null]);
    // The members connect over mTLS (what management/health shows an administrator of its Temporal target).
    const api = app!.apis[0].url;
    const token = await signIn(api, 'admin', 'admin');
    const health = (await fetch(`${api}/management/health`, { headers: { Authorization: token } }).then((r) =>
      r.json(),
    )) as { components: { temporal: { status: string; details: Record<string, unknown> } } };
    expect(health.components.temporal).toMatchObject({ status: 'UP' });
    expect(health.components.temporal.details).toMatchObject({
      address: c.address,
      tls: true,
      mtls: true,
      authentication: 'mtls',
    });
    const report = await checkScaleOut(app!, knex, { documents: 2, timeoutMs: 120_000, humanStep: true });
    expect(report.documents.map((d) => [d.parserStatus, d.contentMatches, d.humanStepStatus])).toEqual([
      ['DONE', true, 'WAITING'],
      ['DONE', true, 'WAITING'],
    ]);

    const connection = await Connection.connect(connectOptions(loadTemporalConnection(c.clientEnv)));
    try {
      const client = new Client({ connection, namespace: c.namespace });
      const processId = (await knex('documents').where('id', report.documents[0].id).first('process_id'))
        .process_id as number;
      const found: string[] = [];
      const until = Date.now() + 60_000;
      while (found.length < 2 && Date.now() < until) {
        found.length = 0;
        for await (const w of client.workflow.list({ query: `ProcessId = ${processId}` }))
          found.push(w.workflowId);
        if (found.length < 2) await new Promise((r) => setTimeout(r, 1000));
      }
      expect(found.sort()).toEqual(report.documents.map((d) => documentWorkflowId(d.id)).sort());
    } finally {
      await connection.close();
    }
  });

  it('refuses a client without the cluster certificate', async () => {
    const c = cluster!;
    const { TEMPORAL_TLS_CLIENT_CERT_PATH: _c, TEMPORAL_TLS_CLIENT_KEY_PATH: _k, ...noClient } = c.clientEnv;
    await expect(probeTemporalTls(loadTemporalConnection(noClient))).rejects.toThrow(
      /certificate required|closed/,
    );
  });
});
