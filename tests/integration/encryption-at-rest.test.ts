/**
 * Encryption at rest of the credential columns (db/crypto.ts): what the API saves is sealed in PostgreSQL
 * and never comes back, migration 011 seals values written in clear (once), and the key rotation script
 * re-encrypts every value under a new key that opens them. Other suites share the database: the migration
 * and rotation checks run inside a transaction that is rolled back, on a key directory of their own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import {
  DATA_KEY_NAME,
  dataKeyring,
  isSealed,
  keyIdOf,
  loadKeyring,
  openValue,
  SEALED_COLUMNS,
  sealedKeyId,
  type SealedTable,
} from '../../db/crypto';
import { keysDir } from '../../db/keys';
import * as m011 from '../../db/migrations/011_encrypt_secrets';
import { pruneRetiredKeys, rotateDataKey } from '../../scripts/rotate-key';
import { buildProcess, insertNode, setupSuite, unique, type Res } from '../support/harness';

const ROLLBACK = new Error('rollback');

/** Runs `body` in a transaction that is always rolled back (the shared database keeps its rows). */
async function rolledBack(knex: Knex, body: (trx: Knex.Transaction) => Promise<void>): Promise<void> {
  await knex
    .transaction(async (trx) => {
      await body(trx);
      throw ROLLBACK;
    })
    .catch((err) => {
      if (err !== ROLLBACK) throw err;
    });
}

