/**
 * `npx tsx scripts/rotate-key.ts` (npm run rotate-key): rotates the data encryption key of the credential
 * columns (db/crypto.ts). Generates a new key (or takes DATA_ENCRYPTION_KEY_NEW), re-encrypts every credential
 * value with it in one transaction against DATABASE_URL, then:
 * - key file mode (no DATA_ENCRYPTION_KEY): the old key is kept as `keys/data-encryption-key.<oldId>` (it
 *   still opens what a process started before the rotation seals until it is restarted) and the new key
 *   becomes `keys/data-encryption-key`. Running processes pick the new key up when they meet it; restart
 *   them so they also seal with it, then `--prune` deletes retired key files no value uses any more.
 * - environment mode (DATA_ENCRYPTION_KEY set): nothing is written; the script prints the variables to set
 *   (the new key, the old one as DATA_ENCRYPTION_KEY_PREVIOUS) before restarting the API and the worker.
 *   To avoid a window where running processes meet values they cannot open, first add the new key to
 *   DATA_ENCRYPTION_KEY_PREVIOUS everywhere, restart, then run this with DATA_ENCRYPTION_KEY_NEW=<that key>.
 * The new key file is written before the transaction commits, so a crash at any point loses no key. A value
 * no key of the keyring opens (altered, or sealed with a lost key) stops the rotation with nothing changed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import {
  DATA_KEY_NAME,
  decodeKey,
  isSealed,
  keyIdOf,
  loadKeyring,
  SEALED_COLUMNS,
  sealedKeyId,
  type SealedTable,
} from '../db/crypto';
import { keysDir, writeKey } from '../db/keys';
import { resealColumns } from '../db/reseal';

export interface RotationOutcome {
  oldKeyId: string;
  newKeyId: string;
  /** Values re-encrypted per `table.column`. */
  counts: Record<string, number>;
  /** Environment mode: what to set before restarting (null in key file mode). */
  environment: { DATA_ENCRYPTION_KEY: string; DATA_ENCRYPTION_KEY_PREVIOUS: string } | null;
}

export async function rotateDataKey(
  knex: Knex,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RotationOutcome> {
  const ring = loadKeyring(env);
  const newKey = env.DATA_ENCRYPTION_KEY_NEW
    ? decodeKey(env.DATA_ENCRYPTION_KEY_NEW, 'DATA_ENCRYPTION_KEY_NEW')
    : crypto.randomBytes(32);
  const newKeyId = keyIdOf(newKey);
  if (newKeyId === ring.currentId) throw new Error('the new key is the current key');
  const fileMode = !env.DATA_ENCRYPTION_KEY?.trim();
  const dir = keysDir(env);
  const currentFile = path.join(dir, DATA_KEY_NAME);
  if (fileMode) {
    // Both keys on disk before any value changes: whatever happens next, every value stays readable.
    writeKey(
      `${DATA_KEY_NAME}.${ring.currentId}`,
      decodeKey(fs.readFileSync(currentFile, 'utf8'), currentFile),
      env,
    );
    writeKey(`${DATA_KEY_NAME}.${newKeyId}`, newKey, env);
  }
  const rotated = ring.withCurrent(newKey);
  const counts = await knex.transaction((trx) => resealColumns(trx, { keyring: rotated }));
  if (fileMode) {
    writeKey(DATA_KEY_NAME, newKey, env);
    fs.rmSync(path.join(dir, `${DATA_KEY_NAME}.${newKeyId}`), { force: true });
  }
  return {
    oldKeyId: ring.currentId,
    newKeyId,
    counts,
    environment: fileMode
      ? null
      : {
          DATA_ENCRYPTION_KEY: newKey.toString('base64'),
          DATA_ENCRYPTION_KEY_PREVIOUS: env.DATA_ENCRYPTION_KEY!.trim(),
        },
  };
}

/** Deletes retired key files (`data-encryption-key.<id>`) whose id no stored value names. */
export async function pruneRetiredKeys(knex: Knex, env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const used = new Set<string>();
  for (const table of Object.keys(SEALED_COLUMNS) as SealedTable[])
    for (const column of SEALED_COLUMNS[table])
      for (const v of (await knex(table).whereNotNull(column).pluck(column)) as string[])
        if (isSealed(v)) used.add(sealedKeyId(v)!);
  const dir = keysDir(env);
  const pruned: string[] = [];
  if (!fs.existsSync(dir)) return pruned;
  for (const f of fs.readdirSync(dir)) {
    const id = /^data-encryption-key\.([0-9a-f]{8})$/.exec(f)?.[1];
    if (id && !used.has(id)) {
      fs.rmSync(path.join(dir, f));
      pruned.push(f);
    }
  }
  return pruned;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set (`npm start` prints the URL of its embedded database)');
    process.exit(2);
  }
  const knex = knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 2 } });
  try {
    if (process.argv.includes('--prune')) {
      const pruned = await pruneRetiredKeys(knex);
      console.log(`[rotate-key] retired key files deleted: ${pruned.join(', ') || 'none'}`);
      return;
    }
    const out = await rotateDataKey(knex);
    const total = Object.values(out.counts).reduce((a, b) => a + b, 0);
    console.log(`[rotate-key] ${total} values re-encrypted from key ${out.oldKeyId} to key ${out.newKeyId}`);
    for (const [column, n] of Object.entries(out.counts)) console.log(`  ${column}: ${n}`);
    if (out.environment) {
      console.log('[rotate-key] set these before restarting the API and the worker:');
      console.log(`  DATA_ENCRYPTION_KEY=${out.environment.DATA_ENCRYPTION_KEY}`);
      console.log(`  DATA_ENCRYPTION_KEY_PREVIOUS=${out.environment.DATA_ENCRYPTION_KEY_PREVIOUS}`);
    } else {
      console.log(`[rotate-key] new key in ${path.join(keysDir(), DATA_KEY_NAME)}; the old one kept as`);
      console.log(
        `  ${DATA_KEY_NAME}.${out.oldKeyId}. Restart the API and the worker, then run with --prune.`,
      );
    }
  } finally {
    await knex.destroy();
  }
}

if (require.main === module)
  main().catch((err) => {
    console.error('[rotate-key] failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
