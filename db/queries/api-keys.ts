/** The api_keys table (migration 022): a user's keys, by the hash of their token. */
import type { Knex } from 'knex';
import type { ApiKeyDTO } from '../../domain/api-keys';

const COLUMNS = [
  'id',
  'prefix',
  'expiration_date as expirationDate',
  'created_date as createdDate',
  'last_used_date as lastUsedDate',
];

interface Row {
  id: string | number;
  prefix: string;
  expirationDate: Date;
  createdDate: Date;
  lastUsedDate: Date | null;
}

const toDTO = (r: Row): ApiKeyDTO => ({
  id: Number(r.id),
  prefix: r.prefix,
  expirationDate: r.expirationDate.toISOString(),
  createdDate: r.createdDate.toISOString(),
  lastUsedDate: r.lastUsedDate ? r.lastUsedDate.toISOString() : null,
});

export async function insertApiKey(
  knex: Knex,
  key: { userId: number; tokenHash: string; prefix: string; expirationDate: Date },
): Promise<ApiKeyDTO> {
  const [row] = await knex('api_keys')
    .insert({
      user_id: key.userId,
      token_hash: key.tokenHash,
      prefix: key.prefix,
      expiration_date: key.expirationDate,
    })
    .returning(COLUMNS);
  return toDTO(row as Row);
}

/** One page of a user's keys, newest first, and how many there are. */
export async function userApiKeys(
  knex: Knex,
  userId: number,
  page: number,
  size: number,
): Promise<{ content: ApiKeyDTO[]; total: number }> {
  const [rows, [{ count }]] = await Promise.all([
    knex('api_keys')
      .where('user_id', userId)
      .orderBy('id', 'desc')
      .offset(page * size)
      .limit(size)
      .select(COLUMNS),
    knex('api_keys').where('user_id', userId).count<{ count: string }[]>('* as count'),
  ]);
  return { content: (rows as Row[]).map(toDTO), total: Number(count) };
}

/** Deletes a key of the user; false when the user has no such key. */
export async function deleteUserApiKey(knex: Knex, userId: number, id: number): Promise<boolean> {
  return (await knex('api_keys').where({ id, user_id: userId }).delete()) > 0;
}

/**
 * The owner of an unexpired key with this token hash, marking the key used (at most once a minute, so a
 * busy integration does not write on every call).
 */
export async function apiKeyOwner(knex: Knex, tokenHash: string): Promise<number | null> {
  const { rows } = await knex.raw<{ rows: { user_id: string }[] }>(
    `update api_keys set last_used_date = case
        when last_used_date is null or last_used_date < now() - interval '1 minute' then now()
        else last_used_date end
      where token_hash = ? and expiration_date > now()
      returning user_id`,
    [tokenHash],
  );
  return rows[0] ? Number(rows[0].user_id) : null;
}
