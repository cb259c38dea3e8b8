/**
 * The file store in S3-compatible object storage (server/files.ts), FILES_STORE=s3://bucket/prefix: each
 * key is an object under the prefix. The client takes the AWS SDK's own settings (AWS_REGION, the
 * credential chain: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, a pod's web identity;
 * AWS_ENDPOINT_URL_S3 for a non-AWS endpoint, which also turns on path-style addressing, as MinIO, Ceph,
 * versitygw and most others need). A PutObject is atomic (the object is whole or absent), so a write needs no
 * temporary name; each object carries the sha256 of its bytes in its metadata (`x-amz-meta-sha256`), which
 * `npm run files:migrate` checks.
 *
 * Page images are written under a prefix of their own parse (`pages/<id>/<uuid>/<index>.png`) before the
 * transaction that records them, and the previous parse's objects (the keys of the rows it replaced) are
 * removed once it committed: objects cannot be renamed as a folder, and a parse waiting on the document's
 * lock never has its fresh objects removed by the one ahead of it.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import {
  FileMissing,
  FilesStoreUnavailable,
  KeyOutsideStore,
  keyOfHash,
  pagesFolder,
  sha256,
  type FileStore,
  type StagedPages,
} from './files';

/** FILES_STORE and the client settings that go with it (server/config.ts). */
export interface ObjectStoreSettings {
  bucket: string;
  /** '' or a prefix ending with '/'. */
  prefix: string;
  /** AWS_ENDPOINT_URL_S3 (or AWS_ENDPOINT_URL); AWS's own endpoints when absent. */
  endpoint?: string;
  /** AWS_REGION; the SDK's chain (a profile) when absent, `us-east-1` with an endpoint of another vendor. */
  region?: string;
  /** Path-style addressing (`endpoint/bucket/key`): on with an endpoint. */
  forcePathStyle: boolean;
  /** The SDK's credential chain when absent (tests give the keys of their server). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** `s3://bucket[/prefix]` as bucket and prefix; a clear error for anything else. */
export function parseFilesStoreUrl(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url.trim());
  if (!m) throw new Error(`FILES_STORE must be s3://bucket or s3://bucket/prefix (is ${url})`);
  const [, bucket, rest = ''] = m;
  if (!BUCKET.test(bucket))
    throw new Error(`FILES_STORE names an invalid bucket "${bucket}" (3-63 of a-z, 0-9, dot and hyphen)`);
  const parts = rest.split('/').filter(Boolean);
  if (parts.some((p) => p === '.' || p === '..'))
    throw new Error(`FILES_STORE has "." or ".." in its prefix (is ${url})`);
  return { bucket, prefix: parts.length ? `${parts.join('/')}/` : '' };
}

/** The settings of FILES_STORE from the environment, or null when it is unset (the local directory). */
export function objectStoreSettingsOf(env: NodeJS.ProcessEnv): ObjectStoreSettings | null {
  const url = env.FILES_STORE?.trim();
  if (!url) return null;
  const endpoint = env.AWS_ENDPOINT_URL_S3?.trim() || env.AWS_ENDPOINT_URL?.trim() || undefined;
  const region =
    env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || (endpoint ? 'us-east-1' : undefined);
  return {
    ...parseFilesStoreUrl(url),
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    forcePathStyle: !!endpoint,
  };
}

/** `s3://bucket/prefix` of the settings. */
export const storeUrl = (s: Pick<ObjectStoreSettings, 'bucket' | 'prefix'>): string =>
  `s3://${s.bucket}/${s.prefix}`.replace(/\/$/, '');

export function s3ClientOf(s: ObjectStoreSettings): S3Client {
  const config: S3ClientConfig = {
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    ...(s.credentials ? { credentials: s.credentials } : {}),
  };
  // Other vendors' servers do not all know the SDK's newer default checksums: only where S3 requires one.
  if (s.endpoint) {
    config.requestChecksumCalculation = 'WHEN_REQUIRED';
    config.responseChecksumValidation = 'WHEN_REQUIRED';
  }
  return new S3Client(config);
}

