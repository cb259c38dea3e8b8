/**
 * A real Temporal cluster on this machine (issue 26 section 2): the server built from its Go module
 * (`go.temporal.io/server/cmd/server`, cached as `temporal-server`) and its SQL schema tool (`cmd/tools/sql`,
 * `temporal-sql-tool`), persistence and advanced visibility on PostgreSQL, the frontend, history, matching and
 * internal-worker services as separate processes on one config, the frontend serving mTLS with certificates
 * made here (scripts/lib/certs.ts), the namespace and the document search attributes registered. Everything
 * lives under `.data/cluster/` (config, certificates, logs, the embedded PostgreSQL when no other is there).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { makeCa, makeLeaf } from './certs';
import { isPortFree, waitForPort } from './ports';
import { createDatabaseIfMissing, splitDatabaseUrl, startEmbeddedPostgres } from './postgres';
import { ROOT, stopChildren } from './prepare';
import { executable, goBin, onPath } from './temporal';
import { ensureSearchAttributes } from '../../server/search-attributes';
import { connectOptions, loadTemporalConnection } from '../../server/temporal-connection';
import { DOCUMENT_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

export const TEMPORAL_SERVER_VERSION = 'v1.32.2';
/** v1.32 needs Go >= 1.26.10; the module proxy serves this approved toolchain. */
export const GO_TOOLCHAIN = 'go1.27.3';
export const CLUSTER_SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;
export type ClusterService = (typeof CLUSTER_SERVICES)[number];

const SERVER_MODULE = 'go.temporal.io/server';
const BINARIES = { 'temporal-server': 'cmd/server', 'temporal-sql-tool': 'cmd/tools/sql' } as const;

/** A cached binary of this version: PATH, then ~/go/bin. */
function findBinary(name: keyof typeof BINARIES): string | undefined {
  for (const p of [onPath(name), path.join(os.homedir(), 'go', 'bin', name)]) {
    if (!executable(p)) continue;
    const v = spawnSync(p, ['--version'], { encoding: 'utf8' });
    if ((v.stdout + v.stderr).includes(TEMPORAL_SERVER_VERSION.slice(1))) return p;
  }
  return undefined;
}

/** Whether the server and the schema tool of this version are built (PATH or ~/go/bin). */
export const clusterBinariesBuilt = (): boolean =>
  !!findBinary('temporal-server') && !!findBinary('temporal-sql-tool');

/**
 * The server and the schema tool, built once (`GOTOOLCHAIN=go1.27.3 go install ...@v1.32.2`, several minutes)
 * and kept in ~/go/bin as `temporal-server` and `temporal-sql-tool`. Without Go: one line saying what to do.
 */
export function ensureClusterBinaries(log: (line: string) => void = console.log): {
  server: string;
  sqlTool: string;
} {
  const found = { server: findBinary('temporal-server'), sqlTool: findBinary('temporal-sql-tool') };
  if (found.server && found.sqlTool) return { server: found.server, sqlTool: found.sqlTool };
  const go = goBin();
  if (!go)
    throw new Error(
      `Go is not installed: the Temporal server ${TEMPORAL_SERVER_VERSION} is built from its Go module (install Go from https://go.dev/dl, or put temporal-server and temporal-sql-tool ${TEMPORAL_SERVER_VERSION} on PATH)`,
    );
  const bin = path.join(os.homedir(), 'go', 'bin');
  fs.mkdirSync(bin, { recursive: true });
  for (const [name, pkg] of Object.entries(BINARIES)) {
    if (findBinary(name as keyof typeof BINARIES)) continue;
    log(
      `[cluster] building ${name} (${SERVER_MODULE}/${pkg}@${TEMPORAL_SERVER_VERSION}, GOTOOLCHAIN=${GO_TOOLCHAIN}); several minutes, once...`,
    );
    const gobin = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-build-'));
    try {
      const r = spawnSync(go, ['install', `${SERVER_MODULE}/${pkg}@${TEMPORAL_SERVER_VERSION}`], {
        stdio: 'inherit',
        env: { ...process.env, GOTOOLCHAIN: GO_TOOLCHAIN, GOBIN: gobin },
      });
      const built = path.join(gobin, path.basename(pkg));
      if (r.status !== 0 || !executable(built))
        throw new Error(`go install of ${SERVER_MODULE}/${pkg} failed (see above)`);
      fs.copyFileSync(built, path.join(bin, name));
      fs.chmodSync(path.join(bin, name), 0o755);
    } finally {
      fs.rmSync(gobin, { recursive: true, force: true });
    }
  }
  return { server: findBinary('temporal-server')!, sqlTool: findBinary('temporal-sql-tool')! };
}

