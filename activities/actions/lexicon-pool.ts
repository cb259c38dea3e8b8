/**
 * Lexicon matching off the worker's event loop (issue 9): the rules of one document run in a worker thread,
 * so a heavy rule set or a huge text never holds the activities of other documents (parsers, mail, the
 * heartbeats of everything else) that share the worker process. Threads are kept and reused (a thread's
 * start costs about 0.2 s); a job that runs past its time limit, or whose activity is cancelled, has its
 * thread terminated, which stops the matching wherever it is (a regex pass cannot be interrupted from the
 * inside), and the pool starts a fresh one for the next job.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LexiconMatch, LexiconRule } from '../../domain/lexicon';

const THREAD_FILE = path.join(__dirname, 'lexicon-thread.cjs');
/** Threads kept at most; more concurrent lexicon jobs wait for one. */
const MAX_THREADS = 2;

/** A duration as people read it: `300 ms`, `120 s`. */
export const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

/** The time limit of one document's matching ran out (the step fails, not retried). */
export class LexiconTimeout extends Error {}

interface Job {
  id: number;
  rules: LexiconRule[];
  texts: string[];
  resolve: (results: LexiconMatch[][]) => void;
  reject: (err: Error) => void;
}

let nextId = 1;
const idle: Worker[] = [];
let running = 0;
const waiting: (() => void)[] = [];

function spawnThread(): Worker {
  const worker = new Worker(THREAD_FILE);
  worker.unref(); // an idle thread never keeps the worker process alive
  return worker;
}

async function acquire(): Promise<Worker> {
  while (running >= MAX_THREADS) await new Promise<void>((r) => waiting.push(r));
  running++;
  return idle.pop() ?? spawnThread();
}

function release(worker: Worker | null): void {
  running--;
  if (worker) idle.push(worker);
  waiting.shift()?.();
}

function runOn(worker: Worker, job: Job): void {
  const onMessage = (msg: { id: number; results?: LexiconMatch[][]; error?: string }) => {
    if (msg.id !== job.id) return;
    worker.off('message', onMessage);
    worker.off('error', onError);
    if (msg.error !== undefined) job.reject(new Error(msg.error));
    else job.resolve(msg.results ?? []);
  };
  const onError = (err: Error) => {
    worker.off('message', onMessage);
    job.reject(err);
  };
  worker.on('message', onMessage);
  worker.once('error', onError);
  worker.postMessage({ id: job.id, rules: job.rules, texts: job.texts });
}

/**
 * The merged matches of each text, computed in a thread. Rejects with LexiconTimeout after `timeoutMs`,
 * and with the signal's reason when it aborts; in both cases the thread is terminated.
 */
export async function matchInThread(
  rules: LexiconRule[],
  texts: string[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<LexiconMatch[][]> {
  if (texts.length === 0) return [];
  const worker = await acquire();
  let healthy = true;
  try {
    return await new Promise<LexiconMatch[][]>((resolve, reject) => {
      const stop = (err: Error) => {
        healthy = false;
        void worker.terminate();
        reject(err);
      };
      const timer = setTimeout(
        () => stop(new LexiconTimeout(`matching took longer than ${duration(timeoutMs)}`)),
        timeoutMs,
      );
      const onAbort = () =>
        stop(signal?.reason instanceof Error ? signal.reason : new Error('The lexicon run was cancelled'));
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      runOn(worker, {
        id: nextId++,
        rules,
        texts,
        resolve: (r) => {
          settle();
          resolve(r);
        },
        reject: (e) => {
          settle();
          healthy = false;
          reject(e);
        },
      });
    });
  } finally {
    if (!healthy) void worker.terminate();
    release(healthy ? worker : null);
  }
}
