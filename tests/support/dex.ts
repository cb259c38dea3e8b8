/**
 * Dex for the single sign-on suites (scripts/lib/dex.ts): its users and client, a proxy that can stand at the
 * issuer's address in front of it and forge what its token endpoint answers, and a driver of its own login
 * page over plain HTTP (the e2e suite uses Chromium instead).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ensureDex, startDex, type DexUser, type RunningDex } from '../../scripts/lib/dex';
import { oidcConfig, type OidcConfig } from '../../server/config';

export const DEX_CLIENT = { id: 'workbench', secret: 'workbench-sso-test-secret', name: 'Workbench' };

/** Kate is in the provider's `wb-admins` group (ROLE_ADMIN here); Jo in none. */
/**
 * A suffix of this suite's own: the suites of one `npm test` share a database, and an account made by one
 * suite's sign-in (another issuer) would hold the login or e-mail another suite's Dex user asks for.
 */
const RUN = String(process.pid % 100000) + Math.floor(Math.random() * 1000);

export const DEX_USERS = {
  kate: {
    email: `kate.sso${RUN}@example.test`,
    username: 'kate',
    preferredUsername: `kate.sso${RUN}`,
    name: 'Kate Sso',
    password: 'kate-password-1',
    groups: ['wb-admins', 'team-a'],
    userID: 'b0c1a2d3-0000-4000-8000-000000000001',
  },
  jo: {
    email: `jo.sso${RUN}@example.test`,
    username: 'jo',
    preferredUsername: `jo.sso${RUN}`,
    name: 'Jo Sso',
    password: 'jo-password-1',
    groups: ['team-a'],
    userID: 'b0c1a2d3-0000-4000-8000-000000000002',
  },
  /** Signs in at a second Dex only (another issuer: another subject). */
  lee: {
    email: `lee.sso${RUN}@example.test`,
    username: 'lee',
    preferredUsername: `lee.sso${RUN}`,
    name: 'Lee Sso',
    password: 'lee-password-1',
    groups: [],
    userID: 'b0c1a2d3-0000-4000-8000-000000000004',
  },
  /** Same login as a local account the test makes: the sign-in must not take that account over. */
  taken: {
    email: `taken.sso${RUN}@example.test`,
    username: 'taken',
    preferredUsername: `sso.taken${RUN}`,
    name: 'Taken Login',
    password: 'taken-password-1',
    groups: [],
    userID: 'b0c1a2d3-0000-4000-8000-000000000003',
  },
} satisfies Record<string, DexUser>;

/** This product's settings for the test Dex: role mapping `wb-admins=ROLE_ADMIN`, groups asked for. */
export function dexSettings(issuer: string, opts: { publicClient?: boolean } = {}): OidcConfig {
  return oidcConfig({
    OIDC_ISSUER_URL: issuer,
    OIDC_CLIENT_ID: DEX_CLIENT.id,
    OIDC_CLIENT_SECRET: opts.publicClient ? undefined : DEX_CLIENT.secret,
    OIDC_PROVIDER_NAME: 'Dex',
    OIDC_SCOPES: 'openid profile email groups',
    OIDC_ROLE_MAP: 'wb-admins=ROLE_ADMIN',
  })!;
}

/**
 * Starts Dex with DEX_USERS and the workbench client whose redirect URI is `appOrigin`'s callback page
 * (confidential with DEX_CLIENT.secret, or public: PKCE only).
 */
export async function startTestDex(
  appOrigin: string,
  opts: { issuerPort?: number; publicClient?: boolean } = {},
): Promise<RunningDex> {
  const bin = process.env.DEX_BIN ?? ensureDex();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dex-'));
  const dex = await startDex(bin, dir, {
    users: Object.values(DEX_USERS),
    clients: [
      {
        ...DEX_CLIENT,
        secret: opts.publicClient ? undefined : DEX_CLIENT.secret,
        redirectURIs: [`${appOrigin}/lp/oidc/callback`],
        postLogoutRedirectURIs: [appOrigin],
      },
    ],
    issuerPort: opts.issuerPort,
  });
  return {
    ...dex,
    stop: async () => {
      await dex.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A proxy at the issuer's address in front of Dex; `forge` (when set) rewrites the ID token of the token
 * endpoint's answer, as an attacker between the two would.
 */
export async function startIssuerProxy(): Promise<{
  port: number;
  target: { origin: string };
  forge: ((idToken: string) => string) | null;
  close(): Promise<void>;
}> {
  const state = {
    port: 0,
    target: { origin: '' },
    forge: null as ((idToken: string) => string) | null,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const upstream = await fetch(`${state.target.origin}${req.url}`, {
      method: req.method,
      headers: Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
      ) as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
      redirect: 'manual',
    });
    let body = Buffer.from(await upstream.arrayBuffer());
    if (state.forge && req.url?.startsWith('/dex/token') && upstream.ok) {
      const json = JSON.parse(body.toString());
      json.id_token = state.forge(json.id_token);
      body = Buffer.from(JSON.stringify(json));
    }
    const headers: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k))
        headers[k] = v;
    });
    res.writeHead(upstream.status, headers);
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

/** The token's claims changed (here: the subject and the groups), its signature kept. */
export function tamperedIdToken(jwt: string): string {
  const [header, , signature] = jwt.split('.');
  return `${header}.${b64({ ...claimsOf(jwt), groups: ['wb-admins'], sub: 'someone-else' })}.${signature}`;
}

/** The same claims signed with a key of the attacker's, under the provider's key id. */
export function resignedIdToken(jwt: string): string {
  const header = JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString());
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = `${b64({ ...header, alg: 'RS256' })}.${b64(claimsOf(jwt))}`;
  const signature = crypto.sign('sha256', Buffer.from(input), privateKey).toString('base64url');
  return `${input}.${signature}`;
}

/**
 * Signs in at Dex's own login page over HTTP, from the authorization URL the API gave: follows Dex's
 * redirects, posts the login form, and returns the query string Dex sends the browser back with.
 */
export async function loginAtDex(
  authorizationUrl: string,
  user: { email: string; password: string },
): Promise<string> {
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { ...init, redirect: 'manual' });
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.pathname.endsWith('/lp/oidc/callback')) return next.search;
      url = next.href;
      init = {};
      continue;
    }
    const html = await res.text();
    const form =
      /<form[^>]*method="post"[^>]*action="([^"]*)"|<form[^>]*action="([^"]*)"[^>]*method="post"/i.exec(html);
    if (res.status !== 200 || !form)
      throw new Error(`Dex answered ${res.status} without a login form at ${url}`);
    url = new URL((form[1] ?? form[2]).replace(/&amp;/g, '&'), url).href;
    init = {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ login: user.email, password: user.password }).toString(),
    };
  }
  throw new Error('Dex did not send the browser back to the callback page');
}
