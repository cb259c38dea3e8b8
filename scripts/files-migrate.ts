/**
 * `npm run files:migrate [-- --from DIR]`: copies the local files store (FILES_DIR, or DIR) into the bucket
 * of FILES_STORE=s3://bucket/prefix with the AWS SDK's settings (AWS_REGION, AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_ENDPOINT_URL_S3), verified by hash, idempotent and resumable
 * (scripts/lib/files-migrate.ts; docs/operations.md). Exits 1 when a file could not be copied, 2 on a bad setting.
 */
import { filesDirOf } from '../server/config';
import { objectStoreSettingsOf } from '../server/files-s3';
import { migrateFiles } from './lib/files-migrate';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--from');
  if (args.some((a, i) => a !== '--from' && i !== at + 1)) {
    console.error('usage: npm run files:migrate [-- --from DIR]');
    return 2;
  }
  let to;
  try {
    to = objectStoreSettingsOf(process.env);
  } catch (err) {
    console.error(`[files:migrate] ${(err as Error).message}`);
    return 2;
  }
  if (!to) {
    console.error(
      '[files:migrate] FILES_STORE is not set: name the bucket to copy into (FILES_STORE=s3://bucket/prefix)',
    );
    return 2;
  }
  const from = at >= 0 && args[at + 1] ? args[at + 1] : filesDirOf(process.env);
  const report = await migrateFiles({ from, to, log: (line) => console.log(line) });
  return report.failed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`[files:migrate] ${(err as Error).message}`);
    process.exit(1);
  },
);