/** The server module's folder in the Go module cache (its versioned SQL schema). */
function serverModuleDir(): string {
  const go = goBin();
  if (!go) throw new Error('Go is not installed: the schema files come from the server module');
  const r = spawnSync(go, ['mod', 'download', '-json', `${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`], {
    encoding: 'utf8',
    env: { ...process.env, GOTOOLCHAIN: GO_TOOLCHAIN, GOFLAGS: '-mod=mod' },
    cwd: os.tmpdir(),
  });
  const dir = r.status === 0 ? (JSON.parse(r.stdout) as { Dir?: string }).Dir : undefined;
  if (!dir)
    throw new Error(`go mod download ${SERVER_MODULE}@${TEMPORAL_SERVER_VERSION} failed: ${r.stderr.trim()}`);
  return dir;
}

export interface ClusterPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  stop(): Promise<void>;
}

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** DATABASE_URL's server, else this machine's PostgreSQL (127.0.0.1:5432, user postgres), else an embedded one. */
export async function clusterPostgres(
  dataDir: string,
  log: (line: string) => void,
): Promise<ClusterPostgres> {
  const candidates = [
    process.env.DATABASE_URL ? splitDatabaseUrl(process.env.DATABASE_URL).serverUrl : undefined,
    'postgres://postgres@127.0.0.1:5432',
  ].filter((u): u is string => !!u);
  for (const serverUrl of candidates) {
    if (!(await reachable(`${serverUrl}/postgres`))) continue;
    const u = new URL(serverUrl);
    log(`[cluster] PostgreSQL at ${u.hostname}:${u.port || 5432}`);
    return {
      host: u.hostname,
      port: Number(u.port || 5432),
      user: decodeURIComponent(u.username || 'postgres'),
      password: decodeURIComponent(u.password),
      stop: async () => {},
    };
  }
  log('[cluster] starting an embedded PostgreSQL (.data/cluster/pg)...');
  const running = await startEmbeddedPostgres(path.join(dataDir, 'pg'), { persistent: true });
  return {
    host: '127.0.0.1',
    port: running.port,
    user: 'postgres',
    password: 'postgres',
    stop: () => running.stop(),
  };
}

/** Temporal's own schema tool: the database, then every versioned schema step, for persistence and visibility. */
function setupSchema(sqlTool: string, db: ClusterPostgres, database: string, schemaDir: string): void {
  const base = [
    '--plugin',
    'postgres12',
    '--ep',
    db.host,
    '-p',
    String(db.port),
    '-u',
    db.user,
    '--db',
    database,
  ];
  const env = { ...process.env, SQL_PASSWORD: db.password };
  const run = (args: string[]) => {
    const r = spawnSync(sqlTool, [...base, ...args], { encoding: 'utf8', env });
    if (r.status !== 0)
      throw new Error(`temporal-sql-tool ${args[0]} on ${database} failed: ${(r.stderr || r.stdout).trim()}`);
  };
  run(['setup-schema', '-v', '0.0']);
  run(['update-schema', '-d', schemaDir]);
}

export interface ClusterCertificates {
  ca: string;
  serverCert: string;
  serverKey: string;
  /** The services' own client certificate (system worker, internode calls to the frontend). */
  internalCert: string;
  internalKey: string;
  /** The product's client certificate. */
  clientCert: string;
  clientKey: string;
}

