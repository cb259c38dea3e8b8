/**
 * PostgreSQL over TLS (issue 27 section 2): a PostgreSQL server of this suite (this machine's binaries, in a
 * temporary data directory on a free port: scripts/lib/postgres-server.ts) with ssl=on, a certificate made by openssl
 * for `localhost`, and pg_hba.conf accepting TLS connections only. Migrations, the API and a worker run on it by
 * `DATABASE_URL=...?sslmode=verify-full&sslrootcert=<CA>` alone: a document uploaded reaches its first human
 * step, a statistics query and an export (a server-side cursor) answer. A CA that did not sign the server stops
 * the API, the worker and `npm run migrate` at start with one line naming DATABASE_URL's sslrootcert; a URL
 * with another host name than the certificate's, or without TLS, is refused.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import { makeCa, makeLeaf } from '../../scripts/lib/certs';
import { migrateAndSeed } from '../../scripts/lib/prepare';
import { createDatabaseIfMissing } from '../../scripts/lib/postgres';
import { startPostgresServer, type PostgresServer } from '../../scripts/lib/postgres-server';
import { DatabaseSettingError, probeDatabase } from '../../server/database-connection';
import { EXIT_CONFIG } from '../../server/setting-error';
import { GraphBuilder, startWorkers, stepReaching } from '../support/engine';
import { runEntry } from '../support/entry';
import { buildProcess, call, login, startTestApi, type TestApi } from '../support/harness';

describe('PostgreSQL over TLS (DATABASE_URL sslmode=verify-full, sslrootcert)', () => {
  let dir: string;
  let pg: PostgresServer;
  let ca: { cert: string; key: string };
  let wrongCa: { cert: string; key: string };
  /** The server with user and password, no database, no parameters. */
  const server = (host = 'localhost') => `postgres://postgres:postgres@${host}:${pg.port}`;
  const verifyFull = (rootCert: string) => `?sslmode=verify-full&sslrootcert=${rootCert}`;
  const databaseUrl = () => `${server()}/workbench${verifyFull(ca.cert)}`;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postgres-tls-'));
    ca = makeCa(path.join(dir, 'certs'), 'ca', '/CN=Workbench PostgreSQL CA');
    // For the name `localhost` only: a URL with 127.0.0.1 reaches the same server under a name it lacks.
    const serverCert = makeLeaf(path.join(dir, 'certs'), ca, 'server', {
      commonName: 'localhost',
      usage: 'server',
      dnsNames: ['localhost'],
    });
    wrongCa = makeCa(path.join(dir, 'wrong'), 'ca', '/CN=Some other CA');
    pg = await startPostgresServer(path.join(dir, 'data'), { tls: serverCert });
    await createDatabaseIfMissing(server(), 'workbench', verifyFull(ca.cert));
  });
  afterAll(async () => {
    await pg?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('migrations, the API and a worker on it', () => {
    const taskQueue = `test-pg-tls-${crypto.randomUUID()}`;
    let filesDir: string;
    let knex: Knex;
    let api: TestApi;
    let workers: { stop(): Promise<void> };

    beforeAll(async () => {
      filesDir = fs.mkdtempSync(path.join(dir, 'files-'));
      await migrateAndSeed(databaseUrl(), ['dev']);
      knex = createKnex(databaseUrl(), { min: 0, max: 4 });
      // The run's Temporal server is shared with every suite: document workflows are `document-<id>`, and the
      // shared database's documents took the low ids, some still open. This database's documents start far
      // above them, or the upload's workflow start meets an open `document-1` and the document never walks.
      await knex.raw(`select setval('documents_id_seq', ?)`, [2_000_000_000 + crypto.randomInt(1_000_000)]);
      api = await startTestApi({ databaseUrl: databaseUrl(), taskQueue, filesDir });
      workers = await startWorkers({ filesDir, databaseUrl: databaseUrl() }, [
        { taskQueue, outboundAllowlist: [] },
      ]);
    });
    afterAll(async () => {
      await workers?.stop();
      await api?.close();
      await knex?.destroy();
    });

    it('takes an uploaded document to its first human step, answers a statistics query and an export', async () => {
      const admin = await login(api.baseUrl, 'admin', 'admin');
      const processId = (await buildProcess(knex)).id;
      const upload = (await insertObligatoryUploadNode(knex, processId)).id;
      const graph = new GraphBuilder(knex, processId);
      const clf = await graph.node('CLF');
      await graph.edge(upload, clf);
      const invoice = await graph.classifierType(clf, 'invoice');

      const form = new FormData();
      form.append('nodeId', String(upload));
      form.append('file', new Blob([`Invoice ${crypto.randomUUID()}\n`]), 'invoice.txt');
      const res = await fetch(`${api.baseUrl}/api/file-upload`, {
        method: 'POST',
        body: form,
        headers: { Authorization: `Bearer ${admin}` },
      });
      expect(res.status).toBe(201);
      const documentId = ((await res.json()) as { id: number }).id;
      const step = await stepReaching(knex, documentId, clf, ['WAITING']);

      // The annotator's work, written as the workspace would leave it: the step DONE with its class.
      await knex('classifier_tags').insert({
        document_id: documentId,
        step_id: step.id,
        node_id: clf,
        classifier_type_id: invoice,
      });
      await knex('steps').where({ id: step.id }).update({ status: 'DONE', last_modified_date: new Date() });

      const today = new Date().toISOString().slice(0, 10);
      const statistics = await call(api.baseUrl, '/api/statistics', {
        token: admin,
        json: { type: 'NODE_ACTIVITY', processId, dateFrom: today, dateTo: today, zoneId: 'UTC' },
      });
      expect(statistics.status).toBe(200);
      expect(statistics.body).toMatchObject({ type: 'NODE_ACTIVITY', rows: expect.any(Array) });

      const exported = await call(api.baseUrl, `/api/nodes/${clf}/export-step-result`, { token: admin });
      expect(exported.status).toBe(200);
      expect(exported.body).toEqual([
        expect.objectContaining({ documentId, stepId: step.id, status: 'DONE', classes: ['invoice'] }),
      ]);

      // Every connection the API, the worker and this suite hold is a TLS one (pg_hba.conf admits no other).
      const { rows } = await knex.raw(
        `select count(*)::int as connections, bool_and(s.ssl) as tls
           from pg_stat_activity a join pg_stat_ssl s using (pid)
          where a.datname = 'workbench' and a.backend_type = 'client backend'`,
      );
      expect(rows[0].connections).toBeGreaterThan(1);
      expect(rows[0].tls).toBe(true);
    });
  });

  it('stops the API, the worker and migrations at start with one line naming sslrootcert when another CA is given', async () => {
    const wrong = `${server()}/workbench${verifyFull(wrongCa.cert)}`;
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: wrong, PORT: '0', LOG_LEVEL: 'INFO' };
    const expected = `PostgreSQL connection: DATABASE_URL's sslrootcert: ${wrongCa.cert} did not sign the certificate of the server at localhost:${pg.port}`;
    for (const entry of ['api/server.ts', 'workflows/worker.ts']) {
      const run = await runEntry(entry, env);
      expect({ entry, code: run.code, stderr: run.stderr.length }).toEqual({
        entry,
        code: EXIT_CONFIG,
        stderr: 1,
      });
      const line = JSON.parse(run.stderr[0]) as { level: string; message: string; setting: string };
      expect(line).toMatchObject({ level: 'ERROR', setting: "DATABASE_URL's sslrootcert" });
      expect(line.message.startsWith(expected)).toBe(true);
    }
    const migrate = await runEntry('scripts/migrate.ts', env);
    expect({ code: migrate.code, stderr: migrate.stderr.length }).toEqual({ code: EXIT_CONFIG, stderr: 1 });
    expect(migrate.stderr[0].startsWith(`[migrate] ${expected}`)).toBe(true);
  });

  it('refuses a server whose certificate is for another name than the URL host (verify-full checks it)', async () => {
    const byAddress = `${server('127.0.0.1')}/workbench${verifyFull(ca.cert)}`;
    const err = await probeDatabase(byAddress).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseSettingError);
    expect((err as DatabaseSettingError).setting).toBe('DATABASE_URL host');
    expect((err as Error).message).toContain("the server's certificate is not for 127.0.0.1");
  });

  it('is refused without TLS by a server that requires it, with the server’s reason', async () => {
    const err = await probeDatabase(`${server()}/workbench?sslmode=disable`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatabaseSettingError);
    expect((err as Error).message).toMatch(
      /^PostgreSQL connection: DATABASE_URL: .*no encryption \(28000\)$/,
    );
  });
});
