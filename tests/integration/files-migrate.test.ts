/**
 * `npm run files:migrate` (scripts/lib/files-migrate.ts) into a real S3-compatible server (versitygw): the
 * local store's files under the same keys with their sha256, nothing copied twice, a stopped run finished by
 * the next, a wrong or missing object copied again, a damaged local file reported and not copied; the
 * command itself with the AWS SDK's own variables.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createFileStore, keyOfHash, sha256 } from '../../server/files';
import { migrateFiles } from '../../scripts/lib/files-migrate';
import { setupS3Bucket } from '../support/s3';

const exec = promisify(execFile);
jest.setTimeout(120_000);

describe('npm run files:migrate', () => {
  const bucket = setupS3Bucket('migrated/');
  let dir: string;
  let keys: string[];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'files-migrate-'));
    const store = createFileStore(dir);
    keys = [];
    for (const text of ['first upload', 'second upload', 'Zażółć gęślą jaźń'])
      keys.push((await store.put(Buffer.from(text))).key);
    // A page image, and what is not a stored file: a parse's staging folder, a write's temporary file.
    fs.mkdirSync(path.join(dir, 'pages', '7'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'pages', '7', '0.png'), 'page zero');
    keys.push('pages/7/0.png');
    fs.mkdirSync(path.join(dir, 'pages', '7.staging-abc'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'pages', '7.staging-abc', '0.png'), 'half a parse');
    fs.writeFileSync(path.join(dir, `${keys[0]}.1a2b.tmp`), 'half a write');
    keys.sort();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const migrate = () => migrateFiles({ from: dir, to: bucket.settings });

  it('copies every stored file under its key, verified, and nothing the second time', async () => {
    const first = await migrate();
    expect(first).toMatchObject({ copied: 4, skipped: 0, failed: [] });
    expect(await bucket.keys()).toEqual(keys);
    for (const key of keys)
      expect((await bucket.bytes(key)).equals(fs.readFileSync(path.join(dir, key)))).toBe(true);
    const head = await bucket
      .client()
      .send(new HeadObjectCommand({ Bucket: bucket.settings.bucket, Key: `migrated/${keys[0]}` }));
    expect(head.Metadata?.sha256).toBe(sha256(fs.readFileSync(path.join(dir, keys[0]))));

    expect(await migrate()).toMatchObject({ copied: 0, skipped: 4, bytesCopied: 0, failed: [] });
  });

  it('finishes a stopped run and replaces an object that is not the file', async () => {
    const client = bucket.client();
    // As if the last run stopped before this object, and something else wrote over another one.
    await client.send(
      new DeleteObjectCommand({ Bucket: bucket.settings.bucket, Key: `migrated/${keys[1]}` }),
    );
    await client.send(
      new PutObjectCommand({
        Bucket: bucket.settings.bucket,
        Key: `migrated/${keys[2]}`,
        Body: 'not the file',
      }),
    );
    expect(await migrate()).toMatchObject({ copied: 2, skipped: 2, failed: [] });
    for (const key of keys)
      expect((await bucket.bytes(key)).equals(fs.readFileSync(path.join(dir, key)))).toBe(true);
  });

  it('reports a local file that does not match its hash and does not copy it', async () => {
    const key = keyOfHash(sha256(Buffer.from('what was uploaded')));
    fs.mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
    fs.writeFileSync(path.join(dir, key), 'what the disk holds now');
    try {
      const report = await migrate();
      expect(report.failed).toEqual([{ key, reason: expect.stringMatching(/does not match the hash/) }]);
      expect(await bucket.keys(key)).toEqual([]);
    } finally {
      fs.rmSync(path.join(dir, key));
    }
  });

  it('runs as a command with the AWS SDK variables, and refuses a bad FILES_STORE in one line', async () => {
    const tsx = path.resolve('node_modules/.bin/tsx');
    const env = {
      ...process.env,
      FILES_DIR: dir,
      FILES_STORE: `s3://${bucket.settings.bucket}/migrated`,
      AWS_ENDPOINT_URL_S3: bucket.server.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: bucket.server.accessKeyId,
      AWS_SECRET_ACCESS_KEY: bucket.server.secretAccessKey,
    };
    const { stdout } = await exec(tsx, ['scripts/files-migrate.ts'], { env });
    expect(stdout).toMatch(/copied 0 .*already there 4, failed 0/);

    const bad = await exec(tsx, ['scripts/files-migrate.ts'], {
      env: { ...env, FILES_STORE: '/srv/files' },
    }).catch((err: { code: number; stderr: string }) => err);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr.trim().split('\n').pop()).toBe(
      '[files:migrate] FILES_STORE must be s3://bucket or s3://bucket/prefix (is /srv/files)',
    );
  });
});
