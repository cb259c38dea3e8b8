/** Configuration from the environment, read once. Every variable is listed in docs/configuration.md. */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RESULT_WINDOW } from '../domain/paging';
import { OFFICE_MAX_UNCOMPRESSED_BYTES } from '../domain/upload-check';
import { loadOrCreateKey } from '../db/keys';
import { loadTemporalConnection, type TemporalConnectionSettings } from './temporal-connection';
import { objectStoreSettingsOf, type ObjectStoreSettings } from './files-s3';

export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
  /**
   * SMTP_CA_FILE: PEM certificates the server's certificate must chain to, instead of the public roots (a
   * private CA). Checked at start: the file exists and holds at least one certificate.
   */
  caFile?: string;
}

export interface AppConfig {
  port: number;
  databaseUrl: string;
  /** The Temporal frontend and namespace of `temporal` (tests point the API elsewhere by overriding these). */
  temporalAddress: string;
  temporalNamespace: string;
  /** How to reach Temporal: envconfig's variables and TOML profile, checked (server/temporal-connection.ts). */
  temporal: TemporalConnectionSettings;
  taskQueue: string;
  /** WEBHOOK_TASK_QUEUE when set; else the deliveries' queue is `<taskQueue>-webhooks` (webhookTaskQueueOf). */
  webhookTaskQueue?: string;
  /** JWT_SECRET (at least 32 bytes), else a random key generated once into `$DATA_DIR/keys/jwt-secret`. */
  jwtSecret: string;
  /** seconds */
  jwtValidity: number;
  /** seconds, with remember-me */
  jwtValidityRememberMe: number;
  appName: string;
  profiles: string[];
  baseUrl: string;
  smtp: SmtpConfig | null;
  webDir: string;
  i18nDir: string;
  loginThrottle: LoginThrottleConfig;
  /**
   * How many reverse proxies in front of the API to trust for the client address (TRUST_PROXY, default 0:
   * X-Forwarded-For is ignored). With N > 0 the address is the N-th entry from the right of X-Forwarded-For.
   */
  trustProxy: number;
  /**
   * Hosts, IPs or CIDRs outbound connections (SFTP test, later actions) may reach even when they resolve to
   * loopback, private, link-local, CGNAT or metadata addresses (server/net-guard.ts).
   */
  outboundAllowlist: string[];
  googleOAuth: GoogleOAuthConfig;
  /**
   * Single sign-on through an OpenID Connect provider, whose session the logout ends too (OIDC_ISSUER_URL,
   * OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_* below; docs/configuration.md "Single sign-on").
   */
  oidc: OidcConfig | null;
  /** Speech recognition of the file parser (ASR_ENGINE, WHISPER_URL, WHISPER_API_KEY, WHISPER_MODEL). */
  asr: AsrConfig;
  /** Where uploaded files are stored, by content hash (FILES_DIR, default `.data/files`). */
  filesDir: string;
  /**
   * FILES_STORE=s3://bucket/prefix with the AWS SDK's settings (server/files-s3.ts): the files in object
   * storage instead of FILES_DIR; null when unset.
   */
  filesStore: ObjectStoreSettings | null;
  /** Largest accepted upload in bytes (UPLOAD_MAX_BYTES, default 50 MiB); larger ones get 413. */
  uploadMaxBytes: number;
  /** What a zip-based office upload may unpack to (OFFICE_MAX_UNCOMPRESSED_BYTES, default 64 MiB); more is 413. */
  officeMaxUncompressedBytes: number;
  /** Days HTTP log entries are kept (HTTP_LOG_RETENTION_DAYS, default 7). */
  httpLogRetentionDays: number;
  /** Free space below which the disk of FILES_DIR is DOWN (HEALTH_DISK_MIN_FREE_BYTES, default 100 MiB). */
  diskMinFreeBytes: number;
  /** The Temporal UI, for links to a workflow's page (TEMPORAL_UI_URL; none when unset). */
  temporalUiUrl: string | null;
  /**
   * Rows of a document list reachable by page number from either end (LIST_RESULT_WINDOW, default
   * RESULT_WINDOW of domain/paging.ts; beyond it keyset cursors); lowered only to test the rule.
   */
  listResultWindow: number;
  /** Audit events older than this many days are deleted (AUDIT_RETENTION_DAYS, default 30; api/services/audits.ts). */
  auditRetentionDays: number;
  /**
   * The workers' Prometheus endpoints whose metrics `management/prometheus` and the metrics page add to the
   * API's (WORKER_METRICS_URLS, comma-separated; by default the one worker of WORKER_METRICS_PORT on this host).
   */
  workerMetricsUrls: string[];
  /**
   * The first administrator created at start with the `prod` profile when no activated administrator exists
   * (ADMIN_USERNAME, ADMIN_PASSWORD, optional ADMIN_EMAIL; server/first-admin.ts); null when unset.
   */
  initialAdmin: { username: string; password: string; email?: string } | null;
}

