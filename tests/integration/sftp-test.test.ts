/**
 * POST /api/sftp-connection-data/test against a real OpenSSH server (tests/support/sshd.ts) on loopback:
 * success with the right key (unsaved and saved connections), failures with details, the host key's
 * fingerprint reported and a pinned one that differs refused, and the net guard refusing loopback when
 * OUTBOUND_ALLOWLIST does not admit it.
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
    expect(res.body).toEqual({ status: 'OK', hostKey: sshd.hostKeyFingerprint });
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
    expect(res.body).toEqual({ status: 'OK', hostKey: sshd.hostKeyFingerprint });
    // an edited form is tested as edited: the stored key with another folder
    const missing = await test(suite.api, suite.admin, { ...saved.body, folder: `${sshd.folder}/missing` });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/no such file/i);
  });

  // 32 bytes in base64 that are not this server's key
  const stranger = 'SHA256:' + Buffer.alloc(32, 7).toString('base64').replace(/=+$/, '');

  it('reports the host key fingerprint and refuses a pinned one that differs, naming both', async () => {
    const pinned = await test(suite.api, suite.admin, connection({ hostKey: sshd.hostKeyFingerprint }));
    expect(pinned.status).toBe(200);
    expect(pinned.body).toEqual({ status: 'OK', hostKey: sshd.hostKeyFingerprint });

    const wrong = await test(suite.api, suite.admin, connection({ hostKey: stranger }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('error.sftpConnectionFailed');
    expect(wrong.body.hostKey).toBe(sshd.hostKeyFingerprint);
    expect(wrong.body.detail).toBe(
      `SFTP connection "Local sshd": the host key of 127.0.0.1:${sshd.port} does not match the pinned one ` +
        `(expected ${stranger}, presented ${sshd.hostKeyFingerprint}); connection refused. If the server's ` +
        `key was changed on purpose, pin the new fingerprint on the connection.`,
    );
  });

  it('tests a saved connection against its stored pin, which a new address drops, and never pins', async () => {
    const saved = await suite.call('/api/sftp-connection-data', {
      token: suite.admin,
      json: connection({ name: 'Pinned elsewhere', hostKey: stranger }),
    });
    expect(saved.status).toBe(201);
    expect(saved.body.hostKey).toBe(stranger);
    const { hostKey: _, ...withoutHostKey } = saved.body;
    // absent hostKey, same address and port: the stored pin is checked
    const stored = await test(suite.api, suite.admin, withoutHostKey);
    expect(stored.status).toBe(400);
    expect(stored.body.detail).toContain(`expected ${stranger}, presented ${sshd.hostKeyFingerprint}`);
    // another address: another server, the stored pin does not apply
    const moved = await test(suite.api, suite.admin, { ...withoutHostKey, address: 'localhost' });
    expect(moved.status).toBe(200);
    expect(moved.body.hostKey).toBe(sshd.hostKeyFingerprint);
    // the form's "Trust this key": the reported fingerprint, sent as hostKey
    const trusted = await test(suite.api, suite.admin, { ...saved.body, hostKey: moved.body.hostKey });
    expect(trusted.status).toBe(200);

    const unpinned = await suite.call('/api/sftp-connection-data', {
      token: suite.admin,
      json: connection({ name: 'Not pinned' }),
    });
    expect(unpinned.body.hostKey).toBeNull();
    expect((await test(suite.api, suite.admin, unpinned.body)).status).toBe(200);
    const rows = await knex('sftp_connections')
      .whereIn('id', [saved.body.id, unpinned.body.id])
      .orderBy('id');
    expect(rows.map((r) => r.host_key)).toEqual([stranger, null]);
  });

  it('fails with a detail when the server refuses the key', async () => {
    const res = await test(suite.api, suite.admin, connection({}, { ...wrongKey }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('error.sftpConnectionFailed');
    expect(res.headers.get('x-soaapp-error')).toBe('error.sftpConnectionFailed');
    expect(res.body.detail).toMatch(/authentication/i);
    // the key exchange came before the login: its fingerprint is reported with the failure
    expect(res.body.hostKey).toBe(sshd.hostKeyFingerprint);
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
    expect(closed.body.hostKey).toBeNull();
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
    const badKey = await test(suite.api, suite.admin, connection({ hostKey: 'SHA256:not-a-fingerprint' }));
    expect(badKey.status).toBe(400);
    expect(badKey.body.fieldErrors).toEqual([
      expect.objectContaining({ field: 'hostKey', key: 'soaApp.sftpConnection.hostKeyInvalid' }),
    ]);
    const noNode = await test(suite.api, suite.admin, connection({ nodeId: undefined }));
    expect(noNode.status).toBe(400);
    expect(noNode.body.fieldErrors[0]).toMatchObject({ field: 'nodeId', key: 'entity.validation.required' });

    const readerToken = await userWith(proc.id, 'READ');
    expect((await test(suite.api, readerToken, connection())).status).toBe(403);
    expect((await test(suite.api, undefined, connection())).status).toBe(401);
  });
});
