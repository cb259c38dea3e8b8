/**
 * The S3 file store (server/files-s3.ts) against a real S3-compatible server (versitygw, tests/support/s3.ts):
 * content-hash keys under the prefix with their sha256 recorded, range reads, copies for programs, page
 * images swapped by their parse's transaction, and health that follows the bucket.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { createS3FileStore } from '../../server/files-s3';
import { FileMissing, KeyOutsideStore, keyOfHash, sha256, type FileStore } from '../../server/files';
import { setupS3Bucket } from '../support/s3';

const text = async (s: NodeJS.ReadableStream) => {
  const parts: Buffer[] = [];
  for await (const c of s) parts.push(Buffer.from(c as Buffer));
  return Buffer.concat(parts).toString('utf8');
};

describe('the S3 file store', () => {
  const bucket = setupS3Bucket('files/');
  let store: FileStore;
  let work: string;

  beforeAll(() => {
    store = createS3FileStore(bucket.settings);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 's3-store-'));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('stores bytes once under their content hash with the hash in the metadata', async () => {
    const bytes = Buffer.from(`Zażółć gęślą jaźń ${crypto.randomUUID()}`);
    const first = await store.put(bytes);
    expect(first).toEqual({ key: keyOfHash(sha256(bytes)), hash: sha256(bytes), size: bytes.length });
    expect(await store.put(bytes)).toEqual(first);
    expect(await bucket.keys(first.key.slice(0, 5))).toEqual([first.key]);
    expect((await bucket.bytes(first.key)).equals(bytes)).toBe(true);
    const head = await bucket
      .client()
      .send(new HeadObjectCommand({ Bucket: bucket.settings.bucket, Key: `files/${first.key}` }));
    expect(head.Metadata?.sha256).toBe(first.hash);
    expect(await store.exists(first.key)).toBe(true);
    expect(await store.size(first.key)).toBe(bytes.length);
  });

  it('reads a range of bytes, copies a file for programs, and tells a missing key', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    const { key } = await store.put(bytes);
    expect(await text(await store.openRead(key, { start: 10, end: 14 }))).toBe('abcde');
    expect(await text(await store.openRead(key))).toBe(bytes.toString());
    const copy = path.join(work, 'copy');
    await store.download(key, copy);
    expect(fs.readFileSync(copy).equals(bytes)).toBe(true);

    const gone = keyOfHash(sha256(Buffer.from('never stored')));
    expect(await store.exists(gone)).toBe(false);
    expect(await store.size(gone)).toBeNull();
    await expect(store.openRead(gone)).rejects.toBeInstanceOf(FileMissing);
    await expect(store.download(gone, path.join(work, 'gone'))).rejects.toBeInstanceOf(FileMissing);
    await expect(store.exists('../other-bucket/x')).rejects.toBeInstanceOf(KeyOutsideStore);

    await store.remove(key);
    expect(await store.exists(key)).toBe(false);
  });

  it('swaps page images by transaction: the previous parse goes on commit, the new one on undo', async () => {
    const png = (n: number) => {
      const p = path.join(work, `page-${n}.png`);
      fs.writeFileSync(p, `png ${n}`);
      return p;
    };
    const id = 900_000 + crypto.randomInt(99_999);
    const first = await store.stagePages(id, [png(1), png(2)]);
    expect(first.rows.map((r) => r.index)).toEqual([0, 1]);
    await (await first.swapIn([])).cleanup();
    const firstKeys = first.rows.map((r) => r.path);
    expect(await bucket.keys(`pages/${id}/`)).toEqual([...firstKeys].sort());
    expect(await text(await store.openRead(firstKeys[1]))).toBe('png 2');

    // A rerun: committed, the first parse's objects are removed, its own kept.
    const second = await store.stagePages(id, [png(3)]);
    await (await second.swapIn(firstKeys)).cleanup();
    expect(await bucket.keys(`pages/${id}/`)).toEqual([second.rows[0].path]);

    // A rerun whose transaction fails leaves the pages as they were.
    const failed = await store.stagePages(id, [png(4), png(5)]);
    await (await failed.swapIn([second.rows[0].path])).undo();
    const discarded = await store.stagePages(id, [png(6)]);
    await discarded.discard();
    expect(await bucket.keys(`pages/${id}/`)).toEqual([second.rows[0].path]);

    // Documents deleted: their pages go, another document's (a longer id with the same start) stay.
    const other = await store.stagePages(id * 10, [png(7)]);
    await (await other.swapIn([])).cleanup();
    await store.removePages([id]);
    expect(await bucket.keys(`pages/${id}/`)).toEqual([]);
    expect(await bucket.keys(`pages/${id * 10}/`)).toEqual([other.rows[0].path]);
  });

  it('is UP while the bucket answers and DOWN with the reason when it does not', async () => {
    expect(await store.health(0)).toMatchObject({
      status: 'UP',
      details: { store: 's3', bucket: bucket.settings.bucket, prefix: 'files/' },
    });
    const missing = createS3FileStore({ ...bucket.settings, bucket: 'no-such-bucket-here' });
    const down = await missing.health(0);
    expect(down.status).toBe('DOWN');
    expect(String(down.details?.error)).toMatch(/404|NotFound|NoSuchBucket/);
  });
});
