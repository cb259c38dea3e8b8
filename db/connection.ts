/** Knex + Objection wiring over node-postgres. */
import knexFactory, { Knex } from 'knex';
import { Model } from 'objection';
import pg from 'pg';

// bigint ids come back as numbers (ids stay far below 2^53).
pg.types.setTypeParser(20, (v: string) => Number(v));

export function createKnex(
  databaseUrl: string,
  pool: { min: number; max: number } = { min: 0, max: 10 },
): Knex {
  const knex = knexFactory({ client: 'pg', connection: databaseUrl, pool });
  Model.knex(knex);
  return knex;
}
