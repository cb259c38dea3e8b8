/**
 * Accounts: sign-in (throttled by api/services/login-throttle.ts), revocable sessions, the own account, password change, self-registration with
 * e-mail activation, and password reset by e-mail. Logins and e-mails are stored and compared lower-case.
 * Callers validate the fields (domain/validation.ts); this module enforces the rules that need the database.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { Knex } from 'knex';
import { BCRYPT_COST } from '../../db/seed';
import type { AccountDTO } from '../../domain/api-types';
import { CURRENT_PASSWORD_INVALID, currentPasswordForEmailRule, emailChanges } from '../../domain/validation';
import { loadAuthUser, signToken, type AuthUser } from '../auth';
import type { AppConfig } from '../../server/config';
import { appError, FieldErrorCollector, unauthorized } from '../errors';
import { AuditTypes, recordAudit } from './audits';
import { grantUserRole } from '../../db/queries/roles';
import {
  activateByKey,
  bumpTokenVersions,
  deleteUsers,
  insertUser,
  resetPasswordByKey,
  setPassword,
  setResetKey,
  updateUserRow,
  userByEmail,
  userById,
  userByLogin,
  type UserRow,
} from '../../db/queries/users';
import { createLoginThrottle } from './login-throttle';
import { accountMail } from './mail-templates';
import type { Mailer } from './mail';

export const LANG_KEYS = ['en', 'pl'] as const;
export const RESET_KEY_VALIDITY_HOURS = 24;
export const ENTITY = 'userManagement';
const KEY_LENGTH = 20;
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** created_by of self-registered accounts (JHipster's name for "nobody signed in"). */
const ANONYMOUS = 'anonymousUser';

export interface AccountDeps {
  knex: Knex;
  config: AppConfig;
  mailer: Mailer;
}

export interface AccountUpdate {
  firstName: string | null;
  lastName: string | null;
  email: string;
  langKey: string;
  /** Needed only to change the e-mail: the address password resets go to. */
  currentPassword?: string | null;
}

export interface Registration {
  login: string;
  email: string;
  password: string;
  langKey: string;
}

/** A random key for activation and reset links: 20 characters of [A-Za-z0-9], unbiased. */
export function randomKey(length = KEY_LENGTH): string {
  let key = '';
  for (let i = 0; i < length; i++) key += KEY_ALPHABET[crypto.randomInt(KEY_ALPHABET.length)];
  return key;
}

export const hashPassword = (password: string) => bcrypt.hash(password, BCRYPT_COST);

// Compared against when the login is unknown, so that the answer takes as long as for a known one.
let dummyHash: Promise<string> | null = null;
const timingDummy = () => (dummyHash ??= bcrypt.hash(crypto.randomBytes(16).toString('hex'), BCRYPT_COST));

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function uniqueViolation(err: unknown): string | null {
  const e = err as {
    code?: string;
    constraint?: string;
    nativeError?: { code?: string; constraint?: string };
  };
  const native = e.nativeError ?? e;
  return native.code === '23505' ? (native.constraint ?? '') : null;
}

/** Maps a race lost on the users' unique indexes to the same app errors as the checks before it. */
export function rethrowTaken(err: unknown): never {
  const constraint = uniqueViolation(err);
  if (constraint?.includes('login')) throw appError('error.userexists', ENTITY);
  if (constraint?.includes('email')) throw appError('error.emailexists', ENTITY);
  throw err;
}

/**
 * Ends every session of a user: tokens carry users.token_version (claim `ver`) and api/auth.ts refuses one
 * whose version is not the current one. Called on password change and reset, logout, and by administrators
 * (deactivation, role changes, on request). Returns whether the user exists.
 */
export async function revokeSessions(knex: Knex, userId: number): Promise<boolean> {
  return (await bumpTokenVersions(knex, [userId])).length > 0;
}

