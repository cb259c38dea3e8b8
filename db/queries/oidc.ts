/**
 * Single sign-on (api/services/oidc-sign-in.ts): sign-ins begun at the provider and not yet finished, the
 * provider subject each account belongs to, and the roles a provider's claims manage.
 */
import type { Knex } from 'knex';

export interface PendingSignIn {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string | null;
}

export async function insertPendingSignIn(knex: Knex, p: PendingSignIn): Promise<void> {
  await knex('oidc_sign_ins').insert({
    state: p.state,
    nonce: p.nonce,
    code_verifier: p.codeVerifier,
    return_to: p.returnTo,
  });
}

/**
 * Takes the sign-in of `state` (deleted in the same statement: a second callback with the same state finds
 * nothing, whichever replica it reaches); undefined when unknown, already taken or older than `maxAgeSeconds`.
 */
export async function takePendingSignIn(
  knex: Knex,
  state: string,
  maxAgeSeconds: number,
): Promise<PendingSignIn | undefined> {
  const [row] = await knex('oidc_sign_ins')
    .where({ state })
    .del()
    .returning(['state', 'nonce', 'code_verifier', 'return_to', 'created_at']);
  if (!row || Date.now() - new Date(row.created_at).getTime() > maxAgeSeconds * 1000) return undefined;
  return { state: row.state, nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to };
}

/** How many sign-ins are waiting for their callback. */
export async function pendingSignInCount(knex: Knex): Promise<number> {
  const [row] = await knex('oidc_sign_ins').count('* as n');
  return Number(row.n);
}

/** Deletes the sign-ins begun more than `maxAgeSeconds` ago (never finished). */
export async function purgePendingSignIns(knex: Knex, maxAgeSeconds: number): Promise<number> {
  return knex('oidc_sign_ins')
    .where('created_at', '<', knex.raw(`now() - make_interval(secs => ?)`, [maxAgeSeconds]))
    .del();
}

/** The account the provider's subject belongs to. */
export async function userIdByIdentity(
  knex: Knex,
  issuer: string,
  subject: string,
): Promise<number | undefined> {
  const row = await knex('user_identities').where({ issuer, subject }).first('user_id');
  return row ? Number(row.user_id) : undefined;
}

export async function insertIdentity(
  knex: Knex,
  userId: number,
  issuer: string,
  subject: string,
): Promise<void> {
  await knex('user_identities').insert({ user_id: userId, issuer, subject });
}

/** Role names of a user. */
export async function userRoleNames(knex: Knex, userId: number): Promise<string[]> {
  return knex('user_roles as ur')
    .join('roles as r', 'r.id', 'ur.role_id')
    .where('ur.user_id', userId)
    .orderBy('r.name')
    .pluck('r.name');
}

/**
 * Sets which of the `managed` roles the user holds to exactly `granted` (names that exist; unknown names are
 * skipped); roles outside `managed` stay as an administrator left them.
 */
export async function setManagedRoles(
  trx: Knex,
  userId: number,
  managed: readonly string[],
  granted: readonly string[],
): Promise<void> {
  const ids = async (names: readonly string[]) =>
    names.length
      ? (
          await trx('roles')
            .whereIn('name', [...names])
            .pluck('id')
        ).map(Number)
      : [];
  const remove = await ids(managed.filter((n) => !granted.includes(n)));
  if (remove.length) await trx('user_roles').where('user_id', userId).whereIn('role_id', remove).del();
  const add = await ids(granted);
  if (add.length)
    await trx('user_roles')
      .insert(add.map((role_id) => ({ user_id: userId, role_id })))
      .onConflict(['user_id', 'role_id'])
      .ignore();
}
