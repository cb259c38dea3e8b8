/**
 * doc, docx, odt, ods: LibreOffice headless converts the file to PDF, which is then parsed as a PDF (text,
 * OCR of image-only pages, page images). Each conversion gets its own LibreOffice profile inside the parse's
 * temporary folder, so conversions can run in parallel on one worker.
 *
 * A zip-based office file is a compressed archive, so a small upload can unpack to gigabytes: before
 * LibreOffice sees it, its zip directory is read (the declared sizes, domain/upload-check.ts) and then its
 * members are really inflated with a budget (a directory can lie about the sizes). LibreOffice itself runs
 * under a wall-clock limit and resource limits (prlimit: address space, file size, CPU seconds). Every
 * refusal and every limit reached is a non-retryable failure: the same file fails the same way again, so the
 * step ends in ERROR with a message that says what to do instead of keeping the worker busy five times.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import {
  sizeText,
  OFFICE_MAX_UNCOMPRESSED_BYTES,
  readZipDirectory,
  zipInflationProblem,
  type ZipEntry,
} from '../../domain/upload-check';
import { parsePdf, type ParsedPdf } from './pdf';
import { ProgramFailed, ProgramTimedOut, run } from './run';
import { badInput, ParserFailure, type Work } from './work';
import { stepError } from '../../domain/step-errors';
import { getLogger } from '../../server/logger';

const log = getLogger('worker.parser');

export interface OfficeLimits {
  /** Wall-clock limit of one conversion (OFFICE_TIMEOUT_SECONDS, default 120 s). */
  timeoutMs: number;
  /** What a zip-based office file may unpack to (OFFICE_MAX_UNCOMPRESSED_BYTES, default 64 MiB). */
  maxUncompressedBytes: number;
  /** Address space of the LibreOffice process (OFFICE_MAX_MEMORY_BYTES, default 2 GiB). */
  maxMemoryBytes: number;
  /** Largest file LibreOffice may write (OFFICE_MAX_OUTPUT_BYTES, default 512 MiB). */
  maxOutputBytes: number;
}

