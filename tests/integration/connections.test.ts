/**
 * Connections of nodes: e-mail upload and SFTP connection data (masked secrets kept on update), cloud-drive
 * connections with a local HTTP server playing the OAuth token endpoint, and the inter-process receiver
 * list. Nodes are inserted directly. Other suites share the database: names are unique().
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isSealed, openValue, type SealedTable } from '../../db/crypto';
import { MASKED_SECRET } from '../../domain/integration-types';
import {
  buildProcess,
  buildUser,
  fieldKeys,
  insertNode,
  MISSING_ID,
  setupSuite,
  unique,
  type Res,
} from '../support/harness';

/** The clear value of a stored credential, after checking the row holds it sealed, never in clear. */
function opened(table: SealedTable, column: string, stored: string | null): string | null {
  expect(isSealed(stored)).toBe(true);
  return openValue(table, column, stored);
}

const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.file';
const CLIENT_SECRET = `client-secret-${unique('s')}`;
const EMAIL_PASSWORD = `imap-${unique('pw')}-do-not-leak`;
const SFTP_PASSWORD = `sftp-${unique('pw')}-do-not-leak`;
const PRIVATE_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${unique('key')}-do-not-leak\n-----END OPENSSH PRIVATE KEY-----\n`;
const SECRETS = [
  CLIENT_SECRET,
  EMAIL_PASSWORD,
  SFTP_PASSWORD,
  'do-not-leak',
  'access-token-',
  'refresh-token-',
];

/** The token endpoint stand-in: the code decides the answer. */
function startTokenServer() {
  const requests: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const form = new URLSearchParams(raw);
      requests.push(form);
      const code = form.get('code') ?? '';
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || form.get('grant_type') !== 'authorization_code')
        return reply(400, { error: 'unsupported_grant_type' });
      if (code.startsWith('good'))
        return reply(200, {
          access_token: `access-token-${code}`,
          refresh_token: `refresh-token-${code}`,
          expires_in: 3599,
          scope: `openid ${DRIVE_SCOPE}`,
          token_type: 'Bearer',
        });
      if (code.startsWith('narrow'))
        return reply(200, {
          access_token: `access-token-${code}`,
          expires_in: 3599,
          scope: 'https://www.googleapis.com/auth/drive.readonly',
          token_type: 'Bearer',
        });
      return reply(400, { error: 'invalid_grant' });
    });
  });
  return new Promise<{ url: string; requests: URLSearchParams[]; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/token`,
        requests,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

