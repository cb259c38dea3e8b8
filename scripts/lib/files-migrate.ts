/**
 * `npm run files:migrate` (scripts/files-migrate.ts): copies a local files store (FILES_DIR) into the bucket
 * of FILES_STORE under the same keys, so the database's paths stay valid. Verified by hash: a content-hash
 * file (`ab/cd/<sha256>`) must match its own name before it is sent (a damaged file is reported, not
 * copied), each object carries its sha256 in its metadata, and each copy is read back and hashed before it
 * counts. Idempotent and resumable: an object already there with the same size and recorded sha256 is
 * skipped, so a run stopped half-way (a PutObject is whole or absent) is finished by running it again, and a
 * second run copies nothing. Temporary files and the staging folders of an interrupted parse are left out.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { isNotFound, s3ClientOf, storeUrl, type ObjectStoreSettings } from '../../server/files-s3';

export interface MigrationReport {
  copied: number;
  /** Already in the bucket with the same size and sha256. */
  skipped: number;
  bytesCopied: number;
  failed: { key: string; reason: string }[];
}

const CONTENT_KEY = /^[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{64})$/;
/** What is not a stored file: a write's temporary file, a parse's staging or set-aside pages folder. */
const LEFT_OUT = /(\.tmp$)|(^pages\/\d+\.(staging|old)-)/;

/** The keys of the files under `root` (posix, relative), sorted, without what LEFT_OUT names. */
export function localKeys(root: string): string[] {
  if (!fs.existsSync(root)) throw new Error(`the files directory ${root} does not exist`);
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .filter((k) => !LEFT_OUT.test(k))
    .sort();
}

async function hashOf(stream: NodeJS.ReadableStream): Promise<string> {
  const h = crypto.createHash('sha256');
  await pipeline(stream, h);
  return h.digest('hex');
}

type Outcome = { skipped: true } | { copied: number } | { failed: string };

async function copyOne(
  client: S3Client,
  s: ObjectStoreSettings,
  root: string,
  key: string,
): Promise<Outcome> {
  const file = path.join(root, key);
  const size = fs.statSync(file).size;
  const hash = await hashOf(fs.createReadStream(file));
  const named = CONTENT_KEY.exec(key)?.[1];
  if (named && named !== hash)
    return { failed: 'the file does not match the hash it is stored under (damaged): not copied' };
  const Key = s.prefix + key;
  const there = await client.send(new HeadObjectCommand({ Bucket: s.bucket, Key })).catch((err) => {
    if (isNotFound(err)) return null;
    throw err;
  });
  if (there && there.ContentLength === size && there.Metadata?.sha256 === hash) return { skipped: true };
  await client.send(
    new PutObjectCommand({
      Bucket: s.bucket,
      Key,
      Body: fs.createReadStream(file),
      ContentLength: size,
      Metadata: { sha256: hash },
    }),
  );
  const back = await client.send(new GetObjectCommand({ Bucket: s.bucket, Key }));
  if ((await hashOf(back.Body as NodeJS.ReadableStream)) !== hash) {
    await client.send(new DeleteObjectCommand({ Bucket: s.bucket, Key }));
    return { failed: 'the copy read back does not match the file: removed, run again' };
  }
  return { copied: size };
}

export async function migrateFiles(opts: {
  from: string;
  to: ObjectStoreSettings;
  log?: (line: string) => void;
}): Promise<MigrationReport> {
  const log = opts.log ?? (() => {});
  const root = path.resolve(opts.from);
  const keys = localKeys(root);
  const client = s3ClientOf(opts.to);
  const report: MigrationReport = { copied: 0, skipped: 0, bytesCopied: 0, failed: [] };
  log(`[files:migrate] ${keys.length} files in ${root} -> ${storeUrl(opts.to)}`);
  try {
    for (const [i, key] of keys.entries()) {
      try {
        const r = await copyOne(client, opts.to, root, key);
        if ('skipped' in r) report.skipped++;
        else if ('copied' in r) {
          report.copied++;
          report.bytesCopied += r.copied;
        } else report.failed.push({ key, reason: r.failed });
      } catch (err) {
        report.failed.push({ key, reason: (err as Error).message || (err as Error).name });
      }
      if ((i + 1) % 500 === 0) log(`[files:migrate] ${i + 1}/${keys.length}`);
    }
  } finally {
    client.destroy();
  }
  for (const f of report.failed) log(`[files:migrate] FAILED ${f.key}: ${f.reason}`);
  log(
    `[files:migrate] copied ${report.copied} (${report.bytesCopied} bytes, each read back and hashed), already there ${report.skipped}, failed ${report.failed.length}`,
  );
  return report;
}
