import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DATA_KEY_NAME,
  decodeKey,
  isSealed,
  Keyring,
  keyIdOf,
  loadKeyring,
  sealedKeyId,
  UnreadableCredential,
} from './crypto';

const newKey = () => crypto.randomBytes(32);
const CONTEXT = 'secrets.value';

describe('Keyring', () => {
  const key = newKey();
  const ring = new Keyring(key);

  it('seals to the versioned format and opens back to the clear value', () => {
    for (const clear of [
      's3cret',
      'ünïcødé 🔑',
      'x'.repeat(100_000),
      '-----BEGIN OPENSSH PRIVATE KEY-----\n...',
    ]) {
      const sealed = ring.seal(clear, CONTEXT);
      expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]*:[A-Za-z0-9+/=]+$/);
      expect(sealed).not.toContain(clear.slice(0, 6));
      expect(isSealed(sealed)).toBe(true);
      expect(sealedKeyId(sealed)).toBe(keyIdOf(key));
      expect(ring.open(sealed, CONTEXT)).toBe(clear);
    }
  });

  it('uses a fresh IV each time: the same value seals differently', () => {
    expect(ring.seal('same', CONTEXT)).not.toBe(ring.seal('same', CONTEXT));
  });

  it('detects tampering with the ciphertext, the IV or the tag', () => {
    const sealed = ring.seal('transfer 100 EUR', CONTEXT);
    const parts = sealed.split(':');
    const flip = (b64: string) => {
      const b = Buffer.from(b64, 'base64');
      b[0] ^= 1;
      return b.toString('base64');
    };
    for (const i of [3, 4, 5]) {
      const altered = [...parts];
      altered[i] = flip(altered[i]);
      expect(() => ring.open(altered.join(':'), CONTEXT)).toThrow(UnreadableCredential);
    }
  });

  it('refuses a ciphertext moved to another column (the column is authenticated)', () => {
    const sealed = ring.seal('api key', 'secrets.value');
    expect(() => ring.open(sealed, 'sftp_connections.password')).toThrow(UnreadableCredential);
  });

  it('refuses to open with a wrong key or an unknown key id', () => {
    const sealed = ring.seal('x', CONTEXT);
    expect(() => new Keyring(newKey()).open(sealed, CONTEXT)).toThrow(/key [0-9a-f]{8} is not configured/);
    // a different key claiming the same id (a replaced key file) fails authentication, never yields garbage
    const impostor = new Keyring(newKey());
    const forged = sealed.replace(/^enc:v1:[0-9a-f]{8}:/, `enc:v1:${impostor.currentId}:`);
    expect(() => impostor.open(forged, CONTEXT)).toThrow(/altered or sealed with another key/);
  });

  it('rotation: a keyring with the previous key opens old values and seals with the new one', () => {
    const oldRing = new Keyring(key);
    const oldSealed = oldRing.seal('old value', CONTEXT);
    const next = newKey();
    const rotated = new Keyring(next, [key]);
    expect(rotated.open(oldSealed, CONTEXT)).toBe('old value');
    const resealed = rotated.seal(rotated.open(oldSealed, CONTEXT), CONTEXT);
    expect(sealedKeyId(resealed)).toBe(keyIdOf(next));
    expect(() => oldRing.open(resealed, CONTEXT)).toThrow(UnreadableCredential);
    expect(new Keyring(next).open(resealed, CONTEXT)).toBe('old value');
  });

  it('does not take plain text for a sealed value', () => {
    for (const plain of ['hunter2', 'enc:v1:', 'enc:v1:zzzzzzzz:a:b:c', 'enc:v2:0123abcd:AA==:AA==:AA=='])
      expect(isSealed(plain)).toBe(false);
  });
});

describe('loadKeyring', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('generates the key file on first start and reads the same key afterwards', () => {
    const env = { DATA_DIR: dir };
    const first = loadKeyring(env);
    const file = path.join(dir, 'keys', DATA_KEY_NAME);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadKeyring(env).currentId).toBe(first.currentId);
    expect(loadKeyring(env).open(first.seal('v', CONTEXT), CONTEXT)).toBe('v');
  });

  it('takes DATA_ENCRYPTION_KEY and DATA_ENCRYPTION_KEY_PREVIOUS, and still opens what the key file sealed', () => {
    const fileRing = loadKeyring({ DATA_DIR: dir });
    const sealedByFile = fileRing.seal('from file', CONTEXT);
    const current = newKey();
    const previous = newKey();
    const ring = loadKeyring({
      DATA_DIR: dir,
      DATA_ENCRYPTION_KEY: current.toString('base64'),
      DATA_ENCRYPTION_KEY_PREVIOUS: ` ${previous.toString('base64')} ,`,
    });
    expect(ring.currentId).toBe(keyIdOf(current));
    expect(ring.has(keyIdOf(previous))).toBe(true);
    expect(ring.open(sealedByFile, CONTEXT)).toBe('from file');
    expect(ring.open(new Keyring(previous).seal('prev', CONTEXT), CONTEXT)).toBe('prev');
  });

  it('reads the retired key files a rotation leaves', () => {
    const retired = newKey();
    fs.mkdirSync(path.join(dir, 'keys'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'keys', `${DATA_KEY_NAME}.${keyIdOf(retired)}`),
      retired.toString('base64'),
    );
    const ring = loadKeyring({ DATA_DIR: dir });
    expect(ring.has(keyIdOf(retired))).toBe(true);
    expect(ring.currentId).not.toBe(keyIdOf(retired));
  });

  it('refuses a DATA_ENCRYPTION_KEY that is not 32 bytes of base64', () => {
    for (const bad of ['changeme', crypto.randomBytes(16).toString('base64'), 'x'.repeat(44)])
      expect(() => loadKeyring({ DATA_DIR: dir, DATA_ENCRYPTION_KEY: bad })).toThrow(
        /DATA_ENCRYPTION_KEY must be/,
      );
    expect(() => decodeKey(newKey().toString('base64'), 'K')).not.toThrow();
  });
});
