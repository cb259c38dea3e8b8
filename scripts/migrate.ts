/** `npm run migrate`: migrations and the idempotent seed against DATABASE_URL. */
import { migrateAndSeed } from './lib/prepare';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set');
  process.exit(2);
}
migrateAndSeed(url).then(
  () => console.log('[migrate] database is up to date'),
  (err) => {
    console.error('[migrate] failed:', err);
    process.exit(1);
  },
);
