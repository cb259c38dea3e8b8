/**
 * Masking of secrets in what `management/env` and `management/configprops` show, by name and by value.
 *
 * By name: a value whose key has a word naming a secret (password, secret, key, token, credential, private,
 * signature, sig, salt, auth, cookie, session, dsn) is replaced by MASK entirely.
 *
 * By value, whatever the key, only the secret part is replaced so that the rest stays readable:
 * - known token formats (GitHub, Stripe, Slack, AWS access key ids, OpenAI-style `sk-`, Google API keys,
 *   GitLab, our own `wbk_` API keys, Standard Webhooks `whsec_`): the token after its prefix;
 * - JWTs (three base64url parts, the first a JSON header `eyJ`), `Bearer`/`Basic` credentials;
 * - PEM blocks: the body between the BEGIN and END lines (certificates too: telling them apart is not
 *   worth a mistake);
 * - JSON: parsed and masked as an object (keys by name, strings by value); text that only looks like JSON
 *   gets its `"secretName": "value"` pairs masked;
 * - `name=value` pairs with a secret name (connection strings, command-line flags, query strings);
 * - URLs: credentials (`user:******@`), query and fragment parameters with a secret name (`token`, `key`,
 *   `sig`, `access_token`, `X-Amz-Signature`...), and path segments that look random (at least 20
 *   characters from the base64url alphabet whose letters and digits keep alternating, as a webhook's secret
 *   path does; words, dates, versions and UUIDs do not).
 * Binary values (the Temporal connection's certificates and key, read from files) are never shown.
 * Masking errs on the side of hiding: an unknown key that looks secret is hidden.
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
  'sig',
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

/**
 * Token formats whose prefix says what they are: the prefix stays, the rest is masked. Each pattern's first
 * group is the prefix kept.
 */
