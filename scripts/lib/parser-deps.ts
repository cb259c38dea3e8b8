/**
 * The start check of `npm start`: the file parser's programs (domain/parser-programs.ts) are checked, and
 * what is missing is installed with `scripts/install-system-deps.sh runtime`, as root or through sudo.
 *
 * Decisions: a start that cannot install (no root and no usable sudo, no apt-get) or whose install fails
 * stops with the one command to run, rather than going on with a warning: a warning scrolls away among the
 * start's output and the newcomer finds out when the first PDF or scan ends in ERROR, which is what this
 * check is for. SKIP_PARSER_INSTALL=1 is the deliberate way to start without them (e.g. a deployment that
 * takes no office files): the check then only warns, and `management/health` shows the components DOWN.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { neededParserPrograms, type ParserProgram } from '../../domain/parser-programs';
import {
  checkParserPrograms,
  findExecutable,
  type ParserProgramsReport,
} from '../../api/services/parser-programs';

const SCRIPT = 'scripts/install-system-deps.sh';
export const INSTALL_ARGS = [SCRIPT, 'runtime'] as const;

export interface InstallContext {
  /** SKIP_PARSER_INSTALL=1: warn and go on. */
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

/** `tesseract (language pol), sox (sox)`: what the DOWN components lack. */
export function describeMissing(report: ParserProgramsReport): string {
  return Object.entries(report)
    .filter(([, s]) => s.status === 'DOWN')
    .map(([component, s]) => `${component} (${s.details.missing || s.details.error || 'unusable'})`)
    .join(', ');
}

/** The one command that installs the programs for a user in this context. */
export function installCommand(ctx: Pick<InstallContext, 'isRoot' | 'hasSudo'>): string {
  const cmd = `bash ${INSTALL_ARGS.join(' ')}`;
  if (ctx.isRoot) return cmd;
  return ctx.hasSudo ? `sudo ${cmd}` : `su -c '${cmd}'`;
}

/** What the start does about the report: nothing, install, warn and go on, or stop with a message. */
export function planParserInstall(
  report: ParserProgramsReport,
  programs: readonly ParserProgram[],
  ctx: InstallContext,
): InstallPlan {
  const down = programs.filter((p) => report[p.component]?.status === 'DOWN');
  if (down.length === 0) return { action: 'none' };
  const missing = describeMissing(report);
  const packages = [...new Set(down.flatMap((p) => p.packages))];
  const skipHint = 'or start without them with SKIP_PARSER_INSTALL=1 (documents that need them end in ERROR)';
  if (ctx.skip)
    return {
      action: 'warn',
      message: `the file parser lacks ${missing}: documents that need them end in ERROR (SKIP_PARSER_INSTALL=1). Install them with: ${installCommand(ctx)}`,
    };
  if (!ctx.hasApt)
    return {
      action: 'stop',
      message: `the file parser lacks ${missing} and there is no apt-get here to install them: install the equivalents of the Debian packages ${packages.join(' ')} with this system's package manager, then npm start again; ${skipHint}.`,
    };
  if (ctx.isRoot || (ctx.hasSudo && (ctx.sudoWithoutPassword || ctx.interactive)))
    return { action: 'install', command: ['bash', ...INSTALL_ARGS], packages, missing };
  return {
    action: 'stop',
    message: `the file parser lacks ${missing}, and installing them needs root. Run:\n\n    ${installCommand(ctx)}\n\nthen npm start again; ${skipHint}.`,
  };
}

export function currentContext(env: NodeJS.ProcessEnv): InstallContext {
  const hasSudo = !!findExecutable('sudo', env.PATH);
  return {
    skip: env.SKIP_PARSER_INSTALL === '1' || env.SKIP_PARSER_INSTALL === 'true',
    isRoot: process.getuid?.() === 0,
    hasApt: !!findExecutable('apt-get', env.PATH) && !!findExecutable('dpkg-query', env.PATH),
    hasSudo,
    sudoWithoutPassword: hasSudo && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    interactive: !!process.stdin.isTTY,
  };
}

/**
 * Checks the programs and installs what is missing; throws (ending the start) with the command to run
 * when it cannot, or when they are still missing after the install.
 */
export async function ensureParserPrograms(root: string, env: NodeJS.ProcessEnv): Promise<void> {
  const asrEngine = (env.ASR_ENGINE ?? 'pocketsphinx').trim().toLowerCase();
  const programs = neededParserPrograms(asrEngine);
  const check = () => checkParserPrograms({ env, asrEngine });
  const ctx = currentContext(env);
  const plan = planParserInstall(await check(), programs, ctx);
  if (plan.action === 'none') return;
  if (plan.action === 'warn') return console.warn(`[start] WARNING: ${plan.message}`);
  if (plan.action === 'stop') throw new Error(plan.message);
  console.log(`[start] the file parser lacks ${plan.missing}: installing ${plan.packages.join(' ')}...`);
  const r = spawnSync(plan.command[0], plan.command.slice(1), {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (r.status !== 0)
    throw new Error(
      `installing the file parser's programs failed: fix what the output above says and run\n\n    ${installCommand(ctx)}\n\nthen npm start again; or start without them with SKIP_PARSER_INSTALL=1.`,
    );
  const still = describeMissing(await check());
  if (still)
    throw new Error(
      `the packages are installed but the file parser still lacks ${still}: check that PATH holds their programs (and TESSDATA_PREFIX, if set, the OCR languages); or start without them with SKIP_PARSER_INSTALL=1.`,
    );
  console.log(`[start] file parser programs installed (${path.basename(SCRIPT)} runtime)`);
}