function certificates(dir: string): ClusterCertificates {
  const at = (f: string) => path.join(dir, f);
  if (!fs.existsSync(at('client.pem'))) {
    const ca = makeCa(dir, 'ca', '/CN=Workbench Temporal cluster CA');
    makeLeaf(dir, ca, 'server', {
      commonName: 'localhost',
      usage: 'server',
      dnsNames: ['localhost'],
      ips: ['127.0.0.1'],
    });
    makeLeaf(dir, ca, 'internal', { commonName: 'temporal-internal', usage: 'client' });
    makeLeaf(dir, ca, 'client', { commonName: 'workbench', usage: 'client' });
  }
  return {
    ca: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    internalCert: at('internal.pem'),
    internalKey: at('internal.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
  };
}

/**
 * A free frontend port whose 23 followers are free too, at most 32744: the cluster's membership table keeps
 * ports in a smallint.
 */
export async function freeClusterPort(): Promise<number> {
  for (;;) {
    const base = 20000 + Math.floor(Math.random() * 12000);
    const all = await Promise.all(Array.from({ length: 24 }, (_, i) => isPortFree(base + i)));
    if (all.every(Boolean)) return base;
  }
}

/** Ports of one cluster: the frontend's gRPC port, the others above it. */
function ports(frontend: number) {
  return {
    frontend: { grpc: frontend, membership: frontend + 10, http: frontend + 20 },
    history: { grpc: frontend + 1, membership: frontend + 11 },
    matching: { grpc: frontend + 2, membership: frontend + 12 },
    worker: { grpc: frontend + 3, membership: frontend + 13 },
  };
}

function configYaml(o: {
  db: ClusterPostgres;
  databases: { main: string; visibility: string };
  certs: ClusterCertificates;
  frontendPort: number;
  historyShards: number;
}): string {
  const p = ports(o.frontendPort);
  const store = (database: string, maxConns: number) => `      sql:
        pluginName: "postgres12"
        databaseName: "${database}"
        connectAddr: "${o.db.host}:${o.db.port}"
        connectProtocol: "tcp"
        user: "${o.db.user}"
        password: "${o.db.password}"
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
  const service = (name: keyof typeof p) => {
    const s = p[name] as { grpc: number; membership: number; http?: number };
    return `  ${name}:
    rpc:
      grpcPort: ${s.grpc}
      membershipPort: ${s.membership}
      bindOnIP: "127.0.0.1"${s.http ? `\n      httpPort: ${s.http}` : ''}`;
  };
  const clientTls = `        serverName: "localhost"
        rootCaFiles:
          - "${o.certs.ca}"`;
  return `# Written by scripts/cluster.ts (npm run cluster): regenerated at each start.
log:
  stdout: true
  level: warn

persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: ${o.historyShards}
  datastores:
    postgres-default:
${store(o.databases.main, 10)}
    postgres-visibility:
${store(o.databases.visibility, 2)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  tls:
    frontend:
      server:
        certFile: "${o.certs.serverCert}"
        keyFile: "${o.certs.serverKey}"
        requireClientAuth: true
        clientCaFiles:
          - "${o.certs.ca}"
      client:
${clientTls}
    systemWorker:
      certFile: "${o.certs.internalCert}"
      keyFile: "${o.certs.internalKey}"
      client:
${clientTls}

services:
${service('frontend')}
${service('history')}
${service('matching')}
${service('worker')}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "localhost:${p.frontend.grpc}"

dcRedirectionPolicy:
  policy: "noop"

publicClient:
  hostPort: "localhost:${p.frontend.grpc}"
`;
}

export interface ClusterOptions {
  /** Where config, certificates, logs (and an embedded PostgreSQL) live; default `.data/cluster`. */
  dataDir?: string;
  /** The frontend's gRPC port (the other services' ports follow it); default 7340. */
  frontendPort?: number;
  /** Database name prefix; default `temporal_cluster` (and `_visibility`). */
  database?: string;
  namespace?: string;
  /** The PostgreSQL to keep persistence and visibility on (default: clusterPostgres). */
  postgres?: ClusterPostgres;
  log?: (line: string) => void;
}

export interface RunningCluster {
  address: string;
  namespace: string;
  certs: ClusterCertificates;
  /** The variables that point the product (or the temporal CLI) at this cluster over mTLS. */
  clientEnv: Record<string, string>;
  processes: Record<ClusterService, ChildProcess>;
  /** Kills one service as a crash would (SIGKILL). */
  kill(service: ClusterService): void;
  /** Starts a service again (after a kill). */
  restart(service: ClusterService): Promise<void>;
  stop(): Promise<void>;
}

export async function startCluster(opts: ClusterOptions = {}): Promise<RunningCluster> {
  const log = opts.log ?? console.log;
  const dataDir = opts.dataDir ?? path.join(ROOT, '.data', 'cluster');
  const frontendPort = opts.frontendPort ?? 7340;
  // Temporal's cluster_membership table keeps a service's membership port (frontend + 13 at most) in a smallint.
  if (frontendPort + 23 > 32767)
    throw new Error(`the frontend port must be at most ${32767 - 23}, not ${frontendPort}`);
  const namespace = opts.namespace ?? 'default';
  const prefix = opts.database ?? 'temporal_cluster';
  const databases = { main: prefix, visibility: `${prefix}_visibility` };
  fs.mkdirSync(path.join(dataDir, 'logs'), { recursive: true });

  const { server, sqlTool } = ensureClusterBinaries(log);
  const portsInUse: number[] = [];
  for (const s of Object.values(ports(frontendPort)))
    for (const port of Object.values(s)) if (!(await isPortFree(port))) portsInUse.push(port);
  if (portsInUse.length)
    throw new Error(`ports ${portsInUse.join(', ')} are in use (another cluster?): stop it or pass --port`);

  const db = opts.postgres ?? (await clusterPostgres(dataDir, log));
  const stops: (() => Promise<void>)[] = [() => db.stop()];
  try {
    const schema = path.join(serverModuleDir(), 'schema', 'postgresql', 'v12');
    const serverUrl = `postgres://${encodeURIComponent(db.user)}${db.password ? `:${encodeURIComponent(db.password)}` : ''}@${db.host}:${db.port}`;
    for (const [database, dir] of [
      [databases.main, 'temporal'],
      [databases.visibility, 'visibility'],
    ] as const) {
      await createDatabaseIfMissing(serverUrl, database);
      setupSchema(sqlTool, db, database, path.join(schema, dir, 'versioned'));
    }
    log(`[cluster] schema of ${databases.main} and ${databases.visibility} up to date (temporal-sql-tool)`);

    const certs = certificates(path.join(dataDir, 'certs'));
    const configFile = path.join(dataDir, 'config.yaml');
    fs.writeFileSync(configFile, configYaml({ db, databases, certs, frontendPort, historyShards: 4 }));

    const processes = {} as Record<ClusterService, ChildProcess>;
    const launch = (service: ClusterService) => {
      const out = fs.openSync(path.join(dataDir, 'logs', `${service}.log`), 'a');
      const child = spawn(
        server,
        ['--config-file', configFile, '--allow-no-auth', 'start', '--service', service],
        {
          stdio: ['ignore', out, out],
          cwd: dataDir,
        },
      );
      fs.closeSync(out);
      processes[service] = child;
      return child;
    };
    const stopAll = () => stopChildren(Object.values(processes));
    stops.unshift(stopAll);

    const address = `127.0.0.1:${frontendPort}`;
    const clientEnv = {
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.ca,
      TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
      TEMPORAL_TLS_SERVER_NAME: 'localhost',
    };
    // One after the other, each once its port is open: the first writes the cluster's metadata, which services
    // starting together race for (a version mismatch that stops all but one); history first (the others look
    // it up in the membership ring), the internal worker last (it is a client of the frontend).
    const grpcPort = (service: ClusterService) => ports(frontendPort)[service].grpc;
    const startService = async (service: ClusterService) => {
      const child = launch(service);
      await Promise.race([
        waitForPort(grpcPort(service), '127.0.0.1', 120000),
        new Promise((_, reject) =>
          child.once('exit', (code) =>
            reject(
              new Error(
                `${service} exited with ${code} (see ${path.join(dataDir, 'logs', `${service}.log`)})`,
              ),
            ),
          ),
        ),
      ]);
    };
    for (const service of ['history', 'matching', 'frontend', 'worker'] as const) await startService(service);
    await registerNamespace(clientEnv, namespace, log, () => {
      const gone = CLUSTER_SERVICES.filter((svc) => processes[svc].exitCode !== null);
      if (gone.length) throw new Error(`${gone.join(', ')} exited (see ${path.join(dataDir, 'logs')})`);
    });

    return {
      address,
      namespace,
      certs,
      clientEnv,
      processes,
      kill: (service) => processes[service].kill('SIGKILL'),
      restart: (service) => startService(service),
      stop: async () => {
        for (const stop of stops) await stop().catch(() => {});
      },
    };
  } catch (err) {
    for (const stop of stops) await stop().catch(() => {});
    throw err;
  }
}

/** The namespace (3 days of retention) and the document search attributes, through the frontend over mTLS. */
async function registerNamespace(
  clientEnv: Record<string, string>,
  namespace: string,
  log: (l: string) => void,
  checkAlive: () => void,
) {
  const settings = loadTemporalConnection({ HOME: os.homedir(), ...clientEnv });
  const deadline = Date.now() + 120000;
  let lastError: unknown;
  while (Date.now() < deadline) {
    checkAlive();
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ ...connectOptions(settings), connectTimeout: 5000 });
      const exists = await connection.workflowService.describeNamespace({ namespace }).then(
        () => true,
        (err: { code?: number }) => {
          if (err.code === 5) return false; // NOT_FOUND
          throw err;
        },
      );
      if (!exists) {
        await connection.workflowService.registerNamespace({
          namespace,
          workflowExecutionRetentionPeriod: msToTs('3 days'),
        });
        log(`[cluster] namespace ${namespace} registered`);
      }
      // A new namespace reaches the services' caches in a few seconds: until then this fails, and is tried again.
      await connection.operatorService.listSearchAttributes({ namespace });
      // Advanced visibility on PostgreSQL holds custom search attributes (no Elasticsearch).
      const added = await ensureSearchAttributes(connection, namespace);
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      if (added.length) log(`[cluster] search attributes ${added.join(', ')} registered`);
      if (Object.keys(DOCUMENT_SEARCH_ATTRIBUTES).every((n) => customAttributes?.[n])) return;
      lastError = new Error('the search attributes are not listed yet');
    } catch (err) {
      lastError = err;
    } finally {
      await connection?.close();
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the cluster's namespace ${namespace} did not become ready: ${String(lastError)}`);
}
