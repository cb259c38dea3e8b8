/**
 * Masking of secrets in what `management/env` and `management/configprops` show: a value whose key has a
 * word naming a secret (password, secret, key, token, credential, private, signature, salt, auth, cookie,
 * session, dsn) is
 * replaced by MASK entirely, and so is any binary value (the Temporal connection's certificates and key); the credentials of any URL value (`postgres://user:pass@host`) are masked
 * whatever its key. Masking errs on the side of hiding: an unknown key that looks secret is hidden.
 */
export const MASK = '******';

const SECRET_WORDS = new Set([
  'pass',
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'key',
  'apikey',
  'token',
  'credential',
  'credentials',
  'private',
  'signature',
  'salt',
  'auth',
  'authorization',
  'cookie',
  'session',
  'dsn',
]);

/** The words of a key: `whisperApiKey` -> whisper, api, key; `DATA_ENCRYPTION_KEY` -> data, encryption, key. */
const wordsOf = (key: string): string[] =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

export const isSecretKey = (key: string): boolean =>
  wordsOf(key).some((w) => SECRET_WORDS.has(w) || /(password|secret|token|apikey)$/.test(w));

/** `scheme://user:pass@host` → `scheme://user:******@host` (and `scheme://token@host` → `scheme://******@host`). */
export function maskUrlCredentials(value: string): string {
  return value.replace(/([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*)(:[^/@\s]*)?@/gi, (_, scheme, user, pass) =>
    pass ? `${scheme}${user}:${MASK}@` : `${scheme}${MASK}@`,
  );
}

/** A value to show under a key. Bytes (a certificate, a key read from a file) are never shown. */
export function maskValue(key: string, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (isSecretKey(key) || value instanceof Uint8Array) return MASK;
  if (typeof value === 'string') return maskUrlCredentials(value);
  if (Array.isArray(value)) return value.map((v) => maskValue(key, v));
  if (typeof value === 'object') return maskObject(value as Record<string, unknown>);
  return value;
}

/** Every entry of an object (deeply) masked. */
export function maskObject(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, maskValue(k, v)]));
}
