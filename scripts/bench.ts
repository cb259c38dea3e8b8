/**
 * `npm run bench`: measured, never asserted. Starts a PostgreSQL of its own (embedded), seeds N processes and
 * times the hot read paths of this slice in-process: the process list query and access resolution.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createKnex } from '../db/connection';
import { processMode } from '../domain/access';
import { createDatabaseIfMissing, dropDatabase, startEmbeddedPostgres } from './lib/postgres';
import { migrateAndSeed, ROOT } from './lib/prepare';

async function time(label: string, runs: number, fn: () => Promise<unknown> | unknown) {
  await fn();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const ms = (performance.now() - t0) / runs;
  console.log(`${label.padEnd(48)} ${ms.toFixed(3)} ms/op  (${runs} runs)`);
}

async function main() {
  const pg = await startEmbeddedPostgres(path.join(ROOT, '.data', 'bench-pg'), { persistent: false });
  const db = 'workbench_bench';
  await createDatabaseIfMissing(pg.serverUrl, db);
  const knex = createKnex(pg.urlFor(db));
  try {
    await migrateAndSeed(pg.urlFor(db));
    const n = 2000;
    const tag = await knex('process_tags').where({ predefined: true }).first();
    const rows = Array.from({ length: n }, (_, i) => ({ name: `Bench process ${i}` }));
    const inserted: { id: number }[] = await knex('processes').insert(rows).returning('id');
    await knex('process_process_tags').insert(inserted.map((p) => ({ process_id: p.id, process_tag_id: tag.id })));
    console.log(`seeded ${n} processes`);
    await time('list processes with tags (admin, all rows)', 20, () =>
      knex('processes')
        .leftJoin('process_process_tags', 'processes.id', 'process_process_tags.process_id')
        .select('processes.id', 'processes.name', 'process_process_tags.process_tag_id')
        .orderBy('processes.id'),
    );
    await time('name search, case-insensitive substring', 50, () =>
      knex('processes').whereRaw('name ilike ?', ['%process 19%']).select('id', 'name'),
    );
    const principal = {
      roles: ['ROLE_USER'],
      authorities: Array.from({ length: 500 }, (_, i) => ({ componentId: i, type: 'PROCESS' as const, mode: 'READ' as const })),
    };
    await time('processMode over 500 authorities (x1000)', 20, () => {
      for (let i = 0; i < 1000; i++) processMode(principal, i);
    });
  } finally {
    await knex.destroy();
    await dropDatabase(pg.serverUrl, db).catch(() => {});
    await pg.stop();
  }
}

void main();
