/**
 * Encryption at rest of the credential columns (SEALED_COLUMNS): process secrets, IMAP and SFTP passwords,
 * SFTP private keys and cloud-drive OAuth tokens. Shared by the API (writes, connection tests) and the
 * worker (reads to connect), which must not import each other: hence db/.
 *
 * A sealed value is `enc:v1:<keyId>:<iv>:<ciphertext>:<tag>` (base64 parts): AES-256-GCM with a random
 * 96-bit IV, the `table.column` it belongs to as additional data (a ciphertext copied into another column
 * does not open), and the id of the key that sealed it (8 hex of a hash of the key, not the key).
 *
 * Keys: DATA_ENCRYPTION_KEY (base64 of 32 bytes) when set, else `$DATA_DIR/keys/data-encryption-key`,
 * generated on first start. The keyring also holds the keys that only open: DATA_ENCRYPTION_KEY_PREVIOUS
 * (comma-separated), the retired key files `data-encryption-key.<keyId>` that scripts/rotate-key.ts
 * leaves, and the key file when the environment names another key. A process meeting a key id it does not
 * hold reloads the keyring once (another process rotated the key since it started).
 *
 * A value that is not in the sealed format is read as it is: rows written before migration 011, which
 * seals them, or by a process of the previous version during a rolling upgrade.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { keysDir, loadOrCreateKey } from './keys';

export const DATA_KEY_NAME = 'data-encryption-key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const B64 = '[A-Za-z0-9+/]*={0,2}';
const SEALED = new RegExp(`^enc:v1:([0-9a-f]{8}):(${B64}):(${B64}):(${B64})$`);

/** Every column holding a credential: what writes seal, migration 011 and the key rotation re-encrypt. */
export const SEALED_COLUMNS = {
  secrets: ['value'],
  email_upload_connections: ['password'],
  sftp_connections: ['password', 'private_key'],
  drive_connections: ['access_token', 'refresh_token'],
  webhooks: ['secret'],
} as const;
export type SealedTable = keyof typeof SEALED_COLUMNS;

/** A sealed value that cannot be opened: unknown key, wrong key, or altered in the database. */
export class UnreadableCredential extends Error {
  constructor(
    readonly context: string,
    readonly reason: string,
  ) {
    super(`The stored ${context} cannot be decrypted (${reason}): save it again.`);
    this.name = 'UnreadableCredential';
  }
}

export const keyIdOf = (key: Buffer): string =>
  crypto.createHash('sha256').update('data-encryption-key-id\0').update(key).digest('hex').slice(0, 8);

/** A base64 key of exactly 32 bytes, or an error naming the variable. */
export function decodeKey(text: string, source: string): Buffer {
  // 32 bytes are 43 base64 characters and one '=' of padding.
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(text.trim()))
    throw new Error(`${source} must be the base64 of ${KEY_BYTES} random bytes (openssl rand -base64 32)`);
  return Buffer.from(text.trim(), 'base64');
}

export const isSealed = (value: unknown): value is string => typeof value === 'string' && SEALED.test(value);

/** The key id a sealed value names, or null for a value not sealed. */
export function sealedKeyId(value: string): string | null {
  return SEALED.exec(value)?.[1] ?? null;
}

export class Keyring {
  readonly currentId: string;
  private readonly keys = new Map<string, Buffer>();

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new Error(`a data encryption key must have ${KEY_BYTES} bytes`);
      if (!this.keys.has(keyIdOf(key))) this.keys.set(keyIdOf(key), key);
    }
    this.currentId = keyIdOf(current);
  }

  has(keyId: string): boolean {
    return this.keys.has(keyId);
  }

  /** A keyring sealing with `key` that still opens with every key of this one (rotation). */
  withCurrent(key: Buffer): Keyring {
    return new Keyring(key, [...this.keys.values()]);
  }

  /** Seals `plain` for the column `context` (`table.column`) with the current key. */
  seal(plain: string, context: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.keys.get(this.currentId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const b64 = (b: Buffer) => b.toString('base64');
    return `enc:v1:${this.currentId}:${b64(iv)}:${b64(body)}:${b64(cipher.getAuthTag())}`;
  }

  /** Opens a sealed value of the column `context`; throws UnreadableCredential when it cannot. */
  open(sealed: string, context: string): string {
    const m = SEALED.exec(sealed);
    if (!m) throw new UnreadableCredential(context, 'not in the sealed format');
    const [, keyId, iv, body, tag] = m;
    const key = this.keys.get(keyId);
    if (!key) throw new UnreadableCredential(context, `key ${keyId} is not configured`);
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new UnreadableCredential(context, 'it was altered or sealed with another key');
    }
  }
}