export function createAccountService({ knex, config, mailer }: AccountDeps) {
  const throttle = createLoginThrottle(knex, config.loginThrottle);
  const audit = { knex, config };
  const link = (path: string) => `${config.baseUrl.replace(/\/+$/, '')}${path}`;
  const findByEmail = (db: Knex, email: string) => userByEmail(db, email.toLowerCase());
  /**
   * A signed JWT of the user's current token version, valid for `validity` seconds or until `{ until }`
   * (seconds since the epoch; the seconds left are taken right before signing, in the same tick, so a
   * re-issued token keeps the old one's expiry exactly however long the work before took).
   */
  const issueToken = async (userId: number, validity: number | { until: number }): Promise<string> => {
    const user = (await loadAuthUser(knex, { id: userId }))!;
    const seconds =
      typeof validity === 'number' ? validity : Math.max(1, validity.until - Math.floor(Date.now() / 1000));
    return signToken(
      config.jwtSecret,
      { id: user.id, login: user.login, roles: [...user.roles], tokenVersion: user.tokenVersion },
      seconds,
    );
  };

  /** The sign-in's checks once the throttle let the attempt through (authenticate() adds the audit). */
  async function checkCredentials(
    username: string,
    password: string,
    rememberMe: boolean,
    address: string,
  ): Promise<string> {
    const row = await userByLogin(knex, username.toLowerCase());
    if (!(await bcrypt.compare(password, row?.password_hash ?? (await timingDummy())))) {
      await throttle.failure(username, address);
      throw unauthorized();
    }
    if (!row) {
      // The dummy hash matched: cannot happen short of a random 32-character password being guessed.
      await throttle.failure(username, address);
      throw unauthorized();
    }
    await throttle.success(username, address);
    if (!row.activated) throw unauthorized(`User ${row.login} was not activated`);
    return issueToken(row.id, rememberMe ? config.jwtValidityRememberMe : config.jwtValidity);
  }

  return {
    /**
     * The session token of a sign-in that did not go through a password (single sign-on,
     * api/services/oidc-sign-in.ts): the same token, validity and revocation as authenticate() gives.
     */
    sessionToken: (userId: number, rememberMe = false): Promise<string> =>
      issueToken(userId, rememberMe ? config.jwtValidityRememberMe : config.jwtValidity),

    /**
     * Checks the credentials and returns a signed JWT. `address` is the client's (ctx.ip): sign-in
     * throttling counts failures per name and address, per address and per name (api/services/login-throttle.ts).
     */
    async authenticate(
      username: string,
      password: string,
      rememberMe: boolean,
      address: string,
    ): Promise<string> {
      const principal = username.toLowerCase();
      // Refused before any password is checked: counted by the throttle, not audited, so a locked-out
      // address cannot add an audit row per request (issue 25 finding 9).
      await throttle.check(username, address);
      try {
        const token = await checkCredentials(username, password, rememberMe, address);
        await recordAudit(audit, {
          principal,
          type: AuditTypes.AUTHENTICATION_SUCCESS,
          data: { remoteAddress: address },
        });
        return token;
      } catch (err) {
        const e = err as { status?: number; body?: { detail?: unknown } };
        if (e.status === 401 || e.status === 429)
          await recordAudit(audit, {
            principal,
            type: AuditTypes.AUTHENTICATION_FAILURE,
            data: { remoteAddress: address, message: String(e.body?.detail ?? 'Bad credentials') },
          });
        throw err;
      }
    },

    /** Server-side sign-out: every token of the user stops working (all devices: tokens carry one version). */
    async logout(user: AuthUser): Promise<void> {
      await revokeSessions(knex, user.id);
    },

    /** The account of the signed-in user; roles and authorities come from the request's principal. */
    async account(auth: AuthUser): Promise<AccountDTO> {
      const row = await userById(knex, auth.id);
      if (!row) throw unauthorized();
      return {
        id: row.id,
        login: row.login,
        firstName: row.first_name,
        lastName: row.last_name,
        email: row.email,
        activated: row.activated,
        langKey: row.lang_key,
        roles: [...auth.roles],
        authorities: auth.authorities.map((a) => ({
          id: a.id!,
          componentId: a.componentId,
          type: a.type,
          mode: a.mode,
        })),
        createdBy: row.created_by,
        createdDate: iso(row.created_date),
        lastModifiedBy: row.last_modified_by,
        lastModifiedDate: iso(row.last_modified_date),
      };
    },

    /**
     * Updates the own account. A new e-mail address (where password resets go) needs the current password
     * (a field error on `currentPassword` otherwise) and is told to the old address: the change stands only
     * once that mail went out, so a stolen session cannot move the account away unnoticed.
     */
    async updateAccount(user: AuthUser, update: AccountUpdate): Promise<void> {
      const email = update.email.toLowerCase();
      const row = await userById(knex, user.id);
      if (!row) throw unauthorized();
      const emailChanged = emailChanges(row.email, email);
      const password = update.currentPassword;
      const missing = currentPasswordForEmailRule(row.email, email)(password);
      const wrong =
        emailChanged && !missing && !(await bcrypt.compare(password!, row.password_hash))
          ? CURRENT_PASSWORD_INVALID
          : null;
      new FieldErrorCollector('adminUserDTO').check('currentPassword', missing ?? wrong).throwIfAny();
      const owner = await findByEmail(knex, email);
      if (owner && owner.id !== user.id) throw appError('error.emailexists', ENTITY);
      await knex
        .transaction(async (trx) => {
          await updateUserRow(trx, user.id, {
            firstName: update.firstName,
            lastName: update.lastName,
            email,
            langKey: update.langKey,
            by: user.login,
          });
          if (emailChanged)
            await mailer.send(
              accountMail('emailChanged', update.langKey, row.email, {
                login: user.login,
                link: link('/lp/login'),
                appName: config.appName,
                email,
              }),
            );
        })
        .catch(rethrowTaken);
    },

    /**
     * Changes the password and ends every session of the user (tokens of the old version are refused);
     * returns a new token expiring when the caller's does (`expiresAt`, seconds since the epoch), so that the
     * session that changed it goes on.
     */
    async changePassword(
      user: AuthUser,
      currentPassword: string,
      newPassword: string,
      expiresAt: number,
    ): Promise<string> {
      const row = await userById(knex, user.id);
      if (!row || !(await bcrypt.compare(currentPassword, row.password_hash))) {
        throw appError('error.invalidpassword', ENTITY);
      }
      await setPassword(knex, user.id, await hashPassword(newPassword), user.login);
      await recordAudit(audit, { principal: user.login, type: AuditTypes.PASSWORD_CHANGED });
      return issueToken(user.id, { until: expiresAt });
    },

    /**
     * Creates a not-activated ROLE_USER account and mails its activation link. A pending registration
     * (never activated, still holding an activation key) with the same login or e-mail is replaced.
     */
    async register(input: Registration): Promise<void> {
      const login = input.login.toLowerCase();
      const email = input.email.toLowerCase();
      const activationKey = randomKey();
      const passwordHash = await hashPassword(input.password);
      const pending = (u: UserRow) => !u.activated && u.activation_key !== null;
      await knex
        .transaction(async (trx) => {
          const byLogin = await userByLogin(trx, login);
          if (byLogin && !pending(byLogin)) throw appError('error.userexists', ENTITY);
          const byEmail = await findByEmail(trx, email);
          if (byEmail && !pending(byEmail)) throw appError('error.emailexists', ENTITY);
          const stale = [byLogin?.id, byEmail?.id].filter((id): id is number => id !== undefined);
          await deleteUsers(trx, stale);
          const created = await insertUser(trx, {
            login,
            email,
            passwordHash,
            activated: false,
            langKey: input.langKey,
            activationKey,
            createdBy: ANONYMOUS,
          });
          await grantUserRole(trx, created);
        })
        .catch(rethrowTaken);
      await mailer.send(
        accountMail('activation', input.langKey, email, {
          login,
          link: link(`/lp/verify/${activationKey}`),
          appName: config.appName,
        }),
      );
    },

    async activate(key: string): Promise<void> {
      if (!key || !(await activateByKey(knex, key))) throw appError('error.activationKeyInvalid', ENTITY);
    },

    /** Mails a reset link to an activated account with this e-mail. */
    async requestPasswordReset(emailInput: string): Promise<void> {
      const user = await findByEmail(knex, emailInput);
      if (!user || !user.activated) throw appError('error.emailnotfound', ENTITY);
      const resetKey = randomKey();
      await setResetKey(knex, user.id, resetKey);
      await mailer.send(
        accountMail('passwordReset', user.lang_key, user.email, {
          login: user.login,
          link: link(`/lp/reset/finish/${resetKey}`),
          appName: config.appName,
        }),
      );
    },

    /**
     * Sets the new password when the key was issued less than 24 hours ago; the key works once. Ends every
     * session of the user and lifts the sign-in locks of the account (the mailbox proved who asks).
     */
    async finishPasswordReset(key: string, newPassword: string): Promise<void> {
      const passwordHash = await hashPassword(newPassword);
      const login = key ? await resetPasswordByKey(knex, key, RESET_KEY_VALIDITY_HOURS, passwordHash) : null;
      if (login === null) throw appError('error.resetKeyInvalid', ENTITY);
      await throttle.forget(login);
      await recordAudit(audit, { principal: login, type: AuditTypes.PASSWORD_RESET });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
