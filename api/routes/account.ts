/**
 * Account and session calls (spec 1 section 7; docs/api-foundation.md "Account and session"): sign-in,
 * the own account and password, registration with activation, and password reset. Handlers validate with
 * the domain rules, call api/services/accounts.ts and shape the response.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { accountDto } from '../responses';

import { PUBLIC, SIGNED_IN, withKeys } from './access';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { currentUser, refuseApiKeyCaller, tokenExpiresAt } from '../auth';
import { FieldErrorCollector, notFound } from '../errors';
import { createAccountService, LANG_KEYS } from '../services/accounts';
import {
  createSsoService,
  safeReturnPath,
  SIGN_IN_MAX_AGE_SECONDS,
  STATE_COOKIE,
} from '../services/oidc-sign-in';
import {
  emailRule,
  loginRule,
  passwordRule,
  requiredRule,
  type Rule,
  type Violation,
} from '../../domain/validation';

// Shapes only: every field may be missing so that the domain rules report it with the spec's key.
const text = z.string().nullish();
export const schemas = {
  authenticate: z.object({ username: text, password: text, rememberMe: z.boolean().nullish() }),
  // currentPassword: needed only when the e-mail changes (domain/validation.ts currentPasswordForEmailRule)
  account: z.object({ firstName: text, lastName: text, email: text, langKey: text, currentPassword: text }),
  changePassword: z.object({ currentPassword: text, newPassword: text }),
  register: z.object({ login: text, email: text, password: text, langKey: text }),
  resetFinish: z.object({ key: text, newPassword: text }),
  oidcBegin: z.object({ returnTo: text }),
  oidcCallback: z.object({ query: z.string().max(8000) }),
};

const oidcBeginResponse = z.object({ authorizationUrl: z.string() });
const oidcCallbackResponse = z.object({
  id_token: z.string(),
  /** the identity provider's ID token: the logout's id_token_hint */
  idpIdToken: z.string(),
  returnTo: z.string().nullable(),
});
/** The state cookie reaches only the single sign-on calls. */
const OIDC_COOKIE_PATH = '/api/oidc';

const NAME_MAX = 50;
const required = requiredRule();
const langKeyRule: Rule = (v) =>
  (LANG_KEYS as readonly string[]).includes(v) ? null : { code: 'Pattern', key: 'entity.validation.pattern' };
const nameRule: Rule = (v) =>
  (v ?? '').length > NAME_MAX
    ? { code: 'Size', key: 'entity.validation.maxlength', params: { max: NAME_MAX } }
    : null;
/** The first violation of a list of rules, like a form field shows it. */
const first = (v: string, ...rules: Rule[]): Violation | null =>
  rules.reduce<Violation | null>((found, rule) => found ?? rule(v), null);

/** 2xx with an empty body (Koa would otherwise answer 204 or the status text). */
function empty(ctx: Context, status = 200): void {
  ctx.body = null;
  ctx.status = status;
}

