/**
 * `npx tsx scripts/scale-out.ts [--apis N] [--workers N] [--documents N]`: the scale-out of docs/operations.md on one
 * machine. Starts N API processes and N workers (default 2 and 2) against one PostgreSQL and one Temporal
 * server (DATABASE_URL and TEMPORAL_ADDRESS when set, else an embedded PostgreSQL and an in-memory dev server
 * of its own, removed afterwards), with one shared FILES_DIR and DATA_DIR, uploads documents through every
 * API with one token and prints who parsed what (scripts/lib/scale-out.ts). Exits 1 unless every document
 * was parsed. tests/integration/scale-out.test.ts runs the same check in `npm test`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createKnex } from '../db/connection';
import { createDatabaseIfMissing, dropDatabase, startEmbeddedPostgres } from './lib/postgres';
import { migrateAndSeed, ROOT } from './lib/prepare';
import { checkScaleOut, memberOfIdentity, startScaleOut } from './lib/scale-out';
import { ensureTemporalCli, startTemporalDevServer } from './lib/temporal';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
  return n;
}

async function main(): Promise<number> {
  const apis = option('apis', 2);
  const workers = option('workers', 2);
  const documents = option('documents', 4 * apis);
  const stops: (() => Promise<void>)[] = [];
  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      const dataDir = path.join(ROOT, '.data', `scale-out-pg-${process.pid}`);
      const pg = await startEmbeddedPostgres(dataDir, { persistent: false });
      stops.push(async () => {
        await pg.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
        fs.rmSync(`${dataDir}.port`, { force: true });
      });
      await createDatabaseIfMissing(pg.serverUrl, 'workbench_scale_out');
      stops.push(() => dropDatabase(pg.serverUrl, 'workbench_scale_out'));
      databaseUrl = pg.urlFor('workbench_scale_out');
    }
    let temporalAddress = process.env.TEMPORAL_ADDRESS;
    if (!temporalAddress) {
      const temporal = await startTemporalDevServer(ensureTemporalCli(), { uiPort: null });
      stops.push(() => temporal.stop());
      temporalAddress = temporal.address;
    }
    await migrateAndSeed(databaseUrl);
    console.log(`[scale-out] starting ${apis} API processes and ${workers} workers...`);
    const cluster = await startScaleOut({ databaseUrl, temporalAddress, apis, workers });
    stops.push(() => cluster.stop());
    for (const a of cluster.apis) console.log(`[scale-out] ${a.name}: ${a.url} (pid ${a.pid})`);
    for (const w of cluster.workers) console.log(`[scale-out] ${w.name}: pid ${w.pid}`);
    console.log(`[scale-out] shared FILES_DIR ${cluster.filesDir}, DATA_DIR ${cluster.dataDir}`);

    const knex = createKnex(databaseUrl, { min: 0, max: 2 });
    stops.push(() => knex.destroy());
    const report = await checkScaleOut(cluster, knex, { documents });
    console.log(
      `[scale-out] token of ${cluster.apis[0].name} at each API: ${JSON.stringify(report.tokenAcceptedBy)}`,
    );
    for (const d of report.documents) {
      const by = d.parsedBy ? (memberOfIdentity(cluster, d.parsedBy)?.name ?? d.parsedBy) : '-';
      console.log(
        `[scale-out] document ${d.id} via ${d.uploadedThrough}: parser ${d.parserStatus}, content ${d.contentMatches ? 'ok' : 'WRONG'}, parsed by ${by}`,
      );
    }
    const byMember: Record<string, number> = {};
    for (const [identity, n] of Object.entries(report.parsesByWorker))
      byMember[memberOfIdentity(cluster, identity)?.name ?? identity] = n;
    console.log(`[scale-out] parses per worker: ${JSON.stringify(byMember)}`);
    const ok =
      Object.values(report.tokenAcceptedBy).every((s) => s === 200) &&
      report.documents.every((d) => d.parserStatus === 'DONE' && d.contentMatches);
    console.log(`[scale-out] ${ok ? 'OK' : 'FAILED'}`);
    return ok ? 0 : 1;
  } finally {
    for (const stop of stops.reverse()) await stop().catch((e) => console.error('[scale-out] cleanup:', e));
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('[scale-out] failed:', err);
    process.exit(1);
  },
);
