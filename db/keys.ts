/**
 * Server key material that is generated on first start into the data directory when the environment names
 * none: never a constant in the source. Used by the API (JWT signing secret) and by every process that
 * reads or writes encrypted columns (API, worker, scripts). Files live in `$DATA_DIR/keys` (default
 * `.data/keys`), mode 0600; the API replicas and workers of one installation must share that directory or
 * set the variables explicitly.
 *
 * Creation is atomic across processes started at the same moment (API and worker of `npm start`): the key
 * is written to a private temporary file and hard-linked into place; whoever links second reads the first.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** The installation's data directory (DATA_DIR, default `.data` beside the project). */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(ROOT, env.DATA_DIR || '.data');
}

export function keysDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(dataDir(env), 'keys');
}

/** Reads the named key (base64 in the file), creating it with `bytes` random bytes when it does not exist. */
export function loadOrCreateKey(name: string, bytes: number, env: NodeJS.ProcessEnv = process.env): Buffer {
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Error(`invalid key name ${name}`);
  const dir = keysDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) {
    const tmp = path.join(dir, `.${name}.${process.pid}.${crypto.randomBytes(6).toString('hex')}`);
    fs.writeFileSync(tmp, crypto.randomBytes(bytes).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length < 16) throw new Error(`key file ${file} is empty or too short`);
  return key;
}

/** Writes a key file (rotation), replacing an existing one atomically. */
export function writeKey(name: string, key: Buffer, env: NodeJS.ProcessEnv = process.env): string {
  const dir = keysDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, name);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, key.toString('base64') + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
  return file;
}