export const DEFAULT_OFFICE_LIMITS: OfficeLimits = {
  timeoutMs: 120_000,
  maxUncompressedBytes: OFFICE_MAX_UNCOMPRESSED_BYTES,
  maxMemoryBytes: 2 * 1024 ** 3,
  maxOutputBytes: 512 * 1024 ** 2,
};

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not ${raw}`);
  return n;
}

/** The limits from the environment (defaults above); a value that is no positive number stops the worker. */
export function officeLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): OfficeLimits {
  const d = DEFAULT_OFFICE_LIMITS;
  return {
    timeoutMs: positive(env, 'OFFICE_TIMEOUT_SECONDS', d.timeoutMs / 1000) * 1000,
    maxUncompressedBytes: positive(env, 'OFFICE_MAX_UNCOMPRESSED_BYTES', d.maxUncompressedBytes),
    maxMemoryBytes: positive(env, 'OFFICE_MAX_MEMORY_BYTES', d.maxMemoryBytes),
    maxOutputBytes: positive(env, 'OFFICE_MAX_OUTPUT_BYTES', d.maxOutputBytes),
  };
}

const DAMAGED = stepError.officeDamaged.text({});

/** Inflates one member with at most `budget` bytes out: the size, or null when it exceeds the budget. */
async function inflatedSize(data: Buffer, method: number, budget: number): Promise<number | null> {
  if (method === 0) return data.length <= budget ? data.length : null;
  return new Promise((resolve, reject) => {
    zlib.inflateRaw(data, { maxOutputLength: Math.max(1, budget) }, (err, out) => {
      if (!err) resolve(out.length);
      else if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') resolve(null);
      else reject(err);
    });
  });
}

/**
 * Refuses a zip-based office file that unpacks to more than the limit: first by the sizes its directory
 * declares, then by inflating the members (stored and deflated ones) within what is left of the budget.
 * Files that are no zip (Word 97-2003 .doc) pass; a member that does not inflate is LibreOffice's to judge.
 */
export async function checkOfficeArchive(work: Work, input: string, limits: OfficeLimits): Promise<void> {
  const bytes = await fs.readFile(input);
  const dir = readZipDirectory(bytes);
  if (dir === null) return;
  if (!dir.ok) throw badInput(DAMAGED);
  const problem = zipInflationProblem(dir.entries, limits.maxUncompressedBytes);
  if (problem) throw badInput(problem, ParserFailure.tooLarge);
  let total = 0;
  for (const e of dir.entries) {
    const data = memberData(bytes, e);
    if (!data || (e.method !== 0 && e.method !== 8) || e.flags & 1) continue;
    const budget = limits.maxUncompressedBytes - total;
    const size = await inflatedSize(data, e.method, budget).catch(() => 0);
    if (size === null) {
      throw badInput(
        `The office document unpacks to more than the limit of ${sizeText(limits.maxUncompressedBytes)} (more than its zip directory declares): it is not converted. Save the document again from its office program and upload the new file.`,
        ParserFailure.tooLarge,
      );
    }
    total += size;
    work.heartbeat({ stage: 'office-check' });
  }
}

/** The compressed bytes of a member, after its local header; null when the header is not where it should be. */
function memberData(b: Buffer, e: ZipEntry): Buffer | null {
  const at = e.localOffset;
  if (at + 30 > b.length || b.readUInt32LE(at) !== 0x04034b50) return null;
  const start = at + 30 + b.readUInt16LE(at + 26) + b.readUInt16LE(at + 28);
  if (start + e.compressedSize > b.length) return null;
  return b.subarray(start, start + e.compressedSize);
}

let prlimitPresent: Promise<boolean> | undefined;
/** prlimit (util-linux) is on every Linux worker we ship; elsewhere LibreOffice runs with the time limit only. */
function hasPrlimit(): Promise<boolean> {
  prlimitPresent ??= new Promise((resolve) => execFile('prlimit', ['--version'], (err) => resolve(!err)));
  return prlimitPresent;
}

/** soffice with its arguments, wrapped in prlimit when available. */
async function limitedCommand(args: string[], limits: OfficeLimits): Promise<[string, string[]]> {
  if (!(await hasPrlimit())) {
    log.warn('prlimit is not installed: LibreOffice runs without resource limits');
    return ['soffice', args];
  }
  const cpuSeconds = Math.ceil((2 * limits.timeoutMs) / 1000);
  return [
    'prlimit',
    [
      `--as=${Math.floor(limits.maxMemoryBytes)}`,
      `--fsize=${Math.floor(limits.maxOutputBytes)}`,
      `--cpu=${cpuSeconds}`,
      '--core=0',
      '--',
      'soffice',
      ...args,
    ],
  ];
}

export async function parseOffice(
  work: Work,
  input: string,
  limits: OfficeLimits = DEFAULT_OFFICE_LIMITS,
): Promise<ParsedPdf> {
  await checkOfficeArchive(work, input, limits);
  const outDir = path.join(work.dir, 'office');
  const profile = pathToFileURL(path.join(work.dir, 'lo-profile')).href;
  const [program, args] = await limitedCommand(
    [
      `-env:UserInstallation=${profile}`,
      '--headless',
      '--norestore',
      '--nologo',
      '--nodefault',
      '--nolockcheck',
      '--convert-to',
      'pdf',
      '--outdir',
      outDir,
      input,
    ],
    limits,
  );
  try {
    await run(work, program, args, { timeoutMs: limits.timeoutMs, env: { HOME: work.dir }, slot: 'office' });
  } catch (err) {
    if (err instanceof ProgramTimedOut) {
      throw badInput(
        `LibreOffice did not convert the office document within ${Math.round(limits.timeoutMs / 1000)} s and was stopped: the document is too large or too complex. Split it into smaller documents or save it as PDF, then upload it again.`,
        ParserFailure.timeout,
      );
    }
    if (!(err instanceof ProgramFailed)) throw err;
    // Killed by a signal (the soffice script reports 128 + signal): a resource limit was reached.
    if (err.exitCode === null || err.exitCode > 128) {
      throw badInput(
        'LibreOffice was stopped while converting the office document: it needed more memory, time or disk than a conversion may use. Split it into smaller documents or save it as PDF, then upload it again.',
        ParserFailure.tooLarge,
      );
    }
  }
  const pdf = path.join(outDir, `${path.parse(input).name}.pdf`);
  const made = await fs.stat(pdf).then(
    (s) => s.size > 0,
    () => false,
  );
  // LibreOffice exits 0 even when it cannot load the file: no PDF is the sign.
  if (!made) throw badInput(DAMAGED);
  return parsePdf(work, pdf, 'office');
}