/**
 * Sign-in throttling (api/services/login-throttle.ts). Failures are counted per account name and client
 * address, per address across all names, and per name across all addresses.
 */
export interface LoginThrottleConfig {
  /** Failures of one name from one address before that pair is locked (LOGIN_MAX_FAILURES, 5). */
  maxFailures: number;
  /** How long such a lock lasts (LOGIN_LOCK_SECONDS, 60). */
  lockSeconds: number;
  /** Failures of one address across all names in a window before it gets 429 (LOGIN_ADDRESS_MAX_FAILURES, 20). */
  addressMaxFailures: number;
  /** LOGIN_ADDRESS_WINDOW_SECONDS, 600. */
  addressWindowSeconds: number;
  /**
   * Failures of one name from all addresses in a window beyond which an address that never signed in to it
   * gets one try per lock instead of maxFailures (LOGIN_ACCOUNT_MAX_FAILURES, 50).
   */
  accountMaxFailures: number;
  /** LOGIN_ACCOUNT_WINDOW_SECONDS, 3600. */
  accountWindowSeconds: number;
  /** How long an address with a successful sign-in stays known for that account (LOGIN_KNOWN_ADDRESS_DAYS, 30). */
  knownAddressDays: number;
}

/**
 * The parser's speech recognition engine: `pocketsphinx` (default: local, US English) or `whisper` (an
 * OpenAI-compatible transcription endpoint: POST {whisperUrl}/v1/audio/transcriptions).
 */
export interface AsrConfig {
  engine: 'pocketsphinx' | 'whisper';
  whisperUrl?: string;
  whisperApiKey?: string;
  whisperModel?: string;
}

/** ASR settings from the environment; the worker passes them to the parser activities. */
export function loadAsrConfig(env: NodeJS.ProcessEnv = process.env): AsrConfig {
  const engine = (env.ASR_ENGINE ?? 'pocketsphinx').trim().toLowerCase();
  if (engine !== 'pocketsphinx' && engine !== 'whisper')
    throw new Error(`ASR_ENGINE must be pocketsphinx or whisper, not ${env.ASR_ENGINE}`);
  if (engine === 'whisper' && !env.WHISPER_URL) throw new Error('ASR_ENGINE=whisper needs WHISPER_URL');
  return {
    engine,
    whisperUrl: env.WHISPER_URL || undefined,
    whisperApiKey: env.WHISPER_API_KEY || undefined,
    whisperModel: env.WHISPER_MODEL || 'whisper-1',
  };
}

/**
 * An OpenID Connect provider (issue 15 section 4, issue 32 section 3): people sign in through it
 * (authorization code with PKCE, api/services/oidc-sign-in.ts), and the logout also ends the provider's
 * session, through its end-session endpoint (`endSessionUrl`, or discovered from the issuer's
 * openid-configuration).
 */
