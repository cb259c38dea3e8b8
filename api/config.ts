/** Configuration from the environment, read once. Every variable is listed in README.md. */
import path from 'node:path';

export interface SmtpConfig {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
}

export interface AppConfig {
  port: number;
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
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
  loginThrottle: { maxFailures: number; lockSeconds: number };
  /**
   * Hosts, IPs or CIDRs outbound connections (SFTP test, later actions) may reach even when they resolve to
   * loopback, private, link-local, CGNAT or metadata addresses (api/services/net-guard.ts).
   */
  outboundAllowlist: string[];
  googleOAuth: GoogleOAuthConfig;
  /** Speech recognition of the file parser (ASR_ENGINE, WHISPER_URL, WHISPER_API_KEY, WHISPER_MODEL). */
  asr: AsrConfig;
  /** Where uploaded files are stored, by content hash (FILES_DIR, default `.data/files`). */
  filesDir: string;
  /** Largest accepted upload in bytes (UPLOAD_MAX_BYTES, default 50 MiB); larger ones get 413. */
  uploadMaxBytes: number;
  /** Base URL of the OpenAI-compatible chat API of LLM prompt nodes (LLM_BASE_URL, default OpenAI's). */
  llmBaseUrl: string;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.PORT ?? 8080);
  const smtpHost = env.SMTP_HOST;
  return {
    port,
    databaseUrl: required(env, 'DATABASE_URL'),
    temporalAddress: env.TEMPORAL_ADDRESS ?? 'localhost:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'workbench',
    jwtSecret: env.JWT_SECRET ?? devSecret(env),
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
        }
      : null,
    webDir: env.WEB_DIR ?? path.join(ROOT, 'dist', 'web'),
    i18nDir: path.join(ROOT, 'web', 'src', 'i18n'),
    loginThrottle: {
      maxFailures: Number(env.LOGIN_MAX_FAILURES ?? 5),
      lockSeconds: Number(env.LOGIN_LOCK_SECONDS ?? 60),
    },
    outboundAllowlist: list(env.OUTBOUND_ALLOWLIST),
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
    filesDir: path.resolve(ROOT, env.FILES_DIR ?? path.join('.data', 'files')),
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 50 * 1024 * 1024),
    llmBaseUrl: env.LLM_BASE_URL || 'https://api.openai.com/v1',
  };
}

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

/** In production (profile prod) a JWT_SECRET is mandatory; elsewhere a fixed development secret is used. */
function devSecret(env: NodeJS.ProcessEnv): string {
  if ((env.APP_PROFILES ?? '').split(',').includes('prod'))
    throw new Error('JWT_SECRET must be set with profile prod');
  return 'dev-only-secret-change-me-dev-only-secret-change-me-0123456789';
}
