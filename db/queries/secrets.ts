/**
 * Process secrets (table `secrets`). The value is write-only: sealed on insert (db/crypto.ts); only
 * `sealedSecret` returns it, still sealed, for the activities that open it (db/crypto.ts openValue).
 */
import type { Knex } from 'knex';
import type { SecretDTO } from '../../domain/integration-types';
import { sealValue } from '../crypto';

interface SecretRow {
  id: number;
  process_id: number;
  name: string;
  active: boolean;
}

const COLUMNS = ['id', 'process_id', 'name', 'active'];
const toDTO = (r: SecretRow): SecretDTO => ({
  id: r.id,
  name: r.name,
  active: r.active,
  processId: r.process_id,
});

export async function listSecrets(knex: Knex, processId: number): Promise<SecretDTO[]> {
  return (await knex('secrets').where({ process_id: processId }).orderBy('id').select(COLUMNS)).map(toDTO);
}

export async function findSecret(knex: Knex, id: number): Promise<SecretDTO | undefined> {
  const row = await knex('secrets').where({ id }).first(COLUMNS);
  return row ? toDTO(row) : undefined;
}

/** Names of the process's secrets that collide with `name` (case and surrounding spaces ignored). */
export async function collidingSecretNames(knex: Knex, processId: number, name: string): Promise<string[]> {
  return (await knex('secrets')
    .where({ process_id: processId })
    .whereRaw('lower(btrim(name)) = lower(btrim(?))', [name])
    .pluck('name')) as string[];
}

/** Inserts a secret (its value sealed); a name the process has already fails with the unique violation. */
export async function insertSecret(
  knex: Knex,
  input: { processId: number; name: string; value: string; active: boolean },
): Promise<SecretDTO> {
  const [row] = await knex('secrets')
    .insert({
      process_id: input.processId,
      name: input.name.trim(),
      value: sealValue('secrets', 'value', input.value),
      active: input.active,
    })
    .returning(COLUMNS);
  return toDTO(row);
}

export async function setSecretActive(
  knex: Knex,
  id: number,
  active: boolean,
): Promise<SecretDTO | undefined> {
  const [row] = await knex('secrets').where({ id }).update({ active }).returning(COLUMNS);
  return row ? toDTO(row) : undefined;
}

export async function deleteSecret(knex: Knex, id: number): Promise<boolean> {
  return (await knex('secrets').where({ id }).delete()) > 0;
}

/** The ids among `ids` of the process's secrets. */
export async function processSecretIds(
  knex: Knex,
  processId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (!ids.length) return [];
  return knex('secrets')
    .where('process_id', processId)
    .whereIn('id', [...ids])
    .pluck('id');
}

/** The process's secret with its sealed value (the caller opens it), for the activities that use it. */
export async function sealedSecret(
  knex: Knex,
  id: number,
  processId: number,
): Promise<{ name: string; value: string; active: boolean } | undefined> {
  return knex('secrets').where({ id, process_id: processId }).first('name', 'value', 'active');
}
