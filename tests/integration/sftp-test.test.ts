/**
 * POST /api/sftp-connection-data/test against a real OpenSSH server (tests/support/sshd.ts) on loopback:
 * success with the right key (unsaved and saved connections), failures with details, and the net guard
 * refusing loopback when OUTBOUND_ALLOWLIST does not admit it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MASKED_SECRET } from '../../domain/integration-types';
import {
  buildProcess,
  call,
  insertNode,
  setupSuite,
  startTestApi,
  unique,
  type Res,
  type TestApi,
} from '../support/harness';
import { generateKeyPair, startSshd, type KeyPair, type TestSshd } from '../support/sshd';

describe('SFTP connection test', () => {
  const suite = setupSuite({ config: { outboundAllowlist: ['127.0.0.1'] } });
  const { knex, userWith } = suite;
  let sshd: TestSshd;
  let guarded: TestApi;
  let proc: { id: number };
  let nodeId: number;
  let wrongKey: KeyPair;
  let keyDir: string;
  const responses: Res[] = [];

  const test = async (target: TestApi, token: string | undefined, json: unknown) => {
    const res = await call(target.baseUrl, '/api/sftp-connection-data/test', { token, json });
    responses.push(res);
    return res;
  };
  const connection = (overrides: Record<string, unknown> = {}, creds: Record<string, unknown> = {}) => ({
    nodeId,
    name: 'Local sshd',
    address: '127.0.0.1',
    port: sshd.port,
    folder: sshd.folder,
    password: {
      useKey: true,
      username: sshd.username,
      password: null,
      publicKey: sshd.clientKey.publicKey,
      privateKey: sshd.clientKey.privateKey,
      ...creds,
    },
    ...overrides,
  });

  beforeAll(async () => {
    sshd = await startSshd();
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-keys-'));
    wrongKey = generateKeyPair(keyDir, 'stranger');
    guarded = await startTestApi({ outboundAllowlist: [] });
    proc = await buildProcess(knex);
    ({ id: nodeId } = await insertNode(knex, proc.id, 'SFTP_UPLOAD', unique('sftp')));
  });

  afterAll(async () => {
    await guarded?.close();
    await sshd?.stop();
    fs.rmSync(keyDir, { recursive: true, force: true });
    for (const res of responses) expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
  });

  it('connects with the key and lists the folder of an unsaved connection', async () => {
    const res = await test(suite.api, suite.admin, connection());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'OK' });
  });

  it('connects to the checked address of a host name (localhost resolved once, loopback allowlisted)', async () => {
    const res = await test(suite.api, suite.admin, connection({ address: 'localhost' }));
    expect(res.status).toBe(200);
  });

  it('tests a saved connection, taking the masked private key from the database', async () => {
    const saved = await suite.call('/api/sftp-connection-data', { token: suite.admin, json: connection() });
    expect(saved.status).toBe(201);
    expect(saved.body.password.privateKey).toBe(MASKED_SECRET);
    const res = await test(suite.api, suite.admin, { ...saved.body, password: { ...saved.body.password } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'OK' });
    // an edited form is tested as edited: the stored key with another folder
    const missing = await test(suite.api, suite.admin, { ...saved.body, folder: `${sshd.folder}/missing` });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/no such file/i);
  });

  it('fails with a detail when the server refuses the key', async () => {
    const res = await test(suite.api, suite.admin, connection({}, { ...wrongKey }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('error.sftpConnectionFailed');
    expect(res.headers.get('x-soaapp-error')).toBe('error.sftpConnectionFailed');
    expect(res.body.detail).toMatch(/authentication/i);
  });

  it('fails with a detail for a password the server does not take and for a closed port', async () => {
    const password = await test(
      suite.api,
      suite.admin,
      connection({}, { useKey: false, password: 'wrong', privateKey: null }),
    );
    expect(password.status).toBe(400);
    expect(password.body.detail).toMatch(/authentication/i);
    const closed = await test(suite.api, suite.admin, connection({ port: 1 }));
    expect(closed.status).toBe(400);
    expect(closed.body.detail).toMatch(/ECONNREFUSED/);
    const garbage = await test(suite.api, suite.admin, connection({}, { privateKey: 'not a key' }));
    expect(garbage.status).toBe(400);
    expect(garbage.body.detail).toMatch(/key/i);
  });

  it('refuses loopback without the allowlist, before connecting', async () => {
    for (const address of ['127.0.0.1', 'localhost']) {
      const res = await test(guarded, suite.admin, connection({ address }));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.outboundAddressRefused');
      expect(res.headers.get('x-soaapp-error')).toBe('error.outboundAddressRefused');
      expect(res.body.detail).toMatch(/loopback/);
    }
    const metadata = await test(guarded, suite.admin, connection({ address: '169.254.169.254' }));
    expect(metadata.body.message).toBe('error.outboundAddressRefused');
  });

  it('validates the form first and needs ADMIN on the node process', async () => {
    const invalid = await test(suite.api, suite.admin, connection({ address: 'bad host!', port: 0 }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.fieldErrors.map((f: { field: string }) => f.field)).toEqual(['address', 'port']);
    const noNode = await test(suite.api, suite.admin, connection({ nodeId: undefined }));
    expect(noNode.status).toBe(400);
    expect(noNode.body.fieldErrors[0]).toMatchObject({ field: 'nodeId', key: 'entity.validation.required' });

    const readerToken = await userWith(proc.id, 'READ');
    expect((await test(suite.api, readerToken, connection())).status).toBe(403);
    expect((await test(suite.api, undefined, connection())).status).toBe(401);
  });
});