/** The SDK's "no such object" (HeadObject answers a bare 404, GetObject NoSuchKey). */
export const isNotFound = (err: unknown): boolean => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

export function createS3FileStore(s: ObjectStoreSettings): FileStore {
  const client = s3ClientOf(s);
  const Bucket = s.bucket;
  const objectKey = (key: string): string => {
    const parts = key.split('/');
    if (!key || key.startsWith('/') || key.includes('\\') || parts.some((p) => p === '..' || p === '.' || !p))
      throw new KeyOutsideStore(key);
    return s.prefix + key;
  };
  const head = async (key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };
  const get = async (key: string, range?: { start: number; end: number }) => {
    try {
      const out = await client.send(
        new GetObjectCommand({
          Bucket,
          Key: objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return out.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new FileMissing(key);
      throw err;
    }
  };
  const putObject = (key: string, body: Uint8Array, hash: string) =>
    client.send(
      new PutObjectCommand({
        Bucket,
        Key: objectKey(key),
        Body: body,
        ContentLength: body.length,
        Metadata: { sha256: hash },
      }),
    );
  /** Every key (relative to the store) under a prefix of keys. */
  const keysUnder = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, Prefix: s.prefix + prefix, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key.slice(s.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  };
  const removeAll = async (keys: readonly string[]) => {
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      const out = await client.send(
        new DeleteObjectsCommand({
          Bucket,
          Delete: { Objects: chunk.map((k) => ({ Key: objectKey(k) })), Quiet: true },
        }),
      );
      if (out.Errors?.length)
        throw new Error(
          `removing ${out.Errors.length} objects failed: ${out.Errors[0].Key} ${out.Errors[0].Code ?? ''}`,
        );
    }
  };

  return {
    location: storeUrl(s),
    exists: async (key) => (await head(key)) !== null,
    async put(bytes, knownHash) {
      const hash = knownHash ?? sha256(bytes);
      const key = keyOfHash(hash);
      try {
        if (!(await head(key))) await putObject(key, bytes, hash);
      } catch (err) {
        // The caller's transaction rolls back: no document points at an object that was not written.
        throw new FilesStoreUnavailable(storeUrl(s), err);
      }
      return { key, hash, size: bytes.length };
    },
    async size(key) {
      return (await head(key))?.ContentLength ?? null;
    },
    openRead: (key, range) => get(key, range),
    async download(key, localPath) {
      await pipeline(await get(key), fs.createWriteStream(localPath, { flags: 'wx' }));
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async removePages(documentIds) {
      for (const id of documentIds) {
        const folder = pagesFolder(id);
        await removeAll([...(await keysUnder(`${folder}/`)), ...(await keysUnder(`${folder}.`))]);
      }
    },
    async stagePages(documentId, sources): Promise<StagedPages> {
      const run = path.posix.join(pagesFolder(documentId), crypto.randomUUID());
      const rows = sources.map((_, index) => ({ index, path: path.posix.join(run, `${index}.png`) }));
      const written: string[] = [];
      try {
        for (const [index, src] of sources.entries()) {
          const bytes = await fs.promises.readFile(src);
          await putObject(rows[index].path, bytes, sha256(bytes));
          written.push(rows[index].path);
        }
      } catch (err) {
        await removeAll(written).catch(() => undefined);
        throw err;
      }
      return {
        rows,
        // Nothing moves: the rows name the new objects; the previous parse's go once this one committed.
        swapIn: async (previous) => ({
          undo: () => removeAll(written),
          cleanup: () => removeAll(previous.filter((k) => !written.includes(k))),
        }),
        discard: () => removeAll(written),
      };
    },
    async health() {
      const details = { store: 's3', bucket: s.bucket, prefix: s.prefix, endpoint: s.endpoint ?? 'AWS' };
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(3000) });
        return { status: 'UP', details };
      } catch (err) {
        const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
        const status = e.$metadata?.httpStatusCode;
        return {
          status: 'DOWN',
          details: {
            ...details,
            error: `${e.name ?? 'Error'}${status ? ` (${status})` : ''}: ${e.message ?? ''}`,
          },
        };
      }
    },
  };
}
