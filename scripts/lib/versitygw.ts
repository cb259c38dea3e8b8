/**
 * versitygw, an S3-compatible server (Versity S3 Gateway) over a plain directory, for the suites of the S3
 * file store (tests/support/s3.ts) and anyone trying FILES_STORE on one machine: found on PATH or in Go's bin
 * folder at the pinned version, else built once from the Go module proxy (`go install`, a few minutes, with
 * GOTOOLCHAIN=go1.27.3 as the module needs) and cached there; started on a free loopback port with the posix
 * backend in a directory of the caller's (metadata in a sidecar folder: no extended attributes needed).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { executable, goBin, onPath } from './temporal';
import { freePort, waitForPort } from './ports';
import { stopChildren } from './prepare';

export const VERSITYGW_MODULE = 'github.com/versity/versitygw';
export const VERSITYGW_VERSION = 'v1.8.0';
const TOOLCHAIN = process.env.TOOLS_GOTOOLCHAIN || 'go1.27.3';

function goBinDir(go: string): string | undefined {
  const r = spawnSync(go, ['env', 'GOBIN', 'GOPATH'], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  const [gobin, gopath] = r.stdout.split('\n').map((l) => l.trim());
  return gobin || (gopath ? path.join(gopath.split(path.delimiter)[0], 'bin') : undefined);
}

/** A versitygw binary of the pinned module version (as `go version -m` reports it). */
export function findVersitygw(): string | undefined {
  const go = goBin();
  const dir = go ? goBinDir(go) : undefined;
  const candidates = [process.env.VERSITYGW_BIN, dir && path.join(dir, 'versitygw'), onPath('versitygw')];
  return candidates.find((c): c is string => {
    if (!executable(c)) return false;
    if (c === process.env.VERSITYGW_BIN || !go) return true;
    const info = spawnSync(go, ['version', '-m', c], { encoding: 'utf8' }).stdout ?? '';
    return new RegExp(`\\smod\\s+${VERSITYGW_MODULE}\\s+${VERSITYGW_VERSION}(\\s|$)`, 'm').test(info);
  });
}

/** Finds versitygw or builds it with `go install`; a clear error when Go is missing or the build fails. */
export function ensureVersitygw(log: (line: string) => void = console.log): string {
  const found = findVersitygw();
  if (found) return found;
  const go = goBin();
  if (!go)
    throw new Error(
      `versitygw (the S3-compatible server of the S3 store's tests) is missing and Go is not installed: install Go and run GOTOOLCHAIN=${TOOLCHAIN} go install ${VERSITYGW_MODULE}/cmd/versitygw@${VERSITYGW_VERSION}, or set VERSITYGW_BIN`,
    );
  log(`[setup] building versitygw ${VERSITYGW_VERSION} with go install (a few minutes, once)...`);
  const r = spawnSync(go, ['install', `${VERSITYGW_MODULE}/cmd/versitygw@${VERSITYGW_VERSION}`], {
    stdio: 'inherit',
    env: {
      ...process.env,
      GOTOOLCHAIN: TOOLCHAIN,
      GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim(),
    },
  });
  const installed = findVersitygw();
  if (r.status !== 0 || !installed) throw new Error('go install of versitygw failed (see above)');
  return installed;
}

export interface RunningS3Server {
  /** http://127.0.0.1:port */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/** Starts versitygw with the posix backend over `dir` (buckets are its folders) on a free loopback port. */
export async function startVersitygw(
  bin: string,
  dir: string,
  keys = { accessKeyId: 'workbench-test', secretAccessKey: 'workbench-test-secret' },
): Promise<RunningS3Server> {
  const port = await freePort();
  const root = path.join(dir, 'buckets');
  const sidecar = path.join(dir, 'meta');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(sidecar, { recursive: true });
  const child = spawn(
    bin,
    [
      '--port',
      `127.0.0.1:${port}`,
      '--access',
      keys.accessKeyId,
      '--secret',
      keys.secretAccessKey,
      '--quiet',
      'posix',
      '--sidecar',
      sidecar,
      root,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  await Promise.race([
    waitForPort(port, '127.0.0.1', 30000),
    new Promise((_, reject) =>
      child.once('exit', (code) => reject(new Error(`versitygw exited with ${code}: ${stderr.trim()}`))),
    ),
  ]);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    ...keys,
    stop: () => stopChildren([child], 5000),
  };
}
