/**
 * Checks the file parser's programs (domain/parser-programs.ts) on this machine: each executable on PATH,
 * its version, and what else it needs (tesseract's languages, pocketsphinx's model, LibreOffice's Writer and
 * Calc). Used by `management/health` (through a cached monitor) and by the start check of `npm start`.
 *
 * A check starts at most one short process per component (two for tesseract), each with a time limit; the
 * monitor keeps the answer for a minute, so a health call never spawns anything while it is fresh and
 * answers from the last result while it refreshes. The details carry versions, names of languages,
 * modules and packages, never a path: the health route is public.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  neededParserPrograms,
  type ParserComponent,
  type ParserProgram,
  type ProgramRequirement,
} from '../../domain/parser-programs';

export interface ProgramStatus {
  status: 'UP' | 'DOWN';
  details: Record<string, string>;
}

export type ParserProgramsReport = Partial<Record<ParserComponent, ProgramStatus>>;

export interface CheckOptions {
  /** Environment of the checked programs; its PATH is where they are looked up (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** ASR_ENGINE of the deployment: pocketsphinx is not checked with whisper (default pocketsphinx). */
  asrEngine?: string;
  /** Time limit of each version or language query (default 10 s: soffice can be slow on a cold start). */
  timeoutMs?: number;
}

/** The absolute path of an executable found on the given PATH, or null. */
export function findExecutable(name: string, searchPath: string | undefined): string | null {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

function output(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ ok: boolean; text: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    execFile(
      file,
      [...args],
      { env, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        const timedOut = !!err && (err as NodeJS.ErrnoException & { killed?: boolean }).killed === true;
        resolve({ ok: !err, text: `${stdout}\n${stderr}`, timedOut });
      },
    );
  });
}

/** What a requirement lacks, as words for the details ('' when nothing), and what it has. */
async function checkRequirement(
  req: ProgramRequirement,
  found: Map<string, string>,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ missing: string[]; has: Record<string, string> }> {
  switch (req.kind) {
    case 'tesseract-languages': {
      const r = await output(found.get('tesseract')!, ['--list-langs'], env, timeoutMs);
      // The first line names the tessdata folder (a path): only the language codes are read.
      const listed = new Set(
        r.text
          .split('\n')
          .slice(1)
          .map((l) => l.trim()),
      );
      const missing = req.languages.filter((l) => !listed.has(l));
      return {
        missing: missing.map((l) => `language ${l}`),
        has: { languages: req.languages.filter((l) => listed.has(l)).join(', ') },
      };
    }
    case 'pocketsphinx-model': {
      // The recognizer uses its compiled-in model folder, <prefix>/share/pocketsphinx/model/<model>.
      const bin = fs.realpathSync(found.get('pocketsphinx_continuous')!);
      const prefix = path.dirname(path.dirname(bin));
      const mdef = path.join(prefix, 'share', 'pocketsphinx', 'model', req.model, req.model, 'mdef');
      return fs.existsSync(mdef)
        ? { missing: [], has: { model: req.model } }
        : { missing: [`model ${req.model}`], has: {} };
    }
    case 'libreoffice-modules': {
      // soffice is a link to <install>/program/soffice, beside the module libraries.
      const program = path.dirname(fs.realpathSync(found.get('soffice')!));
      const libraries = { writer: 'libswlo.so', calc: 'libsclo.so' } as const;
      const present = req.modules.filter((m) => fs.existsSync(path.join(program, libraries[m])));
      return {
        missing: req.modules.filter((m) => !present.includes(m)).map((m) => `module ${m}`),
        has: { modules: present.join(', ') },
      };
    }
  }
}

/** The status of one component of the list. */
export async function checkProgram(program: ParserProgram, opts: CheckOptions = {}): Promise<ProgramStatus> {
  const env = opts.env ?? process.env;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const down = (missing: string[], extra: Record<string, string> = {}): ProgramStatus => ({
    status: 'DOWN',
    details: { ...extra, missing: missing.join(', '), packages: program.packages.join(' ') },
  });
  const found = new Map<string, string>();
  for (const name of program.executables) {
    const file = findExecutable(name, env.PATH);
    if (file) found.set(name, file);
  }
  const notFound = program.executables.filter((e) => !found.has(e));
  if (notFound.length) return down(notFound);

  const details: Record<string, string> = {};
  if (program.executables.length > 1) details.programs = program.executables.join(', ');
  const [version, ...requirements] = await Promise.all([
    program.version
      ? output(found.get(program.version.executable)!, program.version.args, env, timeoutMs)
      : null,
    ...(program.requires ?? []).map((r) => checkRequirement(r, found, env, timeoutMs)),
  ]);
  if (version && !version.ok) {
    const cmd = `${program.version!.executable} ${program.version!.args.join(' ')}`;
    return {
      status: 'DOWN',
      details: {
        ...details,
        error: version.timedOut
          ? `${cmd} did not answer within ${Math.round(timeoutMs / 1000)} s`
          : `${cmd} failed`,
      },
    };
  }
  if (version) details.version = program.version!.pattern.exec(version.text)?.[1] ?? 'unknown';
  const missing = requirements.flatMap((r) => r.missing);
  for (const r of requirements) Object.assign(details, r.has);
  return missing.length ? down(missing, details) : { status: 'UP', details };
}

/** Every component the deployment needs, checked in parallel. */
export async function checkParserPrograms(opts: CheckOptions = {}): Promise<ParserProgramsReport> {
  const programs = neededParserPrograms(opts.asrEngine ?? 'pocketsphinx');
  const statuses = await Promise.all(
    programs.map((p) =>
      checkProgram(p, opts).catch((err: Error): ProgramStatus => ({
        status: 'DOWN',
        details: { error: `check failed: ${err.name}` },
      })),
    ),
  );
  return Object.fromEntries(programs.map((p, i) => [p.component, statuses[i]]));
}

/**
 * The last report, refreshed when older than ttlMs: the first call waits for a check, later calls answer
 * at once (a stale answer starts one refresh in the background). Concurrent calls share one check.
 */
export function parserProgramsMonitor(opts: CheckOptions & { ttlMs?: number } = {}) {
  const ttlMs = opts.ttlMs ?? 60_000;
  let last: { at: number; report: ParserProgramsReport } | null = null;
  let running: Promise<ParserProgramsReport> | null = null;
  const refresh = () => {
    running ??= checkParserPrograms(opts).then((report) => {
      last = { at: Date.now(), report };
      running = null;
      return report;
    });
    return running;
  };
  return {
    async report(): Promise<ParserProgramsReport> {
      if (!last) return refresh();
      if (Date.now() - last.at > ttlMs) void refresh();
      return last.report;
    },
  };
}
