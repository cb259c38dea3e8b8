/**
 * Masking of secrets in what `management/env` and `management/configprops` show: a value whose key names a
 * secret (password, secret, key, token, credential, private, signature, salt, auth, cookie, session) is
 * replaced by MASK entirely; the credentials of any URL value (`postgres://user:pass@host`) are masked
 * whatever its key. Masking errs on the side of hiding: an unknown key that looks secret is hidden.
 */
export const MASK = '******';

const SECRET_KEY =
  /pass(word|wd|phrase)?|secret|(^|[^a-z])key($|[^a-z])|apikey|api_key|_key$|key_|token|credential|private|signature|salt|auth|cookie|session|dsn/i;

export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);

/** `scheme://user:pass@host` → `scheme://user:******@host` (and `scheme://token@host` → `scheme://******@host`). */
export function maskUrlCredentials(value: string): string {
  return value.replace(/([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*)(:[^/@\s]*)?@/gi, (_, scheme, user, pass) =>
    pass ? `${scheme}${user}:${MASK}@` : `${scheme}${MASK}@`,
  );
}

/** A value to show under a key. */
export function maskValue(key: string, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (isSecretKey(key)) return MASK;
  if (typeof value === 'string') return maskUrlCredentials(value);
  if (Array.isArray(value)) return value.map((v) => maskValue(key, v));
  if (typeof value === 'object') return maskObject(value as Record<string, unknown>);
  return value;
}

/** Every entry of an object (deeply) masked. */
export function maskObject(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, maskValue(k, v)]));
}
