/** Bulk writes shared by the query modules. */
import type { Knex } from 'knex';

const CHUNK = 1000;

/** `count` ids taken from the table's id sequence up front (so rows can refer to each other in one insert). */
export async function nextIds(knex: Knex, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await knex.raw<{ rows: { id: string }[] }>(
    `select nextval(pg_get_serial_sequence(?, 'id')) as id from generate_series(1, ?::int)`,
    [table, count],
  );
  return rows.map((r) => Number(r.id));
}

/** Inserts rows a thousand at a time (PostgreSQL takes at most 65535 parameters a statement). */
export async function insertChunked(knex: Knex, table: string, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await knex(table).insert(rows.slice(i, i + CHUNK));
}