export interface OidcConfig {
  issuerUrl: string;
  clientId: string;
  endSessionUrl?: string;
  /** A confidential client's secret (client_secret_basic); without it the client is public (PKCE only). */
  clientSecret?: string;
  /** The label of the sign-in button: "Sign in with <providerName>". */
  providerName: string;
  scopes: string[];
  /** Claims of the ID token (or userinfo) read for the account's fields. */
  claims: { login: string; email: string; name: string; roles: string };
  /** Claim value (group or role name at the provider) to this product's roles, e.g. `admins=ROLE_ADMIN`. */
  roleMap: Record<string, string[]>;
  /** Roles every account of the provider holds whatever its claims (OIDC_DEFAULT_ROLES, default ROLE_USER). */
  defaultRoles: string[];
}

/** The role mapping `value=ROLE_A ROLE_B,other=ROLE_C` (OIDC_ROLE_MAP): a claim value grants its roles. */
export function parseRoleMap(text: string | undefined): Record<string, string[]> {
  const map: Record<string, string[]> = {};
  for (const entry of (text ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const at = entry.lastIndexOf('=');
    const value = entry.slice(0, at).trim();
    const roles = entry
      .slice(at + 1)
      .split(/[\s;]+/)
      .filter(Boolean);
    if (at <= 0 || !roles.length) throw new Error(`OIDC_ROLE_MAP: "${entry}" is not claim-value=ROLE_NAME`);
    map[value] = [...new Set([...(map[value] ?? []), ...roles])];
  }
  return map;
}

/**
 * The issuer must be https; plain http only on a loopback host (a provider on the same machine, as the tests'
 * Dex), where nothing crosses a network. An operator's setting: checked at start, not per request.
 */
export function checkIssuerUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`OIDC_ISSUER_URL is not a URL: ${raw}`);
  }
  const loopback = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new Error(`OIDC_ISSUER_URL must be https (plain http only on a loopback host): ${raw}`);
  return raw.replace(/\/+$/, '');
}

export function oidcConfig(env: NodeJS.ProcessEnv): OidcConfig | null {
  if (!env.OIDC_ISSUER_URL || !env.OIDC_CLIENT_ID) return null;
  return {
    issuerUrl: checkIssuerUrl(env.OIDC_ISSUER_URL),
    clientId: env.OIDC_CLIENT_ID,
    endSessionUrl: env.OIDC_END_SESSION_URL || undefined,
    clientSecret: env.OIDC_CLIENT_SECRET || undefined,
    providerName: env.OIDC_PROVIDER_NAME || 'OpenID Connect',
    scopes: (env.OIDC_SCOPES || 'openid profile email').split(/[\s,]+/).filter(Boolean),
    claims: {
      login: env.OIDC_LOGIN_CLAIM || 'preferred_username',
      email: env.OIDC_EMAIL_CLAIM || 'email',
      name: env.OIDC_NAME_CLAIM || 'name',
      roles: env.OIDC_ROLE_CLAIM || 'groups',
    },
    roleMap: parseRoleMap(env.OIDC_ROLE_MAP),
    defaultRoles: (env.OIDC_DEFAULT_ROLES ?? 'ROLE_USER').split(/[\s,;]+/).filter(Boolean),
  };
}

/** OAuth client of the cloud-drive connections (authorization-code flow; the secret never leaves the API). */
export interface GoogleOAuthConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  scope: string;
  redirectUri: string;
}

const ROOT = path.resolve(__dirname, '..');

/**
 * The task queue of webhook delivery workflows and their activities (served by a second Worker of the
 * worker process, so deliveries do not wait behind the document workflows' tasks): WEBHOOK_TASK_QUEUE,
 * else the main queue's name with `-webhooks`.
 */
