/**
 * The API and the worker over TLS and mutual TLS to a real Temporal server (the run's dev server behind a TLS
 * front with certificates made by openssl), configured by Temporal's environment variables only; and a TLS
 * setting that cannot work stopping the API's and the worker's start with one line naming it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../db/connection';
import { makeCa, makeCertificateSet, type CertificateSet } from '../../scripts/lib/certs';
import { loadWorkerConfig } from '../../server/config';
import { loadTemporalConnection } from '../../server/temporal-connection';
import { EXIT_CONFIG } from '../../server/setting-error';
import { WorkflowNames, type SystemCheckResult } from '../../workflows/contract';
import { createWorker, type WorkerGroup } from '../../workflows/worker';
import { startTlsProxy, type TlsProxy } from '../support/tls-proxy';
import { call, login, startTestApi, type TestApi } from '../support/harness';
import { runEntry } from '../support/entry';

describe('Temporal over TLS and mTLS (envconfig variables)', () => {
  let dir: string;
  let certs: CertificateSet;
  let wrongCa: { cert: string; key: string };
  let mtlsProxy: TlsProxy;
  let tlsProxy: TlsProxy;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
    certs = makeCertificateSet(path.join(dir, 'certs'));
    wrongCa = makeCa(path.join(dir, 'wrong'), 'ca', '/CN=Some other CA');
    const target = process.env.TEMPORAL_ADDRESS!;
    mtlsProxy = await startTlsProxy({
      target,
      cert: certs.serverCert,
      key: certs.serverKey,
      clientCa: certs.caCert,
    });
    tlsProxy = await startTlsProxy({ target, cert: certs.serverCert, key: certs.serverKey });
  });
  afterAll(async () => {
    await mtlsProxy?.close();
    await tlsProxy?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const mtlsEnv = () => ({
    TEMPORAL_ADDRESS: mtlsProxy.address,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert,
    TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
  });

  describe('with the right CA and client certificate', () => {
    let knex: Knex;
    let api: TestApi;
    let worker: WorkerGroup;
    let running: Promise<void>;
    let closeWorker: () => Promise<void>;
    const taskQueue = `test-mtls-${crypto.randomUUID()}`;

    beforeAll(async () => {
      const env = { ...process.env, ...mtlsEnv() };
      knex = createKnex(process.env.DATABASE_URL!);
      const temporal = loadTemporalConnection(env);
      api = await startTestApi({ temporal, temporalAddress: temporal.address });
      const config = loadWorkerConfig(env);
      const created = await createWorker({
        temporalAddress: config.temporalAddress,
        namespace: config.temporalNamespace,
        taskQueue,
        knex,
        config,
        workflowBundle: { codePath: process.env.WORKFLOW_BUNDLE_PATH! },
      });
      worker = created.worker;
      running = worker.run();
      closeWorker = () => created.connection.close();
    });
    afterAll(async () => {
      worker?.shutdown();
      await running;
      await closeWorker?.();
      await api?.close();
      await knex?.destroy();
    });

    it('runs a workflow started by the API on a worker, both connected over mTLS', async () => {
      const client = await api.temporal.client();
      const workflowId = `mtls-check-${crypto.randomUUID()}`;
      const result: SystemCheckResult = await client.workflow.execute(WorkflowNames.systemCheck, {
        taskQueue,
        workflowId,
        args: [{ nonce: 'tls-1' }],
      });
      expect(result).toMatchObject({ nonce: 'tls-1', workflowId });
    });

    it('shows the target and that mTLS is in use on management/health and configprops, no key', async () => {
      const admin = await login(api.baseUrl, 'admin', 'admin');
      const health = await call(api.baseUrl, '/management/health', { token: admin });
      expect(health.body.components.temporal).toEqual({
        status: 'UP',
        details: {
          address: mtlsProxy.address,
          namespace: 'default',
          profile: null,
          configFile: null,
          tls: true,
          mtls: true,
          authentication: 'mtls',
          serverName: null,
          serverCa: certs.caCert,
        },
      });
      const props = await call(api.baseUrl, '/management/configprops', { token: admin });
      const shown = JSON.stringify(props.body);
      expect(props.body.contexts.application.beans.appConfig.properties.temporal).toMatchObject({
        address: mtlsProxy.address,
        tls: true,
        mtls: true,
        authentication: 'mtls',
      });
      expect(shown).not.toContain('PRIVATE KEY');
      expect(shown).not.toContain('BEGIN CERTIFICATE');
    });
  });

  it('connects with TLS alone (the server CA, no client certificate) when the server asks for none', async () => {
    const temporal = loadTemporalConnection({
      TEMPORAL_ADDRESS: tlsProxy.address,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert,
    });
    const api = await startTestApi({ temporal, temporalAddress: temporal.address });
    try {
      const client = await api.temporal.client();
      const info = await client.workflowService.getSystemInfo({});
      expect(info.serverVersion).toBeTruthy();
      expect(await api.temporal.isUp()).toBe(true);
    } finally {
      await api.close();
    }
  });

  /** The entry's start with these settings: exits EXIT_CONFIG with one line that names the setting. */
  const expectStopped = async (entry: string, vars: Record<string, string>, setting: string) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LOG_LEVEL: 'INFO', ...vars };
    const run = await runEntry(entry, env);
    expect({ code: run.code, stderr: run.stderr.length }).toEqual({ code: EXIT_CONFIG, stderr: 1 });
    const line = JSON.parse(run.stderr[0]) as { level: string; message: string; setting: string };
    expect(line.level).toBe('ERROR');
    expect(line.setting).toBe(setting);
    expect(line.message).toContain(setting);
    expect(line.message).not.toMatch(/\n| {4}at /);
    return line.message;
  };

  it('stops the API at start with one line naming the CA setting when the server is not signed by that CA', async () => {
    const message = await expectStopped(
      'api/server.ts',
      { ...mtlsEnv(), TEMPORAL_TLS_SERVER_CA_CERT_PATH: wrongCa.cert },
      'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
    );
    expect(message).toMatch(/self-signed certificate in certificate chain|unable to verify/);
  });

  it('stops the worker likewise when the server wants a client certificate and none is set', async () => {
    const message = await expectStopped(
      'workflows/worker.ts',
      { TEMPORAL_ADDRESS: mtlsProxy.address, TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert },
      'TEMPORAL_TLS_CLIENT_CERT_PATH (the server wants a client certificate)',
    );
    expect(message).toContain('certificate required');
  });

  it('stops the API at start with one line naming a certificate file that is missing', async () => {
    const missing = path.join(dir, 'nowhere', 'client.pem');
    const message = await expectStopped(
      'api/server.ts',
      { ...mtlsEnv(), TEMPORAL_TLS_CLIENT_CERT_PATH: missing },
      'TEMPORAL_TLS_CLIENT_CERT_PATH',
    );
    expect(message).toBe(
      `Temporal connection: TEMPORAL_TLS_CLIENT_CERT_PATH: cannot read ${missing} (ENOENT)`,
    );
  });
});
