/**
 * Single sign-on through an OpenID Connect provider (issue 32 section 3; docs/security.md "Single sign-on").
 * The protocol is openid-client's (authorization code with PKCE S256, state and nonce; the ID token's JWS
 * signature checked against the provider's JWKS, its issuer, audience, expiry and nonce); this module keeps
 * what a sign-in needs between its two halves, maps the provider's claims onto an account of this product
 * (created on first sign-in, its e-mail, names and mapped roles updated at each), and answers with the
 * product's own token, as a password sign-in does (same validity and revocation, audited the same way).
 *
 * - begin: a random state, nonce and PKCE verifier stored in `oidc_sign_ins` (any replica can finish the
 *   sign-in), the state also in an HttpOnly cookie of this browser, so that a callback URL passed to another
 *   browser (login CSRF) is refused; the answer is the provider's authorization URL.
 * - finish: the callback's query string; its state must equal the cookie's and name a stored sign-in, which is
 *   taken (deleted) at once: a replayed callback finds nothing. The code is redeemed with the verifier.
 * - An account belongs to the provider's subject (`iss` + `sub`, table `user_identities`), never to a login or
 *   e-mail the provider asserts: a local account with the same login or e-mail refuses the sign-in.
 *
 * The issuer is the operator's configuration, not a user's: no SSRF guard; it must be https, or plain http on
 * a loopback host (server/config.ts checkIssuerUrl), where openid-client is told to allow it.
 */
import crypto from 'node:crypto';
import * as oidc from 'openid-client';
import type { Knex } from 'knex';
import type { AppConfig, OidcConfig } from '../../server/config';
import { loginRule, EMAIL_PATTERN } from '../../domain/validation';
import { HttpError, tooManyRequests, unauthorized } from '../errors';
import { AuditTypes, recordAudit } from './audits';
import { hashPassword } from './accounts';
import {
  bumpTokenVersions,
  insertUser,
  updateUserRow,
  userById,
  userIdByEmail,
  userIdByLogin,
} from '../../db/queries/users';
import {
  insertIdentity,
  insertPendingSignIn,
  pendingSignInCount,
  purgePendingSignIns,
  setManagedRoles,
  takePendingSignIn,
  userIdByIdentity,
  userRoleNames,
} from '../../db/queries/oidc';

/** A sign-in not finished within this time is refused (the provider's own login page included). */
export const SIGN_IN_MAX_AGE_SECONDS = 600;
/**
 * Sign-ins begun and not finished, at most: beginning one needs no account, so a flood of them is refused
 * (429) rather than filling the table for the ten minutes they live.
 */
export const MAX_PENDING_SIGN_INS = 10_000;
export const STATE_COOKIE = 'wb_oidc_state';
export const CALLBACK_PATH = '/lp/oidc/callback';
const RETRY_MS = 60_000;
const CREATED_BY = 'sso';

/** A refused callback: 401 with the key the sign-in page translates, and what went wrong in English. */
export const ssoRefused = (detail: string) =>
  new HttpError(401, { message: 'error.ssoRefused', errorKey: 'ssoRefused', detail });
const accountTaken = () =>
  new HttpError(409, {
    message: 'error.ssoAccountTaken',
    errorKey: 'ssoAccountTaken',
    detail: 'An account with this login or e-mail exists and does not belong to this identity-provider user',
  });

