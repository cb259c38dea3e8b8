/**
 * Caps on the parser's heavy programs run at once in one worker process (issue 27 section 4): LibreOffice
 * (hundreds of MiB each), tesseract and pocketsphinx. The worker's activity slots bound how many parses run,
 * but a burst of office files would still start as many LibreOffice processes as slots: a small semaphore
 * per kind of program makes the extra ones wait (heartbeating, and leaving the queue when cancelled).
 *
 * Defaults from the core count: office max(1, floor(cores / 2)), OCR and speech recognition max(1, cores);
 * PARSER_OFFICE_CONCURRENCY, PARSER_OCR_CONCURRENCY and PARSER_ASR_CONCURRENCY (server/config.ts) override
 * them through `setParserConcurrency`, which the worker calls at start.
 */
import os from 'node:os';

export type ProgramKind = 'office' | 'ocr' | 'asr';
export type ParserConcurrency = Record<ProgramKind, number>;

/** A counting semaphore whose waiters are served first come, first served. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`a semaphore needs a limit >= 1, not ${limit}`);
  }

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Changes the limit; waiters start at once if the new one allows. */
  resize(limit: number): void {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`a semaphore needs a limit >= 1, not ${limit}`);
    this.limit = limit;
    this.drain();
  }

  /** Resolves with the release function once a slot is free; rejects with the signal's reason if aborted first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.active--;
          this.drain();
        });
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(grant);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
      this.drain();
    });
  }

  /** Runs `fn` inside a slot. */
  async use<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private drain(): void {
    while (this.active < this.limit && this.waiting.length) this.waiting.shift()!();
  }
}

const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('cancelled while waiting for a program slot');

export function defaultParserConcurrency(cores = os.cpus().length): ParserConcurrency {
  const n = Math.max(1, cores);
  return { office: Math.max(1, Math.floor(n / 2)), ocr: n, asr: n };
}

const semaphores: Record<ProgramKind, Semaphore> = (() => {
  const d = defaultParserConcurrency();
  return { office: new Semaphore(d.office), ocr: new Semaphore(d.ocr), asr: new Semaphore(d.asr) };
})();

/** The worker's caps (from its configuration); what is left out keeps its value. */
export function setParserConcurrency(caps: Partial<ParserConcurrency>): void {
  for (const kind of Object.keys(caps) as ProgramKind[]) {
    const v = caps[kind];
    if (v !== undefined) semaphores[kind].resize(v);
  }
}

export const programSlots = (kind: ProgramKind): Semaphore => semaphores[kind];