export const webhookTaskQueueOf = (c: { taskQueue: string; webhookTaskQueue?: string }): string =>
  c.webhookTaskQueue || `${c.taskQueue}-webhooks`;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.PORT ?? 8080);
  const smtpHost = env.SMTP_HOST;
  // Checked even without SMTP_HOST: a wrong path is a mistake to report at start, not at the first mail.
  const smtpCa = smtpCaFile(env.SMTP_CA_FILE);
  const temporal = loadTemporalConnection(env);
  return {
    port,
    databaseUrl: required(env, 'DATABASE_URL'),
    temporalAddress: temporal.address,
    temporalNamespace: temporal.namespace,
    temporal,
    taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'workbench',
    webhookTaskQueue: env.WEBHOOK_TASK_QUEUE || undefined,
    jwtSecret: jwtSecret(env),
    jwtValidity: Number(env.JWT_VALIDITY_SECONDS ?? 86400),
    jwtValidityRememberMe: Number(env.JWT_VALIDITY_REMEMBER_ME_SECONDS ?? 2592000),
    appName: env.APP_NAME ?? 'Workbench',
    profiles: (env.APP_PROFILES ?? 'dev')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
    baseUrl: env.APP_BASE_URL ?? `http://localhost:${port}`,
    smtp: smtpHost
      ? {
          host: smtpHost,
          port: Number(env.SMTP_PORT ?? 25),
          secure: env.SMTP_SECURE === 'true',
          user: env.SMTP_USER || undefined,
          pass: env.SMTP_PASSWORD || undefined,
          from: env.MAIL_FROM ?? 'workbench@localhost',
          ...(smtpCa ? { caFile: smtpCa } : {}),
        }
      : null,
    webDir: env.WEB_DIR ?? path.join(ROOT, 'dist', 'web'),
    i18nDir: path.join(ROOT, 'web', 'src', 'i18n'),
    loginThrottle: {
      maxFailures: positive(env, 'LOGIN_MAX_FAILURES', 5),
      lockSeconds: positive(env, 'LOGIN_LOCK_SECONDS', 60),
      addressMaxFailures: positive(env, 'LOGIN_ADDRESS_MAX_FAILURES', 20),
      addressWindowSeconds: positive(env, 'LOGIN_ADDRESS_WINDOW_SECONDS', 600),
      accountMaxFailures: positive(env, 'LOGIN_ACCOUNT_MAX_FAILURES', 50),
      accountWindowSeconds: positive(env, 'LOGIN_ACCOUNT_WINDOW_SECONDS', 3600),
      knownAddressDays: positive(env, 'LOGIN_KNOWN_ADDRESS_DAYS', 30),
    },
    trustProxy: trustProxy(env.TRUST_PROXY),
    outboundAllowlist: list(env.OUTBOUND_ALLOWLIST),
    workerMetricsUrls: env.WORKER_METRICS_URLS
      ? env.WORKER_METRICS_URLS.split(',')
          .map((u) => u.trim())
          .filter(Boolean)
      : env.WORKER_METRICS_PORT
        ? [`http://127.0.0.1:${positive(env, 'WORKER_METRICS_PORT', 9464)}/metrics`]
        : [],
    oidc: oidcConfig(env),
    googleOAuth: {
      clientId: env.GOOGLE_OAUTH_CLIENT_ID ?? '',
      clientSecret: env.GOOGLE_OAUTH_CLIENT_SECRET ?? '',
      authUrl: env.GOOGLE_OAUTH_AUTH_URL ?? 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
      scope: env.GOOGLE_OAUTH_SCOPE ?? 'https://www.googleapis.com/auth/drive.file',
      redirectUri:
        env.GOOGLE_OAUTH_REDIRECT_URI ?? `${env.APP_BASE_URL ?? `http://localhost:${port}`}/oauth2/callback`,
    },
    asr: loadAsrConfig(env),
    filesDir: filesDirOf(env),
    filesStore: objectStoreSettingsOf(env),
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 50 * 1024 * 1024),
    officeMaxUncompressedBytes: Number(env.OFFICE_MAX_UNCOMPRESSED_BYTES ?? OFFICE_MAX_UNCOMPRESSED_BYTES),
    httpLogRetentionDays: positive(env, 'HTTP_LOG_RETENTION_DAYS', 7),
    diskMinFreeBytes: Number(env.HEALTH_DISK_MIN_FREE_BYTES ?? 100 * 1024 * 1024),
    temporalUiUrl: (env.TEMPORAL_UI_URL ?? '').replace(/\/+$/, '') || null,
    listResultWindow: positiveInt(env.LIST_RESULT_WINDOW) ?? RESULT_WINDOW,
    auditRetentionDays: positive(env, 'AUDIT_RETENTION_DAYS', 30),
    initialAdmin: initialAdmin(env),
  };
}

