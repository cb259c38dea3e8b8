/**
 * A burst of office files (issue 27 section 4): BENCH_DOCX_DOCUMENTS (50) Word documents uploaded through the
 * API at once to a process upload -> file parser -> classification, parsed by one worker running as its own
 * process (`tsx workflows/worker.ts`, as `npm start` runs it) with the default parser caps. Measured: seconds
 * from the first upload until every document waits at its classification step (its first human step), and the
 * peak resident memory, sampled every 250 ms from /proc, of the worker's Node process and of the worker with
 * every program it started (LibreOffice included). The figures go to `worker.docxBurst` in the results file.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApi } from '../api/server';
import { createKnex } from '../db/connection';
import { insertObligatoryUploadNode } from '../db/queries/nodes';
import { defaultParserConcurrency } from '../activities/parser/concurrency';
import { loadConfig, loadWorkerConfig } from '../server/config';
import { docxOf } from '../tests/support/zip';
import { benchCaller, benchSignIn } from './lib/bench-app';
import { descendants } from './lib/processes';
import { ROOT } from './lib/prepare';

export interface DocxBurstOptions {
  databaseUrl: string;
  temporalAddress: string;
  workflowCode: string;
  filesDir: string;
  documents: number;
}

export interface DocxBurstResult {
  documents: number;
  /** Documents whose parse failed (their step holds the error). */
  failed: number;
  seconds: number;
  /** The worker's Node process. */
  peakRssMb: number;
  /** The worker's Node process and every program it ran, at the sampled moment of their largest sum. */
  peakTreeRssMb: number;
  /** LibreOffice runs at once in the worker (PARSER_OFFICE_CONCURRENCY, else the default from the cores). */
  libreofficeCap: number;
  /** The most LibreOffice runs (process groups with a soffice.bin) seen at one sample. */
  peakLibreoffice: number;
  cores: number;
  /** The 1, 5 and 15 minute load averages when the burst ended. */
  load: number[];
}

const rssKb = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0; // ended meanwhile
  }
};
const commOf = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

/** The state letter (R, S, Z...) and process group of a process, or null when it is gone. */
const statOf = (pid: number): { state: string; pgrp: number } | null => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, pgrp: Number(pgrp) };
  } catch {
    return null;
  }
};

