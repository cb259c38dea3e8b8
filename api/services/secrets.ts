/**
 * Process secrets (API keys for LLM models, SMTP passwords...). The value is write-only: sealed on save
 * (db/queries/secrets.ts), no read returns it; the activities that use a secret read and open it themselves.
 */
import type { Knex } from 'knex';
import type { SecretDTO } from '../../domain/integration-types';
import { insertSecret } from '../../db/queries/secrets';
import { fieldErrors } from '../errors';

export {
  collidingSecretNames,
  deleteSecret,
  findSecret,
  listSecrets,
  setSecretActive,
} from '../../db/queries/secrets';

export async function createSecret(
  knex: Knex,
  input: { processId: number; name: string; value: string; active: boolean },
): Promise<SecretDTO> {
  return insertSecret(knex, input).catch((err: unknown) => {
    // A concurrent create of the same name lost the race: the same answer as the rule gives.
    if ((err as { code?: string }).code !== '23505') throw err;
    throw fieldErrors('secret', [
      { field: 'name', violation: { code: 'NotUnique', key: 'soaApp.secret.nameNotUnique' } },
    ]);
  });
}