const TOKEN_PATTERNS: RegExp[] = [
  /\b(gh[pousr]_)[A-Za-z0-9]{20,}/g, // GitHub classic tokens (personal, OAuth, user-to-server, server, refresh)
  /\b(github_pat_)[A-Za-z0-9_]{20,}/g, // GitHub fine-grained tokens
  /\b(glpat-)[A-Za-z0-9_-]{20,}/g, // GitLab personal access tokens
  /\b([sr]k_(?:live|test)_)[A-Za-z0-9]{10,}/g, // Stripe secret and restricted keys
  /\b(xox[abposre]-)[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\b((?:AKIA|ASIA|ABIA|ACCA))[A-Z0-9]{16}\b/g, // AWS access key ids
  /\b(AIza)[A-Za-z0-9_-]{35}/g, // Google API keys
  /(?<![A-Za-z0-9_-])(sk-)(?=[A-Za-z0-9_-]{20})[A-Za-z0-9_-]*[0-9][A-Za-z0-9_-]*/g, // OpenAI-style: sk-, sk-proj-...
  /\b(wbk_)[A-Za-z0-9_-]{16,}/g, // the workbench's own API keys (domain/api-keys.ts)
  /\b(whsec_)[A-Za-z0-9+/=]{16,}/g, // Standard Webhooks secrets
];

/** A JWT (JWS compact form): a JSON header (`{"` is `eyJ`), a payload and a signature, base64url. */
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/** The credentials of an Authorization header written into a value. */
const AUTH_SCHEME = /\b(Bearer|Basic|Token|Digest)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/** A PEM block, or its beginning when the END line is missing (a truncated value). */
const PEM = /(-----BEGIN ([A-Z0-9 ]+)-----)[\s\S]*?(-----END \2-----|$)/g;

/** `"name": "value"` in text that is not JSON as a whole. */
const JSON_PAIR = /("([^"\\]{1,100})"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/** `name=value` (connection strings, flags, query strings): the value up to a separator. */
const NAME_VALUE = /(?<![A-Za-z0-9_.])([A-Za-z][A-Za-z0-9_.-]{0,99}=)([^\s&;,'"<>]+)/g;

/** A URL with its scheme, up to white space or a quote. */
const URL_PATTERN = /\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s"'<>]+/gi;

/** `scheme://user:pass@host` → `scheme://user:******@host` (and `scheme://token@host` → `scheme://******@host`). */
export function maskUrlCredentials(value: string): string {
  return value.replace(/([a-z][a-z0-9+.-]{0,31}:\/\/)([^/@\s:]*)(:[^/@\s]*)?@/gi, (_, scheme, user, pass) =>
    pass ? `${scheme}${user}:${MASK}@` : `${scheme}${MASK}@`,
  );
}

/** Letters and digits alternate often in a random string, rarely in words, versions, dates and UUIDs. */
const CLASS_OF = (c: string) => (/[a-z]/.test(c) ? 'l' : /[A-Z]/.test(c) ? 'u' : /[0-9]/.test(c) ? 'd' : '');

/** A path segment that looks like a secret (a webhook's token): long, base64url, letters and digits mixed. */
export function looksRandom(segment: string): boolean {
  if (segment.length < 20 || !/^[A-Za-z0-9_~:+=-]+$/.test(segment)) return false;
  let pairs = 0;
  let changes = 0;
  for (let i = 1; i < segment.length; i++) {
    const a = CLASS_OF(segment[i - 1]);
    const b = CLASS_OF(segment[i]);
    if (!a || !b) continue;
    pairs += 1;
    if (a !== b) changes += 1;
  }
  return pairs >= 16 && changes / pairs >= 0.3;
}

/** The parameters of a query or fragment (`a=1&token=x`) with secret-named values masked. */
const maskParams = (params: string): string =>
  params.replace(/(^|[&;])([^=&;]+)=([^&;]*)/g, (all, sep: string, name: string, value: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // a malformed escape: judged as written
    }
    return value && isSecretKey(decoded) ? `${sep}${name}=${MASK}` : all;
  });

/** One URL: credentials, secret query and fragment parameters, random-looking path segments. */
function maskUrl(url: string): string {
  const match = /^([a-z][a-z0-9+.-]{0,31}:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(url);
  if (!match) return maskUrlCredentials(url);
  const [, scheme, authority, path, query = '', fragment = ''] = match;
  const host = maskUrlCredentials(`${scheme}${authority}`);
  const maskedPath = path
    .split('/')
    .map((segment) => (looksRandom(segment) ? MASK : segment))
    .join('/');
  const maskedQuery = query && `?${maskParams(query.slice(1))}`;
  const maskedFragment = fragment && `#${maskParams(fragment.slice(1))}`;
  return `${host}${maskedPath}${maskedQuery}${maskedFragment}`;
}

/** A value that is JSON as a whole, masked as an object and written back; null when it is not JSON. */
function maskJsonText(text: string): string | null {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return null;
  }
  const masked = maskValue('', parsed);
  // Unchanged values keep their own spelling (white space, key order).
  return JSON.stringify(masked) === JSON.stringify(parsed) ? text : JSON.stringify(masked);
}

/** A text with every secret it holds masked (see the module header), the rest as it was. */
export function maskText(text: string): string {
  const json = maskJsonText(text);
  if (json !== null) return json;
  let out = text.replace(PEM, (_, begin: string, _label: string, end: string) => `${begin}${MASK}${end}`);
  out = out.replace(JWT, MASK);
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, (_, prefix: string) => `${prefix}${MASK}`);
  out = out.replace(AUTH_SCHEME, (_, scheme: string, space: string) => `${scheme}${space}${MASK}`);
  out = out.replace(URL_PATTERN, maskUrl);
  out = out.replace(JSON_PAIR, (all, head: string, name: string) =>
    isSecretKey(name) ? `${head}"${MASK}"` : all,
  );
  out = out.replace(NAME_VALUE, (all, head: string, value: string) =>
    isSecretKey(head.slice(0, -1)) && value !== MASK ? `${head}${MASK}` : all,
  );
  return out;
}

/** A value to show under a key. Bytes (a certificate, a key read from a file) are never shown. */
export function maskValue(key: string, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (isSecretKey(key) || value instanceof Uint8Array) return MASK;
  if (typeof value === 'string') return maskText(value);
  if (Array.isArray(value)) return value.map((v) => maskValue(key, v));
  if (typeof value === 'object') return maskObject(value as Record<string, unknown>);
  return value;
}

/** Every entry of an object (deeply) masked. */
export function maskObject(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, maskValue(k, v)]));
}