export async function benchDocxBurst(o: DocxBurstOptions): Promise<DocxBurstResult> {
  const taskQueue = `bench-docx-${crypto.randomUUID()}`;
  const bundlePath = path.join(o.filesDir, `${taskQueue}.workflows.js`);
  fs.writeFileSync(bundlePath, o.workflowCode);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: o.temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: taskQueue,
    FILES_DIR: o.filesDir,
    WORKFLOW_BUNDLE_PATH: bundlePath,
    SCHEDULE_SYNC: 'off',
    DOCUMENT_SWEEP: 'off',
    NODE_ENV: 'production',
  };
  const libreofficeCap = loadWorkerConfig(env).parserConcurrency.office ?? defaultParserConcurrency().office;
  const knex = createKnex(o.databaseUrl, { min: 0, max: 2 });
  const worker = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'tsx'),
    [path.join(ROOT, 'workflows', 'worker.ts')],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const polling = new Promise<void>((resolve, reject) => {
    const collect = (b: Buffer) => {
      output = (output + b.toString()).slice(-16384);
      if (output.includes('polling task queue')) resolve();
    };
    worker.stdout.on('data', collect);
    worker.stderr.on('data', collect);
    worker.once('exit', (code) =>
      reject(new Error(`the worker exited (${code}) before polling:\n${output}`)),
    );
  });
  const api = await startApi(loadConfig({ ...env, PORT: '0' }));
  const base = `http://127.0.0.1:${api.port}`;
  let sampler: NodeJS.Timeout | undefined;
  try {
    await polling;
    const [proc] = await knex('processes')
      .insert({ name: `docx-burst-${taskQueue}` })
      .returning('id');
    const upload = (await insertObligatoryUploadNode(knex, proc.id)).id;
    const node = async (activity_type: string, automatic: boolean, auto_step_status = 'WAITING') =>
      (
        await knex('nodes')
          .insert({
            process_id: proc.id,
            name: `${activity_type}-${taskQueue}`,
            activity_type,
            automatic,
            auto_step_status,
          })
          .returning('id')
      )[0].id as number;
    // The parser's step DONE when it has parsed (no one checks the text): the document goes on to classify.
    const parser = await node('FILE_PARSER', true, 'DONE');
    const clf = await node('CLF', false);
    await knex('edges').insert([
      { process_id: proc.id, from_id: upload, to_id: parser },
      { process_id: proc.id, from_id: parser, to_id: clf },
    ]);
    const call = benchCaller(base, await benchSignIn(base, 'admin', 'admin'));

    // The worker's Node process is the child of tsx; the programs the parser runs are below it.
    let peakRss = 0;
    let peakTree = 0;
    let peakOffice = 0;
    sampler = setInterval(() => {
      const tree = descendants(worker.pid!).slice(1);
      const node = tree.find((pid) => commOf(pid) === 'node');
      peakRss = Math.max(peakRss, node ? rssKb(node) : 0);
      // One LibreOffice run is a process group (soffice.bin re-executes itself once with a fresh profile).
      const offices = new Set(
        tree
          .filter((pid) => commOf(pid) === 'soffice.bin' && statOf(pid)?.state !== 'Z')
          .map((pid) => statOf(pid)?.pgrp),
      );
      peakOffice = Math.max(peakOffice, offices.size);
      peakTree = Math.max(
        peakTree,
        tree.reduce((sum, pid) => sum + rssKb(pid), 0),
      );
    }, 250);

    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: o.documents }, async (_, i) => {
        const form = new FormData();
        form.append('nodeId', String(upload));
        const text = `Letter ${i} of the burst ${taskQueue}. ${'A paragraph of an office letter. '.repeat(40)}`;
        form.append('file', new Blob([new Uint8Array(docxOf(text))]), `letter-${i}.docx`);
        return (await call<{ id: number }>('POST', '/api/file-upload', form)).id;
      }),
    );
    let waiting = 0;
    let failed = 0;
    const deadline = Date.now() + 30 * 60_000;
    while (waiting + failed < answers.length) {
      if (Date.now() > deadline) throw new Error(`after 30 min ${waiting} parsed, ${failed} failed`);
      await new Promise((r) => setTimeout(r, 500));
      const { rows } = await knex.raw(
        `select count(*) filter (where node_id = ? and status = 'WAITING')::int as waiting,
                count(*) filter (where node_id = ? and (status = 'ERROR' or error_message is not null))::int
                  as failed
           from steps where document_id = any(?)`,
        [clf, parser, answers],
      );
      ({ waiting, failed } = rows[0] as { waiting: number; failed: number });
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      documents: answers.length,
      failed,
      seconds: Math.round(seconds * 10) / 10,
      peakRssMb: Math.round(peakRss / 102.4) / 10,
      peakTreeRssMb: Math.round(peakTree / 102.4) / 10,
      libreofficeCap,
      peakLibreoffice: peakOffice,
      cores: os.cpus().length,
      load: os.loadavg().map((x) => Math.round(x * 100) / 100),
    };
  } finally {
    clearInterval(sampler);
    await api.close();
    if (worker.exitCode === null && worker.signalCode === null) {
      const exited = new Promise((r) => worker.once('exit', r));
      worker.kill('SIGTERM');
      await exited;
    }
    await knex.destroy();
    fs.rmSync(bundlePath, { force: true });
  }
}

export function printDocxBurstResults(r: DocxBurstResult): void {
  console.log(
    `docx burst: ${r.documents} documents (${r.failed} failed) parsed in ${r.seconds} s; worker peak RSS ` +
      `${r.peakRssMb} MB, with LibreOffice ${r.peakTreeRssMb} MB; LibreOffice cap ${r.libreofficeCap}, ` +
      `at most ${r.peakLibreoffice} running ` +
      `(${r.cores} cores, load ${r.load.join(' ')})`,
  );
}
