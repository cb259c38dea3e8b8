/** API keys of the signed-in user (domain/api-keys.ts has the rules): create, list, delete, resolve. */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { springPage } from '../paging';
import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_PREFIX,
  API_KEY_TOKEN_PATTERN,
  type ApiKeyDTO,
  type ApiKeyPage,
} from '../../domain/api-keys';
import { apiKeyOwner, deleteUserApiKey, insertApiKey, userApiKeys } from '../../db/queries/api-keys';

const hashToken = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

export async function createApiKey(knex: Knex, userId: number, expirationDate: Date): Promise<ApiKeyDTO> {
  const token = API_KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
  const key = await insertApiKey(knex, {
    userId,
    tokenHash: hashToken(token),
    prefix: token.slice(0, API_KEY_SHOWN_PREFIX),
    expirationDate,
  });
  return { ...key, token };
}

export async function listApiKeys(
  knex: Knex,
  userId: number,
  page: number,
  size: number,
): Promise<ApiKeyPage> {
  const { content, total } = await userApiKeys(knex, userId, page, size);
  return springPage(content, total, page, size);
}

export const deleteApiKey = deleteUserApiKey;

/** The owner id of a valid token, or null (malformed, unknown, expired or deleted). */
export async function resolveApiKey(knex: Knex, token: string): Promise<number | null> {
  if (!API_KEY_TOKEN_PATTERN.test(token)) return null;
  return apiKeyOwner(knex, hashToken(token));
}