export interface SsoClaims {
  issuer: string;
  subject: string;
  login: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  roles: string[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * The account's fields from the provider's claims (pure, unit-tested): the login claim falls back to the
 * e-mail's local part; the name claim is split at its first space when given_name/family_name are absent;
 * the role claim may be a list or one string. Throws ssoRefused when no valid login or e-mail results.
 */
export function mapClaims(config: OidcConfig, claims: Record<string, unknown>): SsoClaims {
  const email = str(claims[config.claims.email])?.toLowerCase();
  const login = (str(claims[config.claims.login]) ?? email?.split('@')[0])?.toLowerCase();
  if (!login || loginRule(login))
    throw ssoRefused(`The provider's login claim is missing or not a valid login: ${login}`);
  if (!email || !EMAIL_PATTERN.test(email)) throw ssoRefused('The provider gave no valid e-mail');
  const name = str(claims[config.claims.name]);
  const space = name?.indexOf(' ') ?? -1;
  const raw = claims[config.claims.roles];
  const values = Array.isArray(raw)
    ? raw.filter((v): v is string => typeof v === 'string')
    : str(raw)
      ? [str(raw)!]
      : [];
  return {
    issuer: String(claims.iss),
    subject: String(claims.sub),
    login,
    email,
    firstName:
      (str(claims.given_name) ?? (name && space > 0 ? name.slice(0, space) : name))?.slice(0, 50) ?? null,
    lastName:
      (str(claims.family_name) ?? (name && space > 0 ? name.slice(space + 1) : undefined))?.slice(0, 50) ??
      null,
    roles: rolesFor(config, values),
  };
}

/** This product's roles for the claim's values: the default roles plus every mapped one, sorted. */
export function rolesFor(config: OidcConfig, values: readonly string[]): string[] {
  const roles = new Set(config.defaultRoles);
  for (const v of values) for (const r of config.roleMap[v] ?? []) roles.add(r);
  return [...roles].sort();
}

/** The roles a sign-in sets or removes: those the mapping or the defaults name; others are left alone. */
export const managedRoles = (config: OidcConfig): string[] =>
  [...new Set([...config.defaultRoles, ...Object.values(config.roleMap).flat()])].sort();

/** A path of this app to go back to after the sign-in; anything else (another origin, `//x`) is dropped. */
export function safeReturnPath(v: unknown): string | null {
  return typeof v === 'string' && /^\/(?![/\\])/.test(v) && !v.startsWith('/lp') && v.length <= 2000
    ? v
    : null;
}

export interface SsoDeps {
  knex: Knex;
  config: AppConfig;
  /** The product's session token for a user id (api/services/accounts.ts, as a password sign-in gets). */
  sessionToken: (userId: number) => Promise<string>;
}

export function createSsoService({ knex, config, sessionToken }: SsoDeps) {
  const settings = config.oidc;
  const audit = { knex, config };
  const redirectUri = `${config.baseUrl.replace(/\/+$/, '')}${CALLBACK_PATH}`;
  let discovered: Promise<oidc.Configuration> | null = null;
  let failedAt = 0;

  /** The provider's metadata, discovered once (again a minute after a failure). */
  function provider(): Promise<oidc.Configuration> {
    if (!settings) throw unauthorized('Single sign-on is not configured');
    if (!discovered) {
      if (failedAt && Date.now() - failedAt < RETRY_MS)
        throw ssoRefused('The identity provider could not be reached; try again in a minute');
      const url = new URL(settings.issuerUrl);
      discovered = oidc
        .discovery(
          url,
          settings.clientId,
          settings.clientSecret,
          settings.clientSecret ? oidc.ClientSecretBasic(settings.clientSecret) : oidc.None(),
          { timeout: 10, execute: url.protocol === 'http:' ? [oidc.allowInsecureRequests] : [] },
        )
        .then((c) => {
          // Verify the ID token's signature with the provider's keys (JWKS) too, not only TLS to its token
          // endpoint: a token that a man in the middle or a misconfigured proxy altered is refused.
          oidc.enableNonRepudiationChecks(c);
          return c;
        })
        .catch((err) => {
          discovered = null;
          failedAt = Date.now();
          console.warn(`[oidc] discovery at ${settings.issuerUrl} failed: ${(err as Error).message}`);
          throw ssoRefused('The identity provider could not be reached');
        });
    }
    return discovered;
  }

  /** Finds, creates or updates the account of the provider's user; its id and whether it was created. */
  async function provision(
    c: SsoClaims,
  ): Promise<{ userId: number; rolesChanged: boolean; created: boolean }> {
    return knex.transaction(async (trx) => {
      let userId = await userIdByIdentity(trx, c.issuer, c.subject);
      const created = !userId;
      if (!userId) {
        if ((await userIdByLogin(trx, c.login)) || (await userIdByEmail(trx, c.email))) throw accountTaken();
        userId = await insertUser(trx, {
          login: c.login,
          email: c.email,
          // No password of this product: a random one nobody knows (sign-in goes through the provider).
          passwordHash: await hashPassword(crypto.randomBytes(32).toString('base64url')),
          firstName: c.firstName,
          lastName: c.lastName,
          activated: true,
          langKey: 'en',
          createdBy: CREATED_BY,
        });
        await insertIdentity(trx, userId, c.issuer, c.subject);
      } else {
        const row = (await userById(trx, userId))!;
        if (row.email !== c.email && (await userIdByEmail(trx, c.email, userId))) throw accountTaken();
        if (row.email !== c.email || row.first_name !== c.firstName || row.last_name !== c.lastName)
          await updateUserRow(trx, userId, {
            email: c.email,
            firstName: c.firstName,
            lastName: c.lastName,
            by: CREATED_BY,
          });
      }
      const before = await userRoleNames(trx, userId);
      await setManagedRoles(trx, userId, managedRoles(settings!), c.roles);
      const after = await userRoleNames(trx, userId);
      const rolesChanged = !created && before.join() !== after.join();
      // Tokens carrying the old roles end, as when an administrator changes them.
      if (rolesChanged) await bumpTokenVersions(trx, [userId]);
      if (created)
        await recordAudit(
          { knex: trx, config },
          {
            principal: CREATED_BY,
            type: AuditTypes.USER_CREATED,
            data: { login: c.login, roles: after, issuer: c.issuer },
          },
        );
      else if (rolesChanged)
        await recordAudit(
          { knex: trx, config },
          {
            principal: CREATED_BY,
            type: AuditTypes.USER_ACCESS_CHANGED,
            data: { login: c.login, before: { roles: before }, after: { roles: after } },
          },
        );
      return { userId, rolesChanged, created };
    });
  }

  return {
    enabled: !!settings,
    providerName: settings?.providerName ?? null,

    /** Starts a sign-in: the provider's authorization URL, and the state for this browser's cookie. */
    async begin(returnTo: string | null): Promise<{ authorizationUrl: string; state: string }> {
      const cfg = await provider();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      await purgePendingSignIns(knex, SIGN_IN_MAX_AGE_SECONDS);
      if ((await pendingSignInCount(knex)) >= MAX_PENDING_SIGN_INS)
        throw tooManyRequests('Too many sign-ins are under way; try again in a few minutes');
      await insertPendingSignIn(knex, { state, nonce, codeVerifier, returnTo });
      const url = oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri,
        scope: settings!.scopes.join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { authorizationUrl: url.href, state };
    },

    /**
     * Finishes a sign-in from the callback's query string (`?code=...&state=...`) and the state cookie of the
     * browser: the product's token, the provider's ID token (for the logout's id_token_hint) and where to go.
     */
    async finish(
      query: string,
      cookieState: string | undefined,
      address: string,
    ): Promise<{ token: string; idpIdToken: string; returnTo: string | null }> {
      let principal = 'sso';
      try {
        const params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
        const state = params.get('state') ?? '';
        if (!state || !cookieState || !safeEqual(state, cookieState))
          throw ssoRefused('The callback does not belong to a sign-in begun in this browser');
        const pending = await takePendingSignIn(knex, state, SIGN_IN_MAX_AGE_SECONDS);
        if (!pending) throw ssoRefused('The sign-in is unknown, expired or was finished already');
        const cfg = await provider();
        let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
        try {
          tokens = await oidc.authorizationCodeGrant(cfg, new URL(`${redirectUri}?${params}`), {
            pkceCodeVerifier: pending.codeVerifier,
            expectedState: pending.state,
            expectedNonce: pending.nonce,
            idTokenExpected: true,
          });
        } catch (err) {
          throw ssoRefused(`The identity provider's answer was refused: ${whyRefused(err)}`);
        }
        let claims: Record<string, unknown> = { ...tokens.claims()! };
        const needs = [
          settings!.claims.login,
          settings!.claims.email,
          settings!.claims.name,
          settings!.claims.roles,
        ];
        if (
          needs.some((c) => claims[c] === undefined) &&
          tokens.access_token &&
          cfg.serverMetadata().userinfo_endpoint
        ) {
          const info = await oidc
            .fetchUserInfo(cfg, tokens.access_token, String(claims.sub))
            .catch(() => ({}));
          claims = { ...info, ...claims };
        }
        const mapped = mapClaims(settings!, claims);
        principal = mapped.login;
        const { userId } = await provision(mapped);
        const row = (await userById(knex, userId))!;
        if (!row.activated) throw unauthorized(`User ${row.login} was not activated`);
        const token = await sessionToken(userId);
        await recordAudit(audit, {
          principal,
          type: AuditTypes.AUTHENTICATION_SUCCESS,
          data: { remoteAddress: address, identityProvider: mapped.issuer },
        });
        return { token, idpIdToken: tokens.id_token!, returnTo: pending.returnTo };
      } catch (err) {
        const e = err as { status?: number; body?: { detail?: unknown } };
        if (e.status === 401 || e.status === 409)
          await recordAudit(audit, {
            principal,
            type: AuditTypes.AUTHENTICATION_FAILURE,
            data: {
              remoteAddress: address,
              message: String(e.body?.detail ?? 'refused'),
              identityProvider: settings?.issuerUrl,
            },
          });
        throw err;
      }
    },
  };
}

/** openid-client's reason, with the claim or the cause it names (`unexpected JWT claim value: nonce`). */
function whyRefused(err: unknown): string {
  const e = err as {
    message?: string;
    code?: string;
    cause?: { claim?: string; message?: string; error?: string };
  };
  const cause = e.cause?.claim ?? e.cause?.error ?? e.cause?.message;
  return `${e.message}${e.code ? ` (${e.code})` : ''}${cause ? `: ${cause}` : ''}`;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}