describe('credentials encrypted at rest', () => {
  const responses: Res[] = [];
  const suite = setupSuite({ onResponse: (res) => responses.push(res) });
  const { knex, send } = suite;
  const CLEAR = {
    secret: `sk-${unique('secret')}-clear`,
    imap: `imap-${unique('pw')}-clear`,
    sftp: `sftp-${unique('pw')}-clear`,
    key: `-----BEGIN OPENSSH PRIVATE KEY-----\n${unique('key')}-clear\n-----END OPENSSH PRIVATE KEY-----\n`,
  };
  let proc: { id: number };

  beforeAll(async () => {
    proc = await buildProcess(knex);
  });

  afterAll(() => {
    // No answer carried a clear credential, nor the ciphertext of one.
    for (const res of responses) {
      const text = JSON.stringify(res.body) + JSON.stringify([...res.headers.entries()]);
      for (const clear of Object.values(CLEAR)) expect(text).not.toContain(clear);
      expect(text).not.toContain('enc:v1:');
    }
  });

  describe('saved through the API', () => {
    it('stores a secret, an IMAP password, an SFTP password and an SFTP key sealed, never in clear', async () => {
      const secret = await send('POST', '/api/secrets', suite.admin, {
        name: unique('KEY').slice(0, 30),
        value: CLEAR.secret,
        processId: proc.id,
      });
      expect(secret.status).toBe(201);
      const mailNode = (await insertNode(knex, proc.id, 'EMAIL_UPLOAD')).id;
      const imap = await send('POST', '/api/email-upload-connection-data', suite.admin, {
        nodeId: mailNode,
        imapHost: 'imap.example.com',
        address: 'inbox@example.com',
        password: CLEAR.imap,
      });
      expect(imap.status).toBe(201);
      const sftpNode = (await insertNode(knex, proc.id, 'SFTP_UPLOAD')).id;
      const base = { nodeId: sftpNode, name: 'Archive', address: 'sftp.example.com', port: 22, folder: '/' };
      const sftp = await send('POST', '/api/sftp-connection-data', suite.admin, {
        ...base,
        password: { useKey: false, username: 'bot', password: CLEAR.sftp },
      });
      expect(sftp.status).toBe(201);
      const keyed = await send('POST', '/api/sftp-connection-data', suite.admin, {
        ...base,
        password: { useKey: true, username: 'bot', publicKey: 'ssh-ed25519 AAAA', privateKey: CLEAR.key },
      });
      expect(keyed.status).toBe(201);

      const rows = {
        secret: await knex('secrets').where('id', secret.body.id).first(),
        imap: await knex('email_upload_connections').where('id', imap.body.id).first(),
        sftp: await knex('sftp_connections').where('id', sftp.body.id).first(),
        keyed: await knex('sftp_connections').where('id', keyed.body.id).first(),
      };
      const raw = JSON.stringify(rows);
      for (const clear of Object.values(CLEAR)) expect(raw).not.toContain(clear.slice(0, 20));
      // the whole table text, as a dump would show it
      const dump = await knex.raw(
        `select string_agg(t::text, '') as text from (
           select value as t from secrets union all select password from email_upload_connections
           union all select coalesce(password, '') || coalesce(private_key, '') from sftp_connections) x`,
      );
      for (const clear of Object.values(CLEAR)) expect(dump.rows[0].text).not.toContain(clear);

      expect(openValue('secrets', 'value', rows.secret.value)).toBe(CLEAR.secret);
      expect(openValue('email_upload_connections', 'password', rows.imap.password)).toBe(CLEAR.imap);
      expect(openValue('sftp_connections', 'password', rows.sftp.password)).toBe(CLEAR.sftp);
      expect(openValue('sftp_connections', 'private_key', rows.keyed.private_key)).toBe(CLEAR.key);
      for (const v of [rows.secret.value, rows.imap.password, rows.sftp.password, rows.keyed.private_key])
        expect(sealedKeyId(v)).toBe(dataKeyring().currentId);

      // reads answer a mask, and an update keeping the mask keeps the stored ciphertext as it is
      const read = await send('GET', `/api/sftp-connection-data/${sftp.body.id}`, suite.admin);
      expect(read.body.password).toMatchObject({ password: '**********', privateKey: null });
      const kept = await send('PUT', '/api/sftp-connection-data', suite.admin, {
        ...read.body,
        name: 'Renamed',
      });
      expect(kept.status).toBe(200);
      expect((await knex('sftp_connections').where('id', sftp.body.id).first()).password).toBe(
        rows.sftp.password,
      );
      await send('GET', `/api/secrets?processId=${proc.id}`, suite.admin);
      await send('GET', `/api/email-upload-connection-data?nodeId=${mailNode}`, suite.admin);
    });
  });

  it('answers a 400 with the reason, not a 500, when a stored password cannot be decrypted', async () => {
    const nodeId = (await insertNode(knex, proc.id, 'SFTP_UPLOAD')).id;
    const saved = await send('POST', '/api/sftp-connection-data', suite.admin, {
      nodeId,
      name: 'Tampered',
      address: 'sftp.example.com',
      port: 22,
      folder: '/',
      password: { useKey: false, username: 'bot', password: CLEAR.sftp },
    });
    const row = await knex('sftp_connections').where('id', saved.body.id).first();
    const parts = row.password.split(':');
    parts[4] = Buffer.from('altered').toString('base64');
    await knex('sftp_connections')
      .where('id', saved.body.id)
      .update({ password: parts.join(':') });

    try {
      const res = await send('POST', '/api/sftp-connection-data/test', suite.admin, saved.body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('error.sftpConnectionFailed');
      expect(res.body.detail).toMatch(/cannot be decrypted/);
    } finally {
      // an unreadable value stops a key rotation (by design): leave none in the shared database
      await knex('sftp_connections').where('id', saved.body.id).delete();
    }
  });

  /** Rows of every credential column, inserted in clear as a version before encryption wrote them. */
  async function insertPlainRows(trx: Knex.Transaction) {
    const node = (await insertNode(trx, proc.id, 'SFTP_UPLOAD')).id;
    const [secret] = await trx('secrets')
      .insert({ process_id: proc.id, name: unique('OLD'), value: 'old-secret' })
      .returning('id');
    const [imap] = await trx('email_upload_connections')
      .insert({ node_id: node, imap_host: 'h', address: 'a@b.c', password: 'old-imap' })
      .returning('id');
    const [sftp] = await trx('sftp_connections')
      .insert({ node_id: node, name: 'n', address: 'h', password: 'old-sftp', private_key: 'old-key' })
      .returning('id');
    const [drive] = await trx('drive_connections')
      .insert({
        node_id: node,
        name: 'd',
        folder_id: 'f',
        access_token: 'old-access',
        refresh_token: 'old-refresh',
      })
      .returning('id');
    const [webhook] = await trx('webhooks')
      .insert({
        process_id: proc.id,
        url: 'https://example.test/h',
        events: ['document.done'],
        secret: 'old-whsec',
      })
      .returning('id');
    return {
      secrets: secret.id,
      email_upload_connections: imap.id,
      sftp_connections: sftp.id,
      drive_connections: drive.id,
      webhooks: webhook.id,
    };
  }

  const CLEAR_OF: Record<string, string> = {
    'secrets.value': 'old-secret',
    'email_upload_connections.password': 'old-imap',
    'sftp_connections.password': 'old-sftp',
    'sftp_connections.private_key': 'old-key',
    'drive_connections.access_token': 'old-access',
    'drive_connections.refresh_token': 'old-refresh',
    'webhooks.secret': 'old-whsec',
  };

  async function storedValues(trx: Knex.Transaction, ids: Record<SealedTable, number>) {
    const out: Record<string, string> = {};
    for (const table of Object.keys(SEALED_COLUMNS) as SealedTable[]) {
      const row = await trx(table).where('id', ids[table]).first();
      for (const column of SEALED_COLUMNS[table]) out[`${table}.${column}`] = row[column];
    }
    return out;
  }

  it('migration 011 seals the values written in clear, once (a second run changes nothing), and down opens them', async () => {
    await rolledBack(knex, async (trx) => {
      const ids = await insertPlainRows(trx);
      expect(await storedValues(trx, ids)).toEqual(CLEAR_OF);

      await m011.up(trx);
      const sealed = await storedValues(trx, ids);
      for (const [column, value] of Object.entries(sealed)) {
        expect(isSealed(value)).toBe(true);
        const [table, col] = column.split('.');
        expect(openValue(table as SealedTable, col, value)).toBe(CLEAR_OF[column]);
      }
      await m011.up(trx);
      expect(await storedValues(trx, ids)).toEqual(sealed);

      await m011.down(trx);
      expect(await storedValues(trx, ids)).toEqual(CLEAR_OF);
    });
  });

  describe('key rotation (scripts/rotate-key.ts)', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rotate-'));
      // the installation's current key, as the suite's API uses it
      dataKeyring();
      fs.mkdirSync(path.join(dir, 'keys'));
      fs.copyFileSync(path.join(keysDir(), DATA_KEY_NAME), path.join(dir, 'keys', DATA_KEY_NAME));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('re-encrypts every value under a new key file that opens them, keeps the old key until pruned', async () => {
      const env = { DATA_DIR: dir };
      const oldId = dataKeyring().currentId;
      await rolledBack(knex, async (trx) => {
        const ids = await insertPlainRows(trx);
        await m011.up(trx);
        const before = await storedValues(trx, ids);

        const out = await rotateDataKey(trx, env);
        expect(out.oldKeyId).toBe(oldId);
        expect(out.environment).toBeNull();
        const ring = loadKeyring(env);
        expect(ring.currentId).toBe(out.newKeyId);
        expect(fs.existsSync(path.join(dir, 'keys', `${DATA_KEY_NAME}.${oldId}`))).toBe(true);

        const after = await storedValues(trx, ids);
        for (const [column, value] of Object.entries(after)) {
          expect(value).not.toBe(before[column]);
          expect(sealedKeyId(value)).toBe(out.newKeyId);
          expect(ring.open(value, column)).toBe(CLEAR_OF[column]);
        }
        // every sealed value of the database moved to the new key (those of other suites too)
        for (const table of Object.keys(SEALED_COLUMNS) as SealedTable[])
          for (const column of SEALED_COLUMNS[table])
            for (const v of (await trx(table).whereNotNull(column).pluck(column)) as string[])
              if (isSealed(v)) expect(sealedKeyId(v)).toBe(out.newKeyId);

        // the old key alone no longer opens anything; once no value names it, --prune deletes it
        expect(await pruneRetiredKeys(trx, env)).toEqual([`${DATA_KEY_NAME}.${oldId}`]);
        expect(loadKeyring(env).has(oldId)).toBe(false);
      });
    });

    it('with DATA_ENCRYPTION_KEY set, writes no file and tells what to set', async () => {
      const current = fs.readFileSync(path.join(dir, 'keys', DATA_KEY_NAME), 'utf8').trim();
      fs.rmSync(path.join(dir, 'keys', DATA_KEY_NAME));
      const env = { DATA_DIR: dir, DATA_ENCRYPTION_KEY: current };
      await rolledBack(knex, async (trx) => {
        const ids = await insertPlainRows(trx);
        const out = await rotateDataKey(trx, env);
        expect(out.environment).toEqual({
          DATA_ENCRYPTION_KEY: expect.any(String),
          DATA_ENCRYPTION_KEY_PREVIOUS: current,
        });
        expect(fs.readdirSync(path.join(dir, 'keys'))).toEqual([]);
        const next = loadKeyring({ DATA_DIR: dir, ...out.environment! });
        expect(next.currentId).toBe(keyIdOf(Buffer.from(out.environment!.DATA_ENCRYPTION_KEY, 'base64')));
        const after = await storedValues(trx, ids);
        for (const [column, value] of Object.entries(after))
          expect(next.open(value, column)).toBe(CLEAR_OF[column]);
      });
    });
  });
});
