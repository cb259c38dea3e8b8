/**
 * Structured logs: one JSON object per line on stdout (stderr for WARN and ERROR) with `time`, `level`,
 * `logger`, `message`, the `requestId` of the request being served (or of the request that started the
 * workflow whose activity runs) and any extra fields.
 *
 * Loggers are named with dots (`api.http`, `worker.parser`); a logger without a level of its own takes the
 * one of its nearest configured ancestor, then the root's (LOG_LEVEL, default INFO). Levels change at run
 * time (`POST management/loggers/{name}`), in the process that serves the call: each API process and each
 * worker has its own (documented in docs/architecture.md).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';

export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'OFF'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const ROOT_LOGGER = 'ROOT';

const rank = (l: LogLevel) => LOG_LEVELS.indexOf(l);
export const isLogLevel = (v: unknown): v is LogLevel =>
  typeof v === 'string' && (LOG_LEVELS as readonly string[]).includes(v);

// --- request context ---

export interface RequestContext {
  requestId: string;
}

const context = new AsyncLocalStorage<RequestContext>();

/** Runs fn with the request id (new when absent) as the context of every log line written meanwhile. */
export function withRequestContext<T>(requestId: string | undefined, fn: () => T): T {
  return context.run({ requestId: requestId || newRequestId() }, fn);
}

export const currentRequestId = (): string | undefined => context.getStore()?.requestId;

export const newRequestId = (): string => crypto.randomUUID();

/** A request id a caller may send (X-Request-Id): short, printable, no spaces or quotes. */
export const isValidRequestId = (v: string): boolean => /^[\w.:@/+=-]{1,100}$/.test(v);

// --- levels ---

const configured = new Map<string, LogLevel>();
/** Every logger name created or configured in this process. */
const known = new Set<string>([ROOT_LOGGER]);

function rootLevel(): LogLevel {
  const fromEnv = (process.env.LOG_LEVEL ?? '').toUpperCase();
  return configured.get(ROOT_LOGGER) ?? (isLogLevel(fromEnv) ? fromEnv : 'INFO');
}

/** The level that applies to a logger: its own, its nearest configured ancestor's, or the root's. */
export function effectiveLevel(name: string): LogLevel {
  if (name === ROOT_LOGGER) return rootLevel();
  for (let n: string | null = name; n; n = n.includes('.') ? n.slice(0, n.lastIndexOf('.')) : null) {
    const level = configured.get(n);
    if (level) return level;
  }
  return rootLevel();
}

/** Sets a logger's own level; null goes back to the inherited one. */
export function setLogLevel(name: string, level: LogLevel | null): void {
  known.add(name);
  if (level) configured.set(name, level);
  else configured.delete(name);
}

export interface LoggerLevels {
  configuredLevel: LogLevel | null;
  effectiveLevel: LogLevel;
}

/** Every known logger with its own and its effective level, by name (ROOT first). */
export function listLoggers(): Record<string, LoggerLevels> {
  const names = [...known].sort((a, b) =>
    a === ROOT_LOGGER ? -1 : b === ROOT_LOGGER ? 1 : a.localeCompare(b),
  );
  return Object.fromEntries(
    names.map((n) => [
      n,
      {
        configuredLevel: n === ROOT_LOGGER ? rootLevel() : (configured.get(n) ?? null),
        effectiveLevel: effectiveLevel(n),
      },
    ]),
  );
}

// --- writing ---

export type LogFields = Record<string, unknown>;

export interface Logger {
  readonly name: string;
  trace(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  isEnabled(level: LogLevel): boolean;
}

/** Where lines go (tests replace it to read them). */
export let logSink: (line: string, level: LogLevel) => void = (line, level) => {
  (rank(level) >= rank('WARN') ? process.stderr : process.stdout).write(`${line}\n`);
};

export function setLogSink(sink: typeof logSink): typeof logSink {
  const previous = logSink;
  logSink = sink;
  return previous;
}

function serializeError(err: Error): LogFields {
  return { type: err.name, message: err.message, stack: err.stack };
}

function serialize(fields: LogFields | undefined): LogFields {
  if (!fields) return {};
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields))
    out[k] = v instanceof Error ? serializeError(v) : typeof v === 'bigint' ? String(v) : v;
  return out;
}

/** The JSON line of one entry. */
export function formatEntry(name: string, level: LogLevel, message: string, fields?: LogFields): string {
  const requestId = currentRequestId();
  return JSON.stringify({
    time: new Date().toISOString(),
    level,
    logger: name,
    message,
    ...(requestId ? { requestId } : {}),
    ...serialize(fields),
  });
}

export function getLogger(name: string): Logger {
  known.add(name);
  const write = (level: LogLevel) => (message: string, fields?: LogFields) => {
    if (rank(level) < rank(effectiveLevel(name))) return;
    logSink(formatEntry(name, level, message, fields), level);
  };
  return {
    name,
    trace: write('TRACE'),
    debug: write('DEBUG'),
    info: write('INFO'),
    warn: write('WARN'),
    error: write('ERROR'),
    isEnabled: (level) => rank(level) >= rank(effectiveLevel(name)),
  };
}

/** One entry of the Temporal SDK's logger (the worker runtime's and Core's), as `@temporalio/worker` hands it. */
export interface SdkLogEntry {
  level: 'TRACE' | 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
  message: string;
  timestampNanos: bigint;
  meta?: Record<string, unknown>;
}

/**
 * The Temporal SDK's log lines as ours (issue 28): the same JSON line on the same sink, under the logger
 * `name`, timed when the SDK logged them (Core's lines arrive in batches), its metadata as fields.
 * The SDK's own level (TEMPORAL_LOG_LEVEL) chooses what reaches here; the logger's level applies on top.
 */
export function sdkLogFunction(name = 'worker.temporal'): (entry: SdkLogEntry) => void {
  const logger = getLogger(name);
  const method = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
  return (entry) => {
    let time: string;
    try {
      time = new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString();
    } catch {
      time = new Date().toISOString();
    }
    logger[method[entry.level] ?? 'info'](entry.message, { ...entry.meta, time });
  };
}
