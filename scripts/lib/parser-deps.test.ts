import fs from 'node:fs';
import path from 'node:path';
import { neededParserPrograms, PARSER_PROGRAMS, parserPackages } from '../../domain/parser-programs';
import type { ParserProgramsReport } from '../../api/services/parser-programs';
import { type InstallContext, planParserInstall } from './parser-deps';

const ROOT = path.resolve(__dirname, '..', '..');
const allUp: ParserProgramsReport = Object.fromEntries(
  PARSER_PROGRAMS.map((p) => [p.component, { status: 'UP', details: {} }]),
);
const soxAndPolMissing: ParserProgramsReport = {
  ...allUp,
  sox: { status: 'DOWN', details: { missing: 'sox', packages: 'sox' } },
  tesseract: { status: 'DOWN', details: { missing: 'language pol', packages: 'tesseract-ocr' } },
};
const root: InstallContext = {
  skip: false,
  isRoot: true,
  hasApt: true,
  hasSudo: false,
  sudoWithoutPassword: false,
  interactive: false,
};
const user: InstallContext = { ...root, isRoot: false };

describe('npm start: installing the parser programs', () => {
  it('does nothing when every program is there', () => {
    expect(planParserInstall(allUp, PARSER_PROGRAMS, root)).toEqual({ action: 'none' });
    expect(planParserInstall(allUp, PARSER_PROGRAMS, user)).toEqual({ action: 'none' });
  });

  it('runs the runtime install as root, naming what is missing', () => {
    expect(planParserInstall(soxAndPolMissing, PARSER_PROGRAMS, root)).toEqual({
      action: 'install',
      command: ['bash', 'scripts/install-system-deps.sh', 'runtime'],
      packages: ['tesseract-ocr', 'tesseract-ocr-eng', 'tesseract-ocr-pol', 'sox'],
      missing: 'tesseract (language pol), sox (sox)',
    });
  });

  it('runs it through sudo when sudo needs no password or can ask for it', () => {
    const viaSudo = { ...user, hasSudo: true, sudoWithoutPassword: true };
    expect(planParserInstall(soxAndPolMissing, PARSER_PROGRAMS, viaSudo).action).toBe('install');
    const asking = { ...user, hasSudo: true, interactive: true };
    expect(planParserInstall(soxAndPolMissing, PARSER_PROGRAMS, asking).action).toBe('install');
  });

  it('stops with the one command to run without root and without usable sudo', () => {
    const noSudo = planParserInstall(soxAndPolMissing, PARSER_PROGRAMS, user);
    expect(noSudo.action).toBe('stop');
    expect(noSudo).toMatchObject({
      message: expect.stringContaining("su -c 'bash scripts/install-system-deps.sh runtime'"),
    });
    expect(noSudo).toMatchObject({ message: expect.stringContaining('tesseract (language pol), sox (sox)') });
    const sudoNeedsPassword = planParserInstall(soxAndPolMissing, PARSER_PROGRAMS, {
      ...user,
      hasSudo: true,
    });
    expect(sudoNeedsPassword).toMatchObject({
      action: 'stop',
      message: expect.stringContaining('sudo bash scripts/install-system-deps.sh runtime'),
    });
  });

  it('stops naming the packages where there is no apt-get', () => {
    const plan = planParserInstall(soxAndPolMissing, PARSER_PROGRAMS, { ...root, hasApt: false });
    expect(plan).toMatchObject({ action: 'stop', message: expect.stringContaining('tesseract-ocr-pol sox') });
  });

  it('only warns with SKIP_PARSER_INSTALL', () => {
    const plan = planParserInstall(soxAndPolMissing, PARSER_PROGRAMS, { ...user, skip: true });
    expect(plan).toMatchObject({ action: 'warn', message: expect.stringContaining('sox (sox)') });
  });

  it('does not ask for pocketsphinx when speech goes to Whisper', () => {
    const { pocketsphinx: _, ...rest } = allUp;
    expect(planParserInstall(rest, neededParserPrograms('whisper'), user)).toEqual({ action: 'none' });
  });
});

describe('the list of parser programs', () => {
  it('is the runtime set of install-system-deps.sh', () => {
    const script = fs.readFileSync(path.join(ROOT, 'scripts', 'install-system-deps.sh'), 'utf8');
    const block = /RUNTIME_PACKAGES=\(([^)]*)\)/.exec(script)![1];
    const listed = block
      .split('\n')
      .map((l) => l.replace(/#.*/, ''))
      .join(' ')
      .split(/\s+/)
      .filter(Boolean);
    expect(listed.sort()).toEqual(parserPackages().sort());
  });

  it('holds every program the parser starts', () => {
    const started = new Set<string>();
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const f = path.join(dir, e.name);
        if (e.isDirectory()) walk(f);
        else if (f.endsWith('.ts') && !f.endsWith('.test.ts')) {
          const src = fs.readFileSync(f, 'utf8');
          // run(work, 'name', ...), execFile('name', ...) and the [program, args] pairs of office.ts
          for (const re of [
            /\brun\(\s*work,\s*'([^']+)'/g,
            /execFile\(\s*'([^']+)'/g,
            /\[\s*'([\w-]+)',\s*(?:args|\[)/g,
          ])
            for (const m of src.matchAll(re)) started.add(m[1]);
        }
      }
    };
    walk(path.join(ROOT, 'activities', 'parser'));
    // prlimit (util-linux, essential on Debian) only wraps soffice when present: not a parser component.
    started.delete('prlimit');
    expect(started.size).toBeGreaterThanOrEqual(8);
    const listed = new Set(PARSER_PROGRAMS.flatMap((p) => p.executables));
    expect([...started].filter((p) => !listed.has(p))).toEqual([]);
  });
});
