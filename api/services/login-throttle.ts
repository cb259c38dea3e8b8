/**
 * Sign-in throttling that an attacker cannot turn into a lockout of a named user (issue 9, finding 6).
 * State lives in PostgreSQL (`login_attempts`, migration 010) so that it holds across API replicas.
 *
 * Three counters of failed sign-ins (an account name is counted whether or not such an account exists, so the
 * answers tell nothing about which names exist):
 * - per account name and client address: `maxFailures` failures lock that pair for `lockSeconds` (429). Only
 *   the address that guessed is locked out; the real user signs in from any other address.
 * - per client address across all names: `addressMaxFailures` failures in `addressWindowSeconds` refuse every
 *   sign-in from that address (429) until the window ends. This stops one address trying many accounts.
 * - per account name across all addresses: beyond `accountMaxFailures` failures in `accountWindowSeconds` (a
 *   distributed guess at one account) a pair locks after its first failure, except from an address that
 *   signed in to this account successfully in the last `knownAddressDays` days. This never refuses a right
 *   password at the first try from any address: it only slows the guessers (one guess per address per lock)
 *   and asks nothing of the real user.
 * A successful sign-in resets its pair only (never the address or account counters, which an attacker with
 * an account of their own could otherwise reset between guesses). The client address is ctx.ip: behind a
 * reverse proxy set TRUST_PROXY, or every client has the proxy's address. IPv6 clients count by /64.
 */
import net from 'node:net';
import type { Knex } from 'knex';
import { LIMITS } from '../../domain/validation';
import type { LoginThrottleConfig } from '../../server/config';
import { HttpError } from '../errors';
import {
  countFailure,
  countPairFailure,
  forgetLogin,
  pairLockLeft,
  purgeExpiredAttempts,
  recordPairSuccess,
  refuseAddress,
  refuseLockedPair,
} from '../../db/queries/login-attempts';

const ADDRESS_MAX_LENGTH = 64;

/**
 * The throttling key of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 prefix, the
 * smallest block one subscriber usually holds (else each of 2^64 addresses would get its own allowance).
 */
export function addressKey(ip: string): string {
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1];
  if (!net.isIPv6(ip)) return (ip || 'unknown').slice(0, ADDRESS_MAX_LENGTH);
  const [head, tail = ''] = ip.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  // An embedded dotted IPv4 tail is in the last 32 bits: beyond the prefix, so it can be dropped.
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const tooMany = (seconds: number, fromAddress: boolean) => {
  const s = Math.max(1, Math.ceil(seconds));
  const from = fromAddress ? ' from this address' : '';
  return new HttpError(
    429,
    {
      message: 'error.http.429',
      detail: `Too many failed sign-in attempts${from}. Try again in ${s} seconds.`,
    },
    { 'Retry-After': String(s) },
  );
};

export function createLoginThrottle(knex: Knex, config: LoginThrottleConfig) {
  const c = config;

  /** The keys of an attempt; a name no account can have gets the address counter only. */
  const keys = (username: string, ip: string) => {
    const login = username.toLowerCase();
    return {
      login: login.length > 0 && login.length <= LIMITS.login.max ? login : null,
      address: addressKey(ip),
    };
  };

  /**
   * The address counter; throws 429 while the address is over its limit, counting the refusal on the row
   * (a refused attempt is counted, not audited: finding 9 of issue 25).
   */
  async function assertAddressAllowed(address: string): Promise<void> {
    const left = await refuseAddress(knex, address, c.addressMaxFailures, c.addressWindowSeconds);
    if (left !== null) throw tooMany(left, true);
  }

  return {
    /**
     * Before the password is checked: 429 when this address, or this name from this address, may not try; the
     * refusal is counted in the refusing row's `refused` (migration 029).
     */
    async check(username: string, ip: string): Promise<void> {
      const { login, address } = keys(username, ip);
      await assertAddressAllowed(address);
      if (login) {
        const left = await refuseLockedPair(knex, login, address);
        if (left !== null) throw tooMany(left, false);
      }
    },

    /** A wrong password (or an unknown name). Throws 429 when a lock was set by a racing attempt. */
    async failure(username: string, ip: string): Promise<void> {
      await purgeExpiredAttempts(knex);
      const { login, address } = keys(username, ip);
      const fromAddress = await countFailure(knex, '', address, c.addressWindowSeconds, c.addressMaxFailures);
      if (fromAddress === null) await assertAddressAllowed(address);
      if (!login) return;
      const onAccount = await countFailure(knex, login, '', c.accountWindowSeconds, 2 ** 31 - 1);
      const underAttack = (onAccount ?? 0) > c.accountMaxFailures;
      const counted = await countPairFailure(knex, {
        login,
        address,
        windowSeconds: c.addressWindowSeconds,
        lockSeconds: c.lockSeconds,
        maxFailures: c.maxFailures,
        knownAddressDays: c.knownAddressDays,
        longestSeconds: Math.max(c.addressWindowSeconds, c.lockSeconds),
        underAttack,
        firstLocks: underAttack || c.maxFailures <= 1,
      });
      if (!counted) throw tooMany(await pairLockLeft(knex, login, address), false);
    },

    /**
     * The right password: resets this pair and marks the address as known for the account, unless the
     * address or the pair got locked while the password was being checked.
     */
    async success(username: string, ip: string): Promise<void> {
      const { login, address } = keys(username, ip);
      await assertAddressAllowed(address);
      if (!login) return;
      if (!(await recordPairSuccess(knex, login, address, c.knownAddressDays)))
        throw tooMany(await pairLockLeft(knex, login, address), false);
    },

    /** After a password reset by e-mail: the account's locks and counters are lifted everywhere. */
    async forget(username: string): Promise<void> {
      const { login } = keys(username, '');
      if (login) await forgetLogin(knex, login);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
