/**
 * Dex, the OpenID Connect provider the single sign-on suites sign in through (tests/integration/sso.test.ts,
 * tests/e2e/sso.test.ts): found on PATH or in Go's bin folder at the pinned version, else built once from
 * the Go module proxy and cached there as `dex`; started on a free loopback port with a generated config
 * (memory storage, static password users, static clients).
 *
 * Why not `go install ...@version`: Dex's tags (v2.x) are not Go-module versions (its go.mod has no /v2), so
 * the release is named by its pseudo-version, and its go.mod replaces `github.com/dexidp/dex/api/v2` with a
 * folder that the module zip leaves out, which `go install pkg@version` refuses. So: `go mod download` of the
 * pinned pseudo-version, a writable copy, the replace dropped (the published api/v2 module is the same code
 * for this release), and `go build ./cmd/dex` in it, with GOTOOLCHAIN=go1.27.3 (the module needs Go 1.25+).
 * Dex v2.45 keeps no login session of its own: every authorization shows its login page again.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { executable, goBin, onPath } from './temporal';
import { freePort, waitForPort } from './ports';
import { stopChildren } from './prepare';

export const DEX_MODULE = 'github.com/dexidp/dex';
/** Dex v2.45.1 (tag v2.45.1, commit 11d2eeb52b42). */
export const DEX_VERSION = 'v0.0.0-20260303133905-11d2eeb52b42';
const TOOLCHAIN = process.env.TOOLS_GOTOOLCHAIN || 'go1.27.3';

/** A dex binary that says it is the pinned version (the build stamps it: `dex version`). */
export function findDex(): string | undefined {
  const candidates = [process.env.DEX_BIN, path.join(os.homedir(), 'go', 'bin', 'dex'), onPath('dex')];
  return candidates.find((c): c is string => {
    if (!executable(c)) return false;
    if (c === process.env.DEX_BIN) return true;
    const v = spawnSync(c, ['version'], { encoding: 'utf8' });
    return `${v.stdout}`.includes(`Dex Version: ${DEX_VERSION}`);
  });
}

/** Finds Dex or builds it (a few minutes, once); a clear error when Go is missing or the build fails. */
export function ensureDex(log: (line: string) => void = console.log): string {
  const found = findDex();
  if (found) return found;
  const go = goBin();
  if (!go)
    throw new Error(
      `Dex (the OpenID Connect provider of the single sign-on tests) is missing and Go is not installed: install Go, or put dex ${DEX_VERSION} in ~/go/bin or DEX_BIN`,
    );
  log(`[setup] building Dex ${DEX_VERSION} from the Go module proxy (a few minutes, once)...`);
  const env = { ...process.env, GOTOOLCHAIN: TOOLCHAIN, GOFLAGS: '-mod=mod' };
  const dl = spawnSync(go, ['mod', 'download', '-json', `${DEX_MODULE}@${DEX_VERSION}`], {
    encoding: 'utf8',
    env,
    cwd: os.tmpdir(),
  });
  const dir = dl.status === 0 ? (JSON.parse(dl.stdout) as { Dir?: string }).Dir : undefined;
  if (!dir) throw new Error(`go mod download ${DEX_MODULE}@${DEX_VERSION} failed: ${dl.stderr.trim()}`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-build-'));
  try {
    const src = path.join(work, 'src');
    fs.cpSync(dir, src, { recursive: true });
    spawnSync('chmod', ['-R', 'u+w', src]);
    const drop = spawnSync(go, ['mod', 'edit', `-dropreplace=${DEX_MODULE}/api/v2`], { cwd: src, env });
    if (drop.status !== 0) throw new Error(`go mod edit failed: ${drop.stderr}`);
    const out = path.join(work, 'dex');
    const r = spawnSync(
      go,
      ['build', '-buildvcs=false', '-ldflags', `-X main.version=${DEX_VERSION}`, '-o', out, './cmd/dex'],
      { cwd: src, env, stdio: 'inherit' },
    );
    if (r.status !== 0 || !executable(out)) throw new Error('go build of Dex failed (see above)');
    const bin = path.join(os.homedir(), 'go', 'bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.copyFileSync(out, path.join(bin, 'dex'));
    fs.chmodSync(path.join(bin, 'dex'), 0o755);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const built = findDex();
  if (!built) throw new Error('the Dex just built does not report its version');
  return built;
}

export interface DexUser {
  email: string;
  username: string;
  password: string;
  name?: string;
  preferredUsername?: string;
  groups?: string[];
  /** the subject (`sub`) of the user's ID tokens */
  userID: string;
}

export interface DexClient {
  id: string;
  /** none: a public client (PKCE only) */
  secret?: string;
  name: string;
  redirectURIs: string[];
  postLogoutRedirectURIs?: string[];
}

export interface RunningDex {
  /** http://127.0.0.1:port/dex: the issuer, OIDC_ISSUER_URL */
  issuer: string;
  /** where Dex itself listens (the issuer's origin unless issuerPort put a proxy there) */
  origin: string;
  stop(): Promise<void>;
}

/** Starts Dex on a free loopback port with memory storage, the given static users and clients. */
export async function startDex(
  bin: string,
  dir: string,
  opts: {
    users: DexUser[];
    clients: DexClient[];
    /**
     * The port the issuer URL names, when another server (a test's proxy) stands in front of Dex there;
     * Dex itself listens on a free port of its own then.
     */
    issuerPort?: number;
  },
): Promise<RunningDex> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${opts.issuerPort ?? port}/dex`;
  fs.mkdirSync(dir, { recursive: true });
  const config = {
    issuer,
    storage: { type: 'memory' },
    web: { http: `127.0.0.1:${port}` },
    logger: { level: 'warn' },
    oauth2: { skipApprovalScreen: true, responseTypes: ['code'] },
    enablePasswordDB: true,
    staticPasswords: opts.users.map((u) => ({
      email: u.email,
      // Dex refuses a bcrypt cost below 10.
      hash: bcrypt.hashSync(u.password, 10),
      username: u.username,
      name: u.name,
      preferredUsername: u.preferredUsername,
      groups: u.groups,
      userID: u.userID,
      emailVerified: true,
    })),
    staticClients: opts.clients.map((c) => ({
      id: c.id,
      name: c.name,
      redirectURIs: c.redirectURIs,
      postLogoutRedirectURIs: c.postLogoutRedirectURIs,
      ...(c.secret ? { secret: c.secret } : { public: true }),
    })),
  };
  // JSON is YAML: Dex reads it as its config file.
  const file = path.join(dir, 'dex.json');
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  const child = spawn(bin, ['serve', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  await Promise.race([
    waitForPort(port, '127.0.0.1', 30000),
    new Promise((_, reject) =>
      child.once('exit', (code) => reject(new Error(`dex exited with ${code}: ${stderr.trim()}`))),
    ),
  ]);
  return { issuer, origin: `http://127.0.0.1:${port}`, stop: () => stopChildren([child], 5000) };
}