describe('integrations: node connections', () => {
  let processAdmin: string;
  let writer: string;
  let reader: string;
  let proc: { id: number; name: string };
  let tokenServer: Awaited<ReturnType<typeof startTokenServer>>;
  const responses: Res[] = [];
  const suite = setupSuite({
    async config() {
      tokenServer = await startTokenServer();
      return {
        googleOAuth: {
          clientId: 'test-client-id',
          clientSecret: CLIENT_SECRET,
          authUrl: 'https://accounts.example.test/o/oauth2/auth',
          tokenUrl: tokenServer.url,
          scope: DRIVE_SCOPE,
          redirectUri: 'http://localhost:8080/oauth2/callback',
        },
      };
    },
    onResponse: (res) => responses.push(res),
  });
  const { knex, send, signIn, userWith } = suite;

  const buildNode = async (activityType: string, processId = proc.id) =>
    (await insertNode(knex, processId, activityType)).id;

  beforeAll(async () => {
    proc = await buildProcess(knex);
    [processAdmin, writer, reader] = await Promise.all(
      (['ADMIN', 'WRITE', 'READ'] as const).map((mode) => userWith(proc.id, mode)),
    );
  });

  afterAll(async () => {
    await tokenServer.close();
    // No response of this suite, body or header, ever carried a stored password, key, token or the secret.
    for (const res of responses) {
      const text = JSON.stringify(res.body) + JSON.stringify([...res.headers.entries()]);
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      expect(text).not.toContain('enc:v1:'); // nor the ciphertext of one
    }
  });

  describe('e-mail upload connection data', () => {
    const valid = (nodeId: number) => ({
      nodeId,
      imapHost: 'imap.example.com',
      imapPort: 993,
      address: 'inbox@example.com',
      password: EMAIL_PASSWORD,
      folder: 'Invoices',
      contentType: 'ATTACHMENT',
      cron: '0 0/15 * * * *',
    });

    it('creates a connection with defaults and shows the password masked', async () => {
      const nodeId = await buildNode('EMAIL_UPLOAD');
      const res = await send('POST', '/api/email-upload-connection-data', processAdmin, {
        nodeId,
        imapHost: 'imap.example.com',
        address: 'inbox@example.com',
        password: EMAIL_PASSWORD,
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        nodeId,
        imapHost: 'imap.example.com',
        imapPort: 993,
        address: 'inbox@example.com',
        password: MASKED_SECRET,
        folder: 'INBOX',
        contentType: 'MESSAGE',
        cron: null,
      });
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.emailUploadConnection.created');
      const row = await knex('email_upload_connections').where({ id: res.body.id }).first();
      expect(row.password).not.toContain(EMAIL_PASSWORD);
      expect(opened('email_upload_connections', 'password', row.password)).toBe(EMAIL_PASSWORD);

      const list = await send('GET', `/api/email-upload-connection-data?nodeId=${nodeId}`, reader);
      expect(list.status).toBe(200);
      expect(list.body).toEqual([res.body]);
      expect((await send('GET', `/api/email-upload-connection-data/${res.body.id}`, reader)).body).toEqual(
        res.body,
      );
    });

    it('keeps the stored password when an update sends null or the mask, replaces it otherwise', async () => {
      const nodeId = await buildNode('EMAIL_UPLOAD');
      const created = await send('POST', '/api/email-upload-connection-data', processAdmin, valid(nodeId));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ imapPort: 993, folder: 'Invoices', contentType: 'ATTACHMENT' });
      const stored = () => knex('email_upload_connections').where({ id: created.body.id }).first();

      const kept = await send('PUT', '/api/email-upload-connection-data', processAdmin, {
        ...created.body,
        imapPort: 143,
        password: null,
        cron: '',
      });
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({ imapPort: 143, password: MASKED_SECRET, cron: null });
      expect(kept.headers.get('x-soaapp-alert')).toBe('soaApp.emailUploadConnection.updated');
      expect(opened('email_upload_connections', 'password', (await stored()).password)).toBe(EMAIL_PASSWORD);

      await send('PUT', '/api/email-upload-connection-data', processAdmin, {
        ...created.body,
        password: MASKED_SECRET,
      });
      expect(opened('email_upload_connections', 'password', (await stored()).password)).toBe(EMAIL_PASSWORD);

      const changed = await send('PUT', '/api/email-upload-connection-data', processAdmin, {
        ...created.body,
        password: `${EMAIL_PASSWORD}-2`,
      });
      expect(changed.body.password).toBe(MASKED_SECRET);
      expect(opened('email_upload_connections', 'password', (await stored()).password)).toBe(
        `${EMAIL_PASSWORD}-2`,
      );

      const moved = await send('PUT', '/api/email-upload-connection-data', processAdmin, {
        ...created.body,
        nodeId: await buildNode('EMAIL_UPLOAD'),
      });
      expect(moved.status).toBe(400);
      expect(moved.body.message).toBe('error.idinvalid');
    });

    it('reports each rule with its key', async () => {
      const nodeId = await buildNode('EMAIL_UPLOAD');
      const post = (json: object) => send('POST', '/api/email-upload-connection-data', processAdmin, json);
      expect(fieldKeys(await post({ nodeId }))).toEqual([
        ['imapHost', 'entity.validation.required'],
        ['address', 'entity.validation.required'],
        ['password', 'entity.validation.required'],
      ]);
      const bad = await post({ ...valid(nodeId), imapHost: 'no host', address: 'nobody', imapPort: 110 });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('error.validation');
      expect(fieldKeys(bad)).toEqual([
        ['imapHost', 'domainOrIpError'],
        ['imapPort', 'entity.validation.pattern'],
        ['address', 'emailError'],
      ]);
      expect(fieldKeys(await post({ ...valid(nodeId), cron: 'every minute', contentType: 'BODY' }))).toEqual([
        ['contentType', 'entity.validation.pattern'],
        ['cron', 'utils.fieldValidation.cronRegexError'],
      ]);
      expect(fieldKeys(await post({ ...valid(nodeId), password: MASKED_SECRET }))).toEqual([
        ['password', 'entity.validation.required'],
      ]);
      expect(fieldKeys(await post({ ...valid(nodeId), nodeId: undefined }))).toEqual([
        ['nodeId', 'entity.validation.required'],
      ]);
    });

    it('belongs to EMAIL_UPLOAD nodes only, and to existing ones', async () => {
      const res = await send(
        'POST',
        '/api/email-upload-connection-data',
        suite.admin,
        valid(await buildNode('SFTP_UPLOAD')),
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.dataValidationUnexpectedError');
      expect(res.headers.get('x-soaapp-error')).toBe('error.dataValidationUnexpectedError');
      expect(
        (await send('POST', '/api/email-upload-connection-data', suite.admin, valid(MISSING_ID))).status,
      ).toBe(404);
      expect(
        (await send('GET', `/api/email-upload-connection-data?nodeId=${MISSING_ID}`, suite.admin)).status,
      ).toBe(404);
      expect((await send('GET', '/api/email-upload-connection-data', suite.admin)).status).toBe(400);
    });

    it('lets READ users read, only process admins change, and deletes', async () => {
      const nodeId = await buildNode('EMAIL_UPLOAD');
      const created = await send('POST', '/api/email-upload-connection-data', suite.admin, valid(nodeId));
      for (const token of [writer, reader]) {
        expect((await send('POST', '/api/email-upload-connection-data', token, valid(nodeId))).status).toBe(
          403,
        );
        expect((await send('PUT', '/api/email-upload-connection-data', token, created.body)).status).toBe(
          403,
        );
        expect(
          (await send('DELETE', `/api/email-upload-connection-data/${created.body.id}`, token)).status,
        ).toBe(403);
      }
      const stranger = await buildUser(knex);
      const strangerToken = await signIn(stranger);
      expect(
        (await send('GET', `/api/email-upload-connection-data?nodeId=${nodeId}`, strangerToken)).status,
      ).toBe(403);
      expect(
        (await send('GET', `/api/email-upload-connection-data?nodeId=${nodeId}`, undefined)).status,
      ).toBe(401);

      const del = await send('DELETE', `/api/email-upload-connection-data/${created.body.id}`, processAdmin);
      expect(del.status).toBe(204);
      expect(del.headers.get('x-soaapp-alert')).toBe('soaApp.emailUploadConnection.deleted');
      expect((await send('GET', `/api/email-upload-connection-data?nodeId=${nodeId}`, reader)).body).toEqual(
        [],
      );
      expect(
        (await send('DELETE', `/api/email-upload-connection-data/${created.body.id}`, suite.admin)).status,
      ).toBe(404);
    });

    it('lets a NODE-level READ grant read the node connections', async () => {
      const nodeId = await buildNode('EMAIL_UPLOAD');
      const u = await buildUser(knex, { authorities: [{ componentId: nodeId, type: 'NODE', mode: 'READ' }] });
      const token = await signIn(u);
      expect((await send('GET', `/api/email-upload-connection-data?nodeId=${nodeId}`, token)).status).toBe(
        200,
      );
    });
  });

  describe('SFTP connection data', () => {
    const passwordConnection = (nodeId: number) => ({
      nodeId,
      name: 'Partner drop',
      address: 'sftp.example.com',
      port: 2222,
      folder: '/outgoing',
      password: {
        useKey: false,
        username: 'bot',
        password: SFTP_PASSWORD,
        publicKey: null,
        privateKey: null,
      },
    });
    const keyConnection = (nodeId: number) => ({
      nodeId,
      name: 'Archive',
      address: '203.0.113.10',
      port: 22,
      folder: '/archive',
      password: {
        useKey: true,
        username: 'archiver',
        password: null,
        publicKey: 'ssh-ed25519 AAAAC3 archive',
        privateKey: PRIVATE_KEY,
      },
    });

    it('creates password and key connections on SFTP_UPLOAD and SEND_TO_SFTP nodes, secrets masked', async () => {
      const upload = await buildNode('SFTP_UPLOAD');
      const res = await send('POST', '/api/sftp-connection-data', processAdmin, passwordConnection(upload));
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        nodeId: upload,
        name: 'Partner drop',
        address: 'sftp.example.com',
        port: 2222,
        folder: '/outgoing',
        password: {
          id: res.body.id,
          useKey: false,
          username: 'bot',
          password: MASKED_SECRET,
          publicKey: null,
          privateKey: null,
        },
        hostKey: null,
      });
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.sftpConnection.created');

      const sender = await buildNode('SEND_TO_SFTP');
      const key = await send('POST', '/api/sftp-connection-data', processAdmin, keyConnection(sender));
      expect(key.status).toBe(201);
      expect(key.body.password).toMatchObject({
        useKey: true,
        username: 'archiver',
        password: null,
        publicKey: 'ssh-ed25519 AAAAC3 archive',
        privateKey: MASKED_SECRET,
      });
      const row = await knex('sftp_connections').where({ id: key.body.id }).first();
      expect(row.private_key).not.toContain('do-not-leak');
      expect(opened('sftp_connections', 'private_key', row.private_key)).toBe(PRIVATE_KEY);

      expect((await send('GET', `/api/sftp-connection-data?nodeId=${upload}`, reader)).body).toEqual([
        res.body,
      ]);
      expect((await send('GET', `/api/sftp-connection-data/${key.body.id}`, reader)).body).toEqual(key.body);
    });

    it('requires the port and defaults the folder to /', async () => {
      const nodeId = await buildNode('SFTP_UPLOAD');
      const res = await send('POST', '/api/sftp-connection-data', processAdmin, {
        ...passwordConnection(nodeId),
        port: undefined,
        folder: '',
      });
      expect(res.status).toBe(400);
      expect(fieldKeys(res)).toEqual([['port', 'entity.validation.required']]);
      const ok = await send('POST', '/api/sftp-connection-data', processAdmin, {
        ...passwordConnection(nodeId),
        folder: '',
      });
      expect(ok.body.folder).toBe('/');
    });

    it('keeps stored secrets on update when null or masked; switching to a key forgets the password', async () => {
      const nodeId = await buildNode('SFTP_UPLOAD');
      const created = await send(
        'POST',
        '/api/sftp-connection-data',
        processAdmin,
        passwordConnection(nodeId),
      );
      const row = () => knex('sftp_connections').where({ id: created.body.id }).first();

      const renamed = await send('PUT', '/api/sftp-connection-data', processAdmin, {
        ...created.body,
        name: 'Renamed',
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: 'Renamed', password: { password: MASKED_SECRET } });
      expect(renamed.headers.get('x-soaapp-alert')).toBe('soaApp.sftpConnection.updated');
      expect(opened('sftp_connections', 'password', (await row()).password)).toBe(SFTP_PASSWORD);

      await send('PUT', '/api/sftp-connection-data', processAdmin, {
        ...created.body,
        password: { ...created.body.password, password: null },
      });
      expect(opened('sftp_connections', 'password', (await row()).password)).toBe(SFTP_PASSWORD);

      const noKey = await send('PUT', '/api/sftp-connection-data', processAdmin, {
        ...created.body,
        password: { ...created.body.password, useKey: true, publicKey: 'ssh-ed25519 AAAA' },
      });
      expect(fieldKeys(noKey)).toEqual([['password.privateKey', 'entity.validation.required']]);

      const toKey = await send('PUT', '/api/sftp-connection-data', processAdmin, {
        ...created.body,
        password: {
          ...created.body.password,
          useKey: true,
          publicKey: 'ssh-ed25519 AAAA',
          privateKey: PRIVATE_KEY,
        },
      });
      expect(toKey.status).toBe(200);
      expect(toKey.body.password).toMatchObject({ useKey: true, password: null, privateKey: MASKED_SECRET });
      expect(await row()).toMatchObject({ use_key: true, password: null });
      expect(opened('sftp_connections', 'private_key', (await row()).private_key)).toBe(PRIVATE_KEY);

      await send('PUT', '/api/sftp-connection-data', processAdmin, toKey.body);
      expect(opened('sftp_connections', 'private_key', (await row()).private_key)).toBe(PRIVATE_KEY);
    });

    it('pins a host key; an update without one keeps it unless the address or port changes; empty unpins', async () => {
      const fingerprint = 'SHA256:LDLghhCavK2aZjgyiexiXug/6nKTW3fi5bXdzDT9GuU';
      const nodeId = await buildNode('SFTP_UPLOAD');
      const created = await send('POST', '/api/sftp-connection-data', processAdmin, {
        ...passwordConnection(nodeId),
        hostKey: ` ${fingerprint} `,
      });
      expect(created.status).toBe(201);
      expect(created.body.hostKey).toBe(fingerprint);
      const pin = async () =>
        (await knex('sftp_connections').where({ id: created.body.id }).first()).host_key;
      expect(await pin()).toBe(fingerprint);
      const { hostKey: _, ...withoutHostKey } = created.body;
      const put = (json: object) => send('PUT', '/api/sftp-connection-data', processAdmin, json);

      // absent, same server: kept (a client that does not know the field keeps the pin)
      expect((await put({ ...withoutHostKey, name: 'Renamed' })).body.hostKey).toBe(fingerprint);
      // absent with another port, then another address: another server, the pin is cleared
      expect((await put({ ...withoutHostKey, port: 2223 })).body.hostKey).toBeNull();
      await put({ ...created.body });
      expect(await pin()).toBe(fingerprint);
      expect((await put({ ...withoutHostKey, address: 'other.example.com' })).body.hostKey).toBeNull();
      // given with a new address: the new pin
      const moved = await put({ ...withoutHostKey, address: 'sftp.example.com', hostKey: fingerprint });
      expect(moved.body.hostKey).toBe(fingerprint);
      // empty or null: not pinned
      expect((await put({ ...created.body, hostKey: '' })).body.hostKey).toBeNull();
      await put({ ...created.body });
      expect((await put({ ...created.body, hostKey: null })).body.hostKey).toBeNull();
      expect(await pin()).toBeNull();

      const malformed = await put({ ...created.body, hostKey: 'SHA256:short' });
      expect(malformed.status).toBe(400);
      expect(fieldKeys(malformed)).toEqual([['hostKey', 'soaApp.sftpConnection.hostKeyInvalid']]);
      expect(await pin()).toBeNull();
    });

    it('reports each rule with its key', async () => {
      const nodeId = await buildNode('SFTP_UPLOAD');
      const post = (json: object) => send('POST', '/api/sftp-connection-data', processAdmin, json);
      const base = passwordConnection(nodeId);
      expect(fieldKeys(await post({ ...base, name: '', address: '' }))).toEqual([
        ['name', 'entity.validation.required'],
        ['address', 'entity.validation.required'],
      ]);
      expect(fieldKeys(await post({ ...base, address: 'bad host!', port: 0 }))).toEqual([
        ['address', 'domainOrIpError'],
        ['port', 'entity.validation.min'],
      ]);
      expect(fieldKeys(await post({ ...base, port: 65536 }))).toEqual([['port', 'entity.validation.max']]);
      expect(fieldKeys(await post({ ...base, password: { useKey: false } }))).toEqual([
        ['password.username', 'entity.validation.required'],
        ['password.password', 'entity.validation.required'],
      ]);
      expect(fieldKeys(await post({ ...base, password: { useKey: true, username: 'x' } }))).toEqual([
        ['password.publicKey', 'entity.validation.required'],
        ['password.privateKey', 'entity.validation.required'],
      ]);
      for (const hostKey of [
        'MD5:c6:7e:6a:0b',
        'SHA256:LDLghhCavK2aZjgyiexiXug/6nKTW3fi5bXdzDT9GuU=',
        'ssh-ed25519 AAAA',
      ])
        expect(fieldKeys(await post({ ...base, hostKey }))).toEqual([
          ['hostKey', 'soaApp.sftpConnection.hostKeyInvalid'],
        ]);
    });

    it('belongs to SFTP nodes only; READ reads, only process admins change; deletes', async () => {
      const wrong = await send(
        'POST',
        '/api/sftp-connection-data',
        suite.admin,
        passwordConnection(await buildNode('HUP')),
      );
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe('error.dataValidationUnexpectedError');

      const nodeId = await buildNode('SEND_TO_SFTP');
      const created = await send(
        'POST',
        '/api/sftp-connection-data',
        processAdmin,
        passwordConnection(nodeId),
      );
      for (const token of [writer, reader]) {
        expect(
          (await send('POST', '/api/sftp-connection-data', token, passwordConnection(nodeId))).status,
        ).toBe(403);
        expect((await send('PUT', '/api/sftp-connection-data', token, created.body)).status).toBe(403);
        expect((await send('DELETE', `/api/sftp-connection-data/${created.body.id}`, token)).status).toBe(
          403,
        );
      }
      expect((await send('GET', `/api/sftp-connection-data/${created.body.id}`, undefined)).status).toBe(401);
      const del = await send('DELETE', `/api/sftp-connection-data/${created.body.id}`, processAdmin);
      expect(del.status).toBe(204);
      expect(del.headers.get('x-soaapp-alert')).toBe('soaApp.sftpConnection.deleted');
      expect((await send('GET', `/api/sftp-connection-data/${created.body.id}`, suite.admin)).status).toBe(
        404,
      );
      expect((await send('PUT', '/api/sftp-connection-data', suite.admin, created.body)).status).toBe(404);
    });
  });

  describe('cloud-drive connections', () => {
    const put = (token: string, json: object) =>
      send('PUT', '/api/node/google-drive-connections', token, json);
    const change = (nodeId: number, parts: object) => ({
      nodeId,
      deletedConnectionIds: [],
      updatedConnections: [],
      newConnections: [],
      ...parts,
    });

    it('gives the OAuth client configuration without the secret', async () => {
      const res = await send('GET', '/api/google-drive-connections/config', reader);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        clientId: 'test-client-id',
        scope: DRIVE_SCOPE,
        redirectUri: 'http://localhost:8080/oauth2/callback',
        authUrl: 'https://accounts.example.test/o/oauth2/auth',
      });
      expect((await send('GET', '/api/google-drive-connections/config', undefined)).status).toBe(401);
    });

    it('creates a connection by exchanging the authorization code; tokens are stored, never returned', async () => {
      const nodeId = await buildNode('GDU_UPLOAD');
      const code = unique('good');
      const res = await put(
        processAdmin,
        change(nodeId, {
          newConnections: [{ name: 'Reports', folderId: 'folder-1', authorizationCode: code }],
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: expect.any(Number), name: 'Reports', folderId: 'folder-1', authorized: true },
      ]);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.googleDriveConnection.updated');

      const sent = tokenServer.requests.find((r) => r.get('code') === code)!;
      expect(Object.fromEntries(sent)).toEqual({
        grant_type: 'authorization_code',
        code,
        client_id: 'test-client-id',
        client_secret: CLIENT_SECRET,
        redirect_uri: 'http://localhost:8080/oauth2/callback',
      });
      const row = await knex('drive_connections').where({ node_id: nodeId }).first();
      expect(row).toMatchObject({ authorized: true });
      expect(JSON.stringify(row)).not.toContain(code);
      expect(opened('drive_connections', 'access_token', row.access_token)).toBe(`access-token-${code}`);
      expect(opened('drive_connections', 'refresh_token', row.refresh_token)).toBe(`refresh-token-${code}`);
      expect(row.granted_scope).toContain(DRIVE_SCOPE);
      expect(new Date(row.token_expiry).getTime()).toBeGreaterThan(Date.now());

      const list = await send('GET', `/api/node/${nodeId}/google-drive-connections`, reader);
      expect(list.body).toEqual(res.body);
    });

    it('allows one connection per node', async () => {
      const nodeId = await buildNode('SEND_TO_GOOGLE_DRIVE');
      const two = await put(
        processAdmin,
        change(nodeId, {
          newConnections: [
            { name: 'A', folderId: 'f', authorizationCode: unique('good') },
            { name: 'B', folderId: 'f', authorizationCode: unique('good') },
          ],
        }),
      );
      expect(two.status).toBe(400);
      expect(two.body.message).toBe('error.dataValidationUnexpectedError');
      const first = await put(
        processAdmin,
        change(nodeId, { newConnections: [{ name: 'A', folderId: 'f', authorizationCode: unique('good') }] }),
      );
      expect(first.status).toBe(200);
      const second = await put(
        processAdmin,
        change(nodeId, { newConnections: [{ name: 'B', folderId: 'f', authorizationCode: unique('good') }] }),
      );
      expect(second.status).toBe(400);
      expect(second.headers.get('x-soaapp-error')).toBe('error.dataValidationUnexpectedError');
      // replacing it in one change is fine
      const replaced = await put(
        processAdmin,
        change(nodeId, {
          deletedConnectionIds: [first.body[0].id],
          newConnections: [{ name: 'B', folderId: 'g', authorizationCode: unique('good') }],
        }),
      );
      expect(replaced.status).toBe(200);
      expect(replaced.body.map((c: { name: string }) => c.name)).toEqual(['B']);
    });

    it('refuses a grant without the configured scope, a refused code and a missing code; nothing is stored', async () => {
      const nodeId = await buildNode('GDU_UPLOAD');
      for (const authorizationCode of [unique('narrow'), unique('bad'), '', undefined]) {
        const res = await put(
          processAdmin,
          change(nodeId, { newConnections: [{ name: 'X', folderId: 'f', authorizationCode }] }),
        );
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('error.dataValidationUnexpectedError');
      }
      expect(await knex('drive_connections').where({ node_id: nodeId })).toEqual([]);
    });

    it('updates name and folder keeping the tokens, re-authorizes with a new code, deletes', async () => {
      const nodeId = await buildNode('GDU_UPLOAD');
      const code = unique('good');
      const [created] = (
        await put(
          processAdmin,
          change(nodeId, { newConnections: [{ name: 'A', folderId: 'f', authorizationCode: code }] }),
        )
      ).body;
      const updated = await put(
        processAdmin,
        change(nodeId, { updatedConnections: [{ id: created.id, name: 'A2', folderId: 'f2' }] }),
      );
      expect(updated.body).toEqual([{ id: created.id, name: 'A2', folderId: 'f2', authorized: true }]);
      const kept = (await knex('drive_connections').where({ id: created.id }).first()).access_token;
      expect(opened('drive_connections', 'access_token', kept)).toBe(`access-token-${code}`);
      const code2 = unique('good');
      await put(
        processAdmin,
        change(nodeId, {
          updatedConnections: [{ id: created.id, name: 'A2', folderId: 'f2', authorizationCode: code2 }],
        }),
      );
      const renewed = (await knex('drive_connections').where({ id: created.id }).first()).access_token;
      expect(opened('drive_connections', 'access_token', renewed)).toBe(`access-token-${code2}`);
      const narrow = await put(
        processAdmin,
        change(nodeId, {
          updatedConnections: [
            { id: created.id, name: 'A3', folderId: 'f3', authorizationCode: unique('narrow') },
          ],
        }),
      );
      expect(narrow.status).toBe(400);
      expect((await knex('drive_connections').where({ id: created.id }).first()).name).toBe('A2');

      const deleted = await put(processAdmin, change(nodeId, { deletedConnectionIds: [created.id] }));
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual([]);
    });

    it('requires name and folder id, ids of the node, a drive node and ADMIN on the process', async () => {
      const nodeId = await buildNode('GDU_UPLOAD');
      const invalid = await put(
        processAdmin,
        change(nodeId, { newConnections: [{ name: '', folderId: ' ', authorizationCode: unique('good') }] }),
      );
      expect(invalid.status).toBe(400);
      expect(fieldKeys(invalid)).toEqual([
        ['newConnections.0.name', 'entity.validation.required'],
        ['newConnections.0.folderId', 'entity.validation.required'],
      ]);

      const otherNode = await buildNode('GDU_UPLOAD');
      const [foreign] = (
        await put(
          processAdmin,
          change(otherNode, {
            newConnections: [{ name: 'F', folderId: 'f', authorizationCode: unique('good') }],
          }),
        )
      ).body;
      const stolen = await put(processAdmin, change(nodeId, { deletedConnectionIds: [foreign.id] }));
      expect(stolen.status).toBe(400);
      expect(stolen.body.message).toBe('error.idinvalid');
      expect(await knex('drive_connections').where({ id: foreign.id }).first()).toBeDefined();

      const wrongType = await put(suite.admin, change(await buildNode('SEND_MAIL'), {}));
      expect(wrongType.body.message).toBe('error.dataValidationUnexpectedError');
      expect((await put(suite.admin, change(MISSING_ID, {}))).status).toBe(404);

      for (const token of [writer, reader]) expect((await put(token, change(nodeId, {}))).status).toBe(403);
      expect((await send('GET', `/api/node/${nodeId}/google-drive-connections`, reader)).status).toBe(200);
      const stranger = await buildUser(knex);
      const strangerToken = await signIn(stranger);
      expect((await send('GET', `/api/node/${nodeId}/google-drive-connections`, strangerToken)).status).toBe(
        403,
      );
    });
  });

  describe('inter-process receiver nodes', () => {
    it('lists the IPR nodes of the processes the caller can read, with the process name', async () => {
      const other = await buildProcess(knex);
      const mine = await buildNode('IPR');
      const theirs = await buildNode('IPR', other.id);
      const notIpr = await buildNode('IPS');

      const asReader = await send('GET', '/api/inter-process-receiver-nodes', reader);
      expect(asReader.status).toBe(200);
      const ids = asReader.body.map((n: { id: number }) => n.id);
      expect(ids).toContain(mine);
      expect(ids).not.toContain(theirs);
      expect(ids).not.toContain(notIpr);
      expect(asReader.body.find((n: { id: number }) => n.id === mine)).toEqual({
        id: mine,
        name: expect.stringMatching(/^IPR_/),
        processId: proc.id,
        processName: proc.name,
      });

      const asAdmin = (await send('GET', '/api/inter-process-receiver-nodes', suite.admin)).body.map(
        (n: { id: number }) => n.id,
      );
      expect(asAdmin).toEqual(expect.arrayContaining([mine, theirs]));
      const stranger = await buildUser(knex);
      const strangerToken = await signIn(stranger);
      const none = (await send('GET', '/api/inter-process-receiver-nodes', strangerToken)).body;
      expect(none.map((n: { id: number }) => n.id)).not.toContain(mine);
      expect((await send('GET', '/api/inter-process-receiver-nodes', undefined)).status).toBe(401);
    });
  });
});
