/**
 * A real S3-compatible server for the suites of the S3 file store: versitygw (scripts/lib/versitygw.ts) on a
 * free loopback port over a temporary directory, one bucket of the suite's own. `settings` is the
 * FILES_STORE of that bucket (with a prefix, as an operator would set one); it is filled in by this helper's
 * beforeAll, so call setupS3Bucket() before the suite helpers that are handed it (their hooks run later).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { s3ClientOf, type ObjectStoreSettings } from '../../server/files-s3';
import { ensureVersitygw, startVersitygw, type RunningS3Server } from '../../scripts/lib/versitygw';

export interface S3Bucket {
  readonly settings: ObjectStoreSettings;
  readonly server: RunningS3Server;
  /** The keys under the store's prefix (relative to it), sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** The bytes of a key of the store. */
  bytes(key: string): Promise<Buffer>;
  /** A client with the server's keys (for what the store does not do: another bucket, raw objects). */
  client(): S3Client;
}

export function setupS3Bucket(prefix = 'workbench/'): S3Bucket {
  const settings: ObjectStoreSettings = {
    bucket: `wb-${crypto.randomBytes(5).toString('hex')}`,
    prefix,
    region: 'us-east-1',
    forcePathStyle: true,
  };
  let dir: string | undefined;
  let server: RunningS3Server | undefined;
  let client: S3Client | undefined;

  beforeAll(async () => {
    const bin = ensureVersitygw();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'versitygw-'));
    server = await startVersitygw(bin, dir);
    settings.endpoint = server.endpoint;
    settings.credentials = { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey };
    client = s3ClientOf(settings);
    await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
  }, 600_000);

  afterAll(async () => {
    client?.destroy();
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const started = () => {
    if (!client || !server) throw new Error('the S3 server is not started yet');
    return { client, server };
  };
  return {
    settings,
    get server() {
      return started().server;
    },
    client: () => started().client,
    async keys(under = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await started().client.send(
          new ListObjectsV2Command({
            Bucket: settings.bucket,
            Prefix: settings.prefix + under,
            ContinuationToken: token,
          }),
        );
        for (const o of page.Contents ?? []) keys.push(o.Key!.slice(settings.prefix.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async bytes(key) {
      const out = await started().client.send(
        new GetObjectCommand({ Bucket: settings.bucket, Key: settings.prefix + key }),
      );
      return Buffer.from(await out.Body!.transformToByteArray());
    },
  };
}