function initialAdmin(env: NodeJS.ProcessEnv): AppConfig['initialAdmin'] {
  const username = env.ADMIN_USERNAME?.trim();
  const password = env.ADMIN_PASSWORD;
  if (!username && !password) return null;
  if (!username || !password) throw new Error('ADMIN_USERNAME and ADMIN_PASSWORD must be set together');
  return { username, password, ...(env.ADMIN_EMAIL?.trim() ? { email: env.ADMIN_EMAIL.trim() } : {}) };
}

const positiveInt = (raw: string | undefined) =>
  raw !== undefined && /^\d{1,9}$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : undefined;

/** The chat API of LLM prompt nodes when LLM_BASE_URL is not set. */
export const DEFAULT_LLM_BASE_URL = 'https://api.openai.com/v1';

/**
 * What the worker process reads from its environment, with the same names, defaults and checks as the API
 * (`loadConfig`), so the two agree on the files directory, the outbound allowlist, the upload limits and the
 * speech engine.
 */
export interface WorkerConfig {
  /** DATABASE_URL; the worker entry stops without it (tests give their own connection). */
  databaseUrl: string | undefined;
  temporalAddress: string;
  temporalNamespace: string;
  /** As the API's (AppConfig.temporal). */
  temporal: TemporalConnectionSettings;
  taskQueue: string;
  /** WEBHOOK_TASK_QUEUE when set; else `<taskQueue>-webhooks` (webhookTaskQueueOf). */
  webhookTaskQueue?: string;
  filesDir: string;
  /** FILES_STORE, as the API's (AppConfig.filesStore). */
  filesStore: ObjectStoreSettings | null;
  asr: AsrConfig;
  outboundAllowlist: string[];
  /** LLM_BASE_URL: the chat API of LLM prompt nodes. */
  llmBaseUrl: string;
  /** DRIVE_API_BASE_URL: the Drive v3 API of cloud-drive nodes. */
  driveApiBaseUrl: string;
  /**
   * EMBEDDINGS_MODEL at EMBEDDINGS_BASE_URL (LLM_BASE_URL when unset) with EMBEDDINGS_API_KEY: dense RAG
   * retrieval; null (lexical only) without a model.
   */
  embeddings: { model: string; baseUrl: string; apiKey: string } | null;
  /** The token endpoint and client of cloud-drive connections (GOOGLE_OAUTH_*), as the API's. */
  googleOAuth: Pick<GoogleOAuthConfig, 'tokenUrl' | 'clientId' | 'clientSecret'>;
  uploadMaxBytes: number;
  officeMaxUncompressedBytes: number;
  /** LEXICON_TIMEOUT_SECONDS in ms; the activity's default when unset. */
  lexiconTimeoutMs: number | undefined;
  /** WORKFLOW_BUNDLE_PATH: a prebuilt workflow bundle (`npm test` shares one). */
  workflowBundlePath: string | undefined;
  /** SCHEDULE_SYNC=off skips the start-up sync of node schedules. */
  scheduleSync: boolean;
  /** WEBHOOK_RETRY_HOURS (default 24) in ms: how long a failing webhook delivery is retried after its first attempt. */
  webhookRetryMs: number;
  /**
   * The sweep of webhook deliveries never attempted (their writer died before waking their workflow): every
   * WEBHOOK_SWEEP_SECONDS (60), deliveries older than that; null with WEBHOOK_SWEEP=off (test workers).
   */
  webhookSweep: { everyMs: number; olderThanMs: number } | null;
  /**
   * The sweep of documents stored without a workflow (server/document-workflows.ts): every
   * DOCUMENT_SWEEP_SECONDS (60), documents older than that with no step; null with DOCUMENT_SWEEP=off (the
   * test suites' workers, whose shared database holds documents that suites insert without a workflow).
   */
  documentSweep: { everyMs: number; olderThanMs: number } | null;
  /**
   * WORKER_METRICS_PORT: the port on which the Temporal runtime of the worker entry serves its Prometheus
   * metrics (`http://host:port/metrics`); none when unset.
   */
  metricsPort: number | null;
  /**
   * WORKER_HEALTH_PORT: the port of the worker's liveness and readiness (`/management/health/liveness`,
   * `/management/health/readiness`, server/health.ts); none when unset.
   */
  healthPort: number | null;
  /** HEALTH_DISK_MIN_FREE_BYTES, as the API's: free space of FILES_DIR below which the worker is not ready. */
  diskMinFreeBytes: number;
  /**
   * WORKER_SHUTDOWN_GRACE seconds (default 30): on SIGTERM the running activities get this long to finish
   * before they are cancelled (Temporal's shutdownGraceTime); keep it below the pod's
   * terminationGracePeriodSeconds.
   */
  shutdownGraceMs: number;
  /**
   * Concurrent LibreOffice, tesseract and pocketsphinx runs in one worker (PARSER_OFFICE_CONCURRENCY,
   * PARSER_OCR_CONCURRENCY, PARSER_ASR_CONCURRENCY; defaults from the core count, activities/parser/concurrency.ts).
   */
  parserConcurrency: { office?: number; ocr?: number; asr?: number };
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const temporal = loadTemporalConnection(env);
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    temporalAddress: temporal.address,
    temporalNamespace: temporal.namespace,
    temporal,
    taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'workbench',
    webhookTaskQueue: env.WEBHOOK_TASK_QUEUE || undefined,
    filesDir: filesDirOf(env),
    filesStore: objectStoreSettingsOf(env),
    asr: loadAsrConfig(env),
    outboundAllowlist: list(env.OUTBOUND_ALLOWLIST),
    llmBaseUrl: env.LLM_BASE_URL || DEFAULT_LLM_BASE_URL,
    driveApiBaseUrl: env.DRIVE_API_BASE_URL || 'https://www.googleapis.com',
    embeddings: env.EMBEDDINGS_MODEL
      ? {
          model: env.EMBEDDINGS_MODEL,
          baseUrl: env.EMBEDDINGS_BASE_URL || env.LLM_BASE_URL || DEFAULT_LLM_BASE_URL,
          apiKey: env.EMBEDDINGS_API_KEY ?? '',
        }
      : null,
    googleOAuth: {
      tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
      clientId: env.GOOGLE_OAUTH_CLIENT_ID ?? '',
      clientSecret: env.GOOGLE_OAUTH_CLIENT_SECRET ?? '',
    },
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 50 * 1024 * 1024),
    officeMaxUncompressedBytes: Number(env.OFFICE_MAX_UNCOMPRESSED_BYTES ?? OFFICE_MAX_UNCOMPRESSED_BYTES),
    lexiconTimeoutMs: env.LEXICON_TIMEOUT_SECONDS
      ? positive(env, 'LEXICON_TIMEOUT_SECONDS', 120) * 1000
      : undefined,
    workflowBundlePath: env.WORKFLOW_BUNDLE_PATH || undefined,
    scheduleSync: env.SCHEDULE_SYNC !== 'off',
    webhookRetryMs: positive(env, 'WEBHOOK_RETRY_HOURS', 24) * 3600 * 1000,
    webhookSweep:
      env.WEBHOOK_SWEEP === 'off'
        ? null
        : {
            everyMs: positive(env, 'WEBHOOK_SWEEP_SECONDS', 60) * 1000,
            olderThanMs: positive(env, 'WEBHOOK_SWEEP_SECONDS', 60) * 1000,
          },
    documentSweep: documentSweep(env),
    metricsPort: env.WORKER_METRICS_PORT ? positive(env, 'WORKER_METRICS_PORT', 9464) : null,
    healthPort: env.WORKER_HEALTH_PORT ? positive(env, 'WORKER_HEALTH_PORT', 9465) : null,
    diskMinFreeBytes: Number(env.HEALTH_DISK_MIN_FREE_BYTES ?? 100 * 1024 * 1024),
    shutdownGraceMs: positive(env, 'WORKER_SHUTDOWN_GRACE', 30) * 1000,
    parserConcurrency: {
      office: env.PARSER_OFFICE_CONCURRENCY ? positive(env, 'PARSER_OFFICE_CONCURRENCY', 1) : undefined,
      ocr: env.PARSER_OCR_CONCURRENCY ? positive(env, 'PARSER_OCR_CONCURRENCY', 1) : undefined,
      asr: env.PARSER_ASR_CONCURRENCY ? positive(env, 'PARSER_ASR_CONCURRENCY', 1) : undefined,
    },
  };
}