/** Key files other than the current one: `data-encryption-key.<keyId>` left by a rotation. */
function retiredKeyFiles(env: NodeJS.ProcessEnv): Buffer[] {
  const dir = keysDir(env);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter(
      (f) => f.startsWith(`${DATA_KEY_NAME}.`) && /^[0-9a-f]{8}$/.test(f.slice(DATA_KEY_NAME.length + 1)),
    )
    .sort()
    .map((f) => decodeKey(fs.readFileSync(path.join(dir, f), 'utf8'), path.join(dir, f)));
}

/** The installation's keyring, from the environment and the key files (the current key created if none). */
export function loadKeyring(env: NodeJS.ProcessEnv = process.env): Keyring {
  const fromEnv = env.DATA_ENCRYPTION_KEY?.trim();
  const previous = (env.DATA_ENCRYPTION_KEY_PREVIOUS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => decodeKey(k, 'DATA_ENCRYPTION_KEY_PREVIOUS'));
  if (fromEnv) {
    // A key file of an earlier, file-based start still opens what it sealed.
    const file = path.join(keysDir(env), DATA_KEY_NAME);
    const earlier = fs.existsSync(file) ? [decodeKey(fs.readFileSync(file, 'utf8'), file)] : [];
    return new Keyring(decodeKey(fromEnv, 'DATA_ENCRYPTION_KEY'), [
      ...previous,
      ...earlier,
      ...retiredKeyFiles(env),
    ]);
  }
  const current = loadOrCreateKey(DATA_KEY_NAME, KEY_BYTES, env);
  if (current.length !== KEY_BYTES)
    throw new Error(`the key file ${DATA_KEY_NAME} must hold ${KEY_BYTES} bytes`);
  return new Keyring(current, [...previous, ...retiredKeyFiles(env)]);
}

let cached: Keyring | undefined;

/** The process's keyring, loaded on first use. */
export function dataKeyring(): Keyring {
  cached ??= loadKeyring();
  return cached;
}

/** Forgets the loaded keyring (tests, and a process told that the key was rotated). */
export function resetDataKeyring(): void {
  cached = undefined;
}

const contextOf = (table: SealedTable, column: string) => `${table}.${column}`;

/** Seals a clear value for `table.column`; null and '' (nothing stored) stay as they are. */
export function sealValue(
  table: SealedTable,
  column: string,
  plain: string | null | undefined,
): string | null {
  if (plain === null || plain === undefined || plain === '') return plain ?? null;
  return dataKeyring().seal(plain, contextOf(table, column));
}

/** Opens a stored value of `table.column` (a value not sealed yet is returned as it is). */
export function openValue(
  table: SealedTable,
  column: string,
  stored: string | null | undefined,
): string | null {
  if (stored === null || stored === undefined || !isSealed(stored)) return stored ?? null;
  const keyId = sealedKeyId(stored)!;
  if (!dataKeyring().has(keyId)) resetDataKeyring(); // rotated by another process since this one loaded it
  return dataKeyring().open(stored, contextOf(table, column));
}

/** The row with its credential columns opened (columns absent from the row are left absent). */
export function openRow<R extends object>(table: SealedTable, row: R): R {
  const out = { ...row } as Record<string, unknown>;
  for (const column of SEALED_COLUMNS[table])
    if (column in out) out[column] = openValue(table, column, out[column] as string | null);
  return out as R;
}
