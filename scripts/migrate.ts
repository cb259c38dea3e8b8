/** `npm run migrate`: migrations and the idempotent seed against DATABASE_URL. */
import { migrateAndSeed } from './lib/prepare';
import { EXIT_CONFIG, SettingError } from '../server/setting-error';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('DATABASE_URL is not set');
  process.exit(2);
}
migrateAndSeed(url).then(
  () => console.log('[migrate] database is up to date'),
  (err) => {
    // A setting that cannot work: its one line, no stack.
    if (err instanceof SettingError) {
      console.error(`[migrate] ${err.message}`);
      process.exit(EXIT_CONFIG);
    }
    console.error('[migrate] failed:', err);
    process.exit(1);
  },
);