function documentSweep(env: NodeJS.ProcessEnv): WorkerConfig['documentSweep'] {
  if (env.DOCUMENT_SWEEP === 'off') return null;
  const seconds = Number(env.DOCUMENT_SWEEP_SECONDS ?? 60);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new Error(
      `DOCUMENT_SWEEP_SECONDS must be a positive number of seconds (is ${env.DOCUMENT_SWEEP_SECONDS})`,
    );
  return { everyMs: seconds * 1000, olderThanMs: seconds * 1000 };
}

/** FILES_DIR relative to the project (default `.data/files`): the one directory the API and the worker share. */
export const filesDirOf = (env: NodeJS.ProcessEnv = process.env): string =>
  path.resolve(ROOT, env.FILES_DIR ?? path.join('.data', 'files'));

const list = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function required(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

const isProd = (env: NodeJS.ProcessEnv) =>
  (env.APP_PROFILES ?? '')
    .split(',')
    .map((p) => p.trim())
    .includes('prod');

/** Shorter secrets can be brute-forced offline from any token (HS512 wants at least its 64-byte block). */
export const JWT_SECRET_MIN_BYTES = 32;

/**
 * The JWT signing secret: JWT_SECRET when set (mandatory with profile prod), else a random 64-byte key
 * generated on first start into the data directory and reused after (never a constant in the source).
 */
function jwtSecret(env: NodeJS.ProcessEnv): string {
  const configured = env.JWT_SECRET;
  if (configured) {
    if (Buffer.byteLength(configured, 'utf8') < JWT_SECRET_MIN_BYTES)
      throw new Error(`JWT_SECRET must be at least ${JWT_SECRET_MIN_BYTES} bytes long`);
    return configured;
  }
  if (isProd(env)) throw new Error('JWT_SECRET must be set with profile prod');
  return loadOrCreateKey('jwt-secret', 64, env).toString('base64');
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** SMTP_CA_FILE as an absolute path, after checking that it can be read and its PEM certificates parse. */
function smtpCaFile(raw: string | undefined): string | undefined {
  if (!raw?.trim()) return undefined;
  const file = path.resolve(raw.trim());
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(`SMTP_CA_FILE ${file} cannot be read (${e.code ?? e.message})`, { cause: err });
  }
  const certificates = text.match(PEM_CERTIFICATE) ?? [];
  if (!certificates.length)
    throw new Error(`SMTP_CA_FILE ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const pem of certificates) {
    try {
      new X509Certificate(pem);
    } catch (err) {
      throw new Error(
        `SMTP_CA_FILE ${file} holds a certificate that does not parse (${(err as Error).message})`,
        { cause: err },
      );
    }
  }
  return file;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return n;
}

/** TRUST_PROXY: unset, false or 0 (default), true (one proxy), or the number of proxies. */
function trustProxy(raw: string | undefined): number {
  const v = (raw ?? '').trim().toLowerCase();
  if (v === '' || v === 'false') return 0;
  if (v === 'true') return 1;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`TRUST_PROXY must be true, false or a number, not ${raw}`);
  return n;
}