export function accountRoutes(deps: AppDeps): Route[] {
  const accounts = createAccountService(deps);
  const sso = createSsoService({
    knex: deps.knex,
    config: deps.config,
    sessionToken: (id) => accounts.sessionToken(id),
  });

  return [
    // Single sign-on (api/services/oidc-sign-in.ts): begin gives the provider's authorization URL and binds
    // the sign-in to this browser by a cookie; the callback page posts the provider's answer back here.
    route(
      {
        method: 'POST',
        path: '/api/oidc/authorize',
        access: PUBLIC,
        body: { schema: schemas.oidcBegin, object: 'oidcSignIn' },
        response: oidcBeginResponse,
      },
      async (ctx, { body }) => {
        if (!sso.enabled) throw notFound();
        const { authorizationUrl, state } = await sso.begin(safeReturnPath(body().returnTo));
        ctx.cookies.set(STATE_COOKIE, state, {
          httpOnly: true,
          sameSite: 'lax',
          secure: ctx.protocol === 'https',
          path: OIDC_COOKIE_PATH,
          maxAge: SIGN_IN_MAX_AGE_SECONDS * 1000,
          overwrite: true,
        });
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { authorizationUrl };
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/oidc/callback',
        access: PUBLIC,
        body: { schema: schemas.oidcCallback, object: 'oidcCallback' },
        response: oidcCallbackResponse,
      },
      async (ctx, { body }) => {
        if (!sso.enabled) throw notFound();
        const cookie = ctx.cookies.get(STATE_COOKIE);
        // One use: the cookie goes whatever the outcome.
        ctx.cookies.set(STATE_COOKIE, null, { path: OIDC_COOKIE_PATH, overwrite: true });
        const { token, idpIdToken, returnTo } = await sso.finish(body().query, cookie, ctx.ip);
        ctx.set('Authorization', `Bearer ${token}`);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { id_token: token, idpIdToken, returnTo };
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/authenticate',
        access: PUBLIC,
        body: { schema: schemas.authenticate, object: 'loginVM' },
        response: z.object({ id_token: z.string() }),
      },
      async (ctx, { body }) => {
        const { username, password, rememberMe } = body();
        new FieldErrorCollector('loginVM')
          .check('username', required(username ?? ''))
          .check('password', required(password ?? ''))
          .throwIfAny();
        // ctx.ip is the socket's address, or X-Forwarded-For's behind TRUST_PROXY proxies (api/app.ts).
        const token = await accounts.authenticate(username!, password!, rememberMe ?? false, ctx.ip);
        ctx.set('Authorization', `Bearer ${token}`);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { id_token: token };
      },
    ),

    route(
      { method: 'GET', path: '/api/account', access: withKeys(SIGNED_IN), response: accountDto },
      async (ctx) => {
        ctx.body = await accounts.account(currentUser(ctx));
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/account',
        access: SIGNED_IN,
        body: { schema: schemas.account, object: 'adminUserDTO' },
        response: NO_CONTENT,
        status: 200,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        refuseApiKeyCaller(ctx); // the e-mail is where password resets go (domain/api-keys.ts)
        const input = body();
        new FieldErrorCollector('adminUserDTO')
          .check('firstName', nameRule(input.firstName ?? ''))
          .check('lastName', nameRule(input.lastName ?? ''))
          .check('email', emailRule(input.email ?? ''))
          .check('langKey', first(input.langKey ?? '', required, langKeyRule))
          .throwIfAny();
        await accounts.updateAccount(user, {
          firstName: input.firstName?.trim() || null,
          lastName: input.lastName?.trim() || null,
          email: input.email!,
          langKey: input.langKey!,
          currentPassword: input.currentPassword,
        });
        empty(ctx);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/account/change-password',
        access: SIGNED_IN,
        body: { schema: schemas.changePassword, object: 'passwordChangeDTO' },
        response: NO_CONTENT,
        status: 200,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        refuseApiKeyCaller(ctx); // a leaked key must not lock its owner out (domain/api-keys.ts)
        const { currentPassword, newPassword } = body();
        new FieldErrorCollector('passwordChangeDTO')
          .check('currentPassword', required(currentPassword ?? ''))
          .check('newPassword', passwordRule(newPassword ?? ''))
          .throwIfAny();
        // Every other session ends; this one goes on with the token in the Authorization header.
        const token = await accounts.changePassword(
          user,
          currentPassword!,
          newPassword!,
          tokenExpiresAt(ctx),
        );
        ctx.set('Authorization', `Bearer ${token}`);
        ctx.set('Cache-Control', 'no-store');
        empty(ctx);
      },
    ),

    /** Server-side sign-out: the tokens of the user stop working (POST, so no page can trigger it by a link). */

    // ends every session of the caller
    route({ method: 'POST', path: '/api/logout', access: SIGNED_IN, response: NO_CONTENT }, async (ctx) => {
      const user = currentUser(ctx);
      refuseApiKeyCaller(ctx); // a key must not sign its owner out everywhere (domain/api-keys.ts)
      await accounts.logout(user);
      empty(ctx, 204);
    }),

    route(
      {
        method: 'POST',
        path: '/api/register',
        access: PUBLIC,
        body: { schema: schemas.register, object: 'managedUserVM' },
        response: NO_CONTENT,
        status: 201,
      },
      async (ctx, { body }) => {
        const input = body();
        const langKey = input.langKey ?? 'en';
        new FieldErrorCollector('managedUserVM')
          .check('login', loginRule(input.login ?? ''))
          .check('email', emailRule(input.email ?? ''))
          .check('password', passwordRule(input.password ?? ''))
          .check('langKey', langKeyRule(langKey))
          .throwIfAny();
        await accounts.register({
          login: input.login!,
          email: input.email!,
          password: input.password!,
          langKey,
        });
        empty(ctx, 201);
      },
    ),

    route(
      { method: 'GET', path: '/api/verify', access: PUBLIC, response: NO_CONTENT, status: 200 },
      async (ctx) => {
        const key = ctx.query.key;
        await accounts.activate(typeof key === 'string' ? key : '');
        empty(ctx);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/account/reset-password/init',
        access: PUBLIC,
        response: NO_CONTENT,
        status: 200,
      },
      async (ctx) => {
        const raw = (ctx.request as unknown as { body: unknown }).body;
        const email = typeof raw === 'string' ? raw.trim() : '';
        new FieldErrorCollector('email').check('email', emailRule(email)).throwIfAny();
        await accounts.requestPasswordReset(email);
        empty(ctx);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/account/reset-password/finish',
        access: PUBLIC,
        body: { schema: schemas.resetFinish, object: 'keyAndPasswordVM' },
        response: NO_CONTENT,
        status: 200,
      },
      async (ctx, { body }) => {
        const { key, newPassword } = body();
        new FieldErrorCollector('keyAndPasswordVM')
          .check('newPassword', passwordRule(newPassword ?? ''))
          .throwIfAny();
        await accounts.finishPasswordReset(key ?? '', newPassword!);
        empty(ctx);
      },
    ),
  ];
}
