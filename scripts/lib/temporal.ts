/**
 * The Temporal CLI and its dev server: find the `temporal` binary (TEMPORAL_CLI, PATH, ~/go/bin, GOPATH/bin),
 * else install it from the Go module proxy; start `temporal server start-dev` on a port of ours.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, isPortFree, waitForPort } from './ports';
import { DOCUMENT_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';

/** An executable regular file (also the cluster script's lookup, scripts/lib/cluster.ts). */
export function executable(p: string | undefined): p is string {
  if (!p) return false;
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, name);
    if (executable(p)) return p;
  }
  return undefined;
}

export function goBin(): string | undefined {
  const go = onPath('go') ?? (executable('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  return go;
}

function goPathBin(go: string | undefined): string | undefined {
  if (!go) return undefined;
  const r = spawnSync(go, ['env', 'GOBIN', 'GOPATH'], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  const [gobin, gopath] = r.stdout.split('\n');
  return (
    gobin?.trim() || (gopath?.trim() ? path.join(gopath.trim().split(path.delimiter)[0], 'bin') : undefined)
  );
}

export function findTemporalCli(): string | undefined {
  const candidates = [
    process.env.TEMPORAL_CLI,
    onPath('temporal'),
    path.join(os.homedir(), 'go', 'bin', 'temporal'),
  ];
  const bin = goPathBin(goBin());
  if (bin) candidates.push(path.join(bin, 'temporal'));
  return candidates.find(executable);
}

/** Finds the CLI or installs it with `go install`; exits with advice when neither works. */
export function ensureTemporalCli(): string {
  const found = findTemporalCli();
  if (found) return found;
  const go = goBin();
  if (!go) {
    throw new Error(
      'The Temporal CLI was not found and Go is not installed.\n' +
        `Install Go (https://go.dev/dl) and run: go install github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}\n` +
        'or download a temporal binary and set TEMPORAL_CLI=/path/to/temporal, or set TEMPORAL_ADDRESS to a running server.',
    );
  }
  console.log(
    `[setup] installing the Temporal CLI with go install (${TEMPORAL_CLI_VERSION}); this takes a few minutes once...`,
  );
  const r = spawnSync(go, ['install', `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`], {
    stdio: 'inherit',
  });
  const installed = findTemporalCli();
  if (r.status !== 0 || !installed) throw new Error('go install of the Temporal CLI failed (see above)');
  return installed;
}

export interface RunningTemporal {
  address: string;
  uiUrl: string | null;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  /** SQLite file for persistence; in memory when absent. */
  dbFile?: string;
  port?: number;
  /** Only `port` (a restart that workers and clients reconnect to): waits up to 10 s for it to be free. */
  strictPort?: boolean;
  uiPort?: number | null;
  dynamicConfig?: Record<string, string | number | boolean>;
  log?: (line: string) => void;
}

export async function startTemporalDevServer(
  cli: string,
  opts: DevServerOptions = {},
): Promise<RunningTemporal> {
  let port = opts.port && (await isPortFree(opts.port)) ? opts.port : await freePort();
  if (opts.strictPort && opts.port && port !== opts.port) {
    port = opts.port;
    const until = Date.now() + 10000;
    while (!(await isPortFree(port))) {
      if (Date.now() > until) throw new Error(`port ${port} of the Temporal dev server is still in use`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error'];
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile);
  }
  let uiPort: number | null = null;
  if (opts.uiPort === null) args.push('--headless');
  else {
    uiPort = opts.uiPort && (await isPortFree(opts.uiPort)) ? opts.uiPort : await freePort();
    args.push('--ui-port', String(uiPort));
  }
  // The document workflow's search attributes (workflows/search-attributes.ts), registered at start.
  for (const [name, type] of Object.entries(DOCUMENT_SEARCH_ATTRIBUTES))
    args.push('--search-attribute', `${name}=${type}`);
  for (const [k, v] of Object.entries(opts.dynamicConfig ?? {})) {
    args.push('--dynamic-config-value', `${k}=${JSON.stringify(v)}`);
  }
  const child = spawn(cli, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  const log = opts.log ?? (() => {});
  child.stdout?.on('data', (d: Buffer) => log(d.toString()));
  child.stderr?.on('data', (d: Buffer) => log(d.toString()));
  let exited = false;
  child.on('exit', () => (exited = true));
  await Promise.race([
    waitForPort(port, '127.0.0.1', 60000),
    new Promise((_, reject) =>
      child.once('exit', (code) => reject(new Error(`temporal dev server exited with ${code}`))),
    ),
  ]);
  await waitUntilServing(`127.0.0.1:${port}`);
  return {
    address: `127.0.0.1:${port}`,
    uiUrl: uiPort ? `http://localhost:${uiPort}` : null,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        const t = setTimeout(() => child.kill('SIGKILL'), 10000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** The port opens before the frontend serves the default namespace: wait for a real answer. */
async function waitUntilServing(address: string): Promise<void> {
  const { Connection } = await import('@temporalio/client');
  const deadline = Date.now() + 60000;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const c = await Connection.connect({ address, connectTimeout: 2000 });
      try {
        await c.workflowService.describeNamespace({ namespace: 'default' });
        return;
      } finally {
        await c.close();
      }
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  throw new Error(`Temporal at ${address} did not become ready: ${String(lastError)}`);
}
