/**
 * Runs an external program (pdftotext, tesseract, soffice, sox, pocketsphinx) without a shell, with a time
 * limit and the activity's cancellation: the program gets its own process group, so a timeout or a cancel
 * kills it and whatever it started (soffice forks soffice.bin). While it runs, the activity heartbeats.
 */
import { spawn } from 'node:child_process';
import { cancellationError, type Work } from './work';
import { programSlots, type ProgramKind } from './concurrency';

export interface RunOptions {
  timeoutMs: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Bytes of stdout kept (default 64 MiB); beyond that the program is killed. */
  maxStdout?: number;
  /**
   * The kind of heavy program (office, ocr, asr) whose cap of concurrent runs in this worker applies
   * (./concurrency.ts): the program starts once a slot is free, heartbeating while it waits.
   */
  slot?: ProgramKind;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/** The program ran and said no (non-zero exit): usually bad input, the caller decides. */
export class ProgramFailed extends Error {
  constructor(
    readonly program: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`${program} failed (exit ${exitCode}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
    this.name = 'ProgramFailed';
  }
}

/** The program ran past its time limit and was killed with its process group. */
export class ProgramTimedOut extends Error {
  constructor(
    readonly program: string,
    readonly timeoutMs: number,
  ) {
    super(`${program} did not finish within ${Math.round(timeoutMs / 1000)} s`);
    this.name = 'ProgramTimedOut';
  }
}

const HEARTBEAT_MS = 5000;
const STDERR_KEEP = 16 * 1024;

export async function run(work: Work, program: string, args: string[], opts: RunOptions): Promise<RunResult> {
  if (!opts.slot) return spawnProgram(work, program, args, opts);
  const kind = opts.slot;
  const beat = setInterval(() => work.heartbeat({ program, waitingFor: kind }), HEARTBEAT_MS);
  let release: () => void;
  try {
    release = await programSlots(kind).acquire(work.signal);
  } finally {
    clearInterval(beat);
  }
  try {
    return await spawnProgram(work, program, args, opts);
  } finally {
    release();
  }
}

function spawnProgram(work: Work, program: string, args: string[], opts: RunOptions): Promise<RunResult> {
  if (work.signal.aborted) return Promise.reject(cancellationError(work.signal));
  const maxStdout = opts.maxStdout ?? 64 * 1024 * 1024;
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: opts.cwd ?? work.dir,
      env: { ...process.env, ...opts.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let failure: Error | null = null;
    const killGroup = (why: Error) => {
      failure ??= why;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const onAbort = () => killGroup(cancellationError(work.signal));
    work.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => killGroup(new ProgramTimedOut(program, opts.timeoutMs)), opts.timeoutMs);
    const beat = setInterval(() => work.heartbeat({ program }), HEARTBEAT_MS);
    const done = () => {
      clearTimeout(timer);
      clearInterval(beat);
      work.signal.removeEventListener('abort', onAbort);
    };
    child.stdout.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > maxStdout) killGroup(new Error(`${program} printed more than ${maxStdout} bytes`));
      else out.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString('utf8')).slice(-STDERR_KEEP);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      done();
      reject(
        err.code === 'ENOENT'
          ? new Error(`${program} is not installed on the worker (run scripts/install-system-deps.sh)`)
          : err,
      );
    });
    child.on('close', (code) => {
      done();
      if (failure) reject(failure);
      else if (code !== 0) reject(new ProgramFailed(program, code, stderr));
      else resolve({ stdout: Buffer.concat(out), stderr });
    });
  });
}
