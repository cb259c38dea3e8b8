import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PARSER_PROGRAMS, parserPackages } from '../../domain/parser-programs';
import {
  COMMAND_NEEDS,
  findMissing,
  type InstallContext,
  type MissingProgram,
  missingPackages,
  neededPrograms,
  packagesOf,
  planInstall,
  TOOL_PROGRAMS,
} from './system-deps';

const ROOT = path.resolve(__dirname, '..', '..');
const missing = (...names: MissingProgram['name'][]): MissingProgram[] =>
  names.map((name) => ({ name, lacks: `${name} lacks`, packages: packagesOf(name) }));
const root: InstallContext = {
  skip: false,
  isRoot: true,
  hasApt: true,
  hasSudo: false,
  sudoWithoutPassword: false,
  interactive: false,
};
const user: InstallContext = { ...root, isRoot: false };

/** The packages of the script's list `name=( ... )`, comments dropped. */
function scriptList(name: string): string[] {
  const script = fs.readFileSync(path.join(ROOT, 'scripts', 'install-system-deps.sh'), 'utf8');
  const block = new RegExp(`${name}=\\(([^)]*)\\)`).exec(script)![1];
  return block
    .split('\n')
    .map((l) => l.replace(/#.*/, ''))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean);
}

describe('which programs a command needs, and their packages', () => {
  it('maps each program to its own Debian packages', () => {
    expect(packagesOf('tesseract')).toEqual(['tesseract-ocr', 'tesseract-ocr-eng', 'tesseract-ocr-pol']);
    expect(packagesOf('poppler')).toEqual(['poppler-utils']);
    expect(packagesOf('libreoffice')).toEqual(['libreoffice-writer-nogui', 'libreoffice-calc-nogui']);
    expect(packagesOf('pocketsphinx')).toEqual(['pocketsphinx', 'pocketsphinx-en-us']);
    expect(packagesOf('sshd')).toEqual(['openssh-server']);
    expect(packagesOf('dovecot')).toEqual(['dovecot-imapd']);
    expect(packagesOf('espeak-ng')).toEqual(['espeak-ng']);
    expect(packagesOf('chromium')).toContain('chromium');
  });

  it('checks every program of the test suites, not Chromium for all', () => {
    expect([...COMMAND_NEEDS.test].sort()).toEqual(
      [
        'chromium',
        'dovecot',
        'espeak-ng',
        'libreoffice',
        'pocketsphinx',
        'poppler',
        'sox',
        'sshd',
        'tesseract',
      ].sort(),
    );
    expect([...COMMAND_NEEDS.bench].sort()).toEqual(['chromium', 'espeak-ng', 'libreoffice', 'sox']);
    expect(COMMAND_NEEDS.chaos).toEqual([]);
  });

  it('leaves pocketsphinx out of npm start when speech goes to Whisper', () => {
    expect(neededPrograms('start', {})).toContain('pocketsphinx');
    expect(neededPrograms('start', { ASR_ENGINE: 'whisper' })).not.toContain('pocketsphinx');
    expect(neededPrograms('test', { ASR_ENGINE: 'whisper' })).toContain('pocketsphinx');
  });

  it('names only packages the install script knows', () => {
    expect(scriptList('RUNTIME_PACKAGES').sort()).toEqual(parserPackages().sort());
    const known = new Set([...scriptList('RUNTIME_PACKAGES'), ...scriptList('TEST_PACKAGES')]);
    const named = TOOL_PROGRAMS.flatMap((t) => t.packages);
    expect(named.filter((p) => !known.has(p))).toEqual([]);
  });

  it('finds a program missing at the path the suites start, and one on PATH', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sysdeps-'));
    const espeak = path.join(dir, 'espeak-ng');
    fs.writeFileSync(espeak, '#!/bin/sh\n', { mode: 0o755 });
    const env = { PATH: dir, SSHD_PATH: path.join(dir, 'sshd'), DOVECOT_PATH: espeak };
    const found = await findMissing(['sshd', 'dovecot', 'espeak-ng'], env);
    expect(found.map((m) => m.name)).toEqual(['sshd']);
    expect(found[0].lacks).toContain('SSHD_PATH=');
    expect((await findMissing(['espeak-ng'], { PATH: '/nonexistent' })).map((m) => m.packages)).toEqual([
      ['espeak-ng'],
    ]);
    // A parser component through the health check: sox is not on an empty PATH.
    expect(await findMissing(['sox'], { PATH: dir })).toEqual([
      { name: 'sox', lacks: 'sox', packages: ['sox'] },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('installing what is missing', () => {
  it('does nothing when every program is there', () => {
    expect(planInstall('test', [], root)).toEqual({ action: 'none' });
    expect(planInstall('start', [], user)).toEqual({ action: 'none' });
  });

  it('installs exactly the packages of the missing programs, as root', () => {
    // Chromium is there; sshd, Dovecot and espeak-ng are not (the machine of issue 28).
    expect(planInstall('test', missing('sshd', 'dovecot', 'espeak-ng'), root)).toEqual({
      action: 'install',
      command: ['bash', 'scripts/install-system-deps.sh', 'openssh-server', 'dovecot-imapd', 'espeak-ng'],
      packages: ['openssh-server', 'dovecot-imapd', 'espeak-ng'],
      missing: 'sshd (sshd lacks), dovecot (dovecot lacks), espeak-ng (espeak-ng lacks)',
    });
  });

  it('names each package once', () => {
    const twice: MissingProgram[] = [...missing('sox'), { name: 'espeak-ng', lacks: '', packages: ['sox'] }];
    expect(missingPackages(twice)).toEqual(['sox']);
  });

  it('installs through sudo when sudo needs no password or can ask for it', () => {
    const viaSudo = { ...user, hasSudo: true, sudoWithoutPassword: true };
    expect(planInstall('bench', missing('espeak-ng'), viaSudo).action).toBe('install');
    const asking = { ...user, hasSudo: true, interactive: true };
    expect(planInstall('bench', missing('espeak-ng'), asking).action).toBe('install');
  });

  it('stops with the one command to run without root and without usable sudo', () => {
    const noSudo = planInstall('test', missing('dovecot'), user);
    expect(noSudo).toMatchObject({
      action: 'stop',
      message: expect.stringContaining("su -c 'bash scripts/install-system-deps.sh dovecot-imapd'"),
    });
    expect(noSudo).toMatchObject({ message: expect.stringContaining('then npm test again') });
    const sudoNeedsPassword = planInstall('start', missing('tesseract', 'sox'), { ...user, hasSudo: true });
    expect(sudoNeedsPassword).toMatchObject({
      action: 'stop',
      message: expect.stringContaining(
        'sudo bash scripts/install-system-deps.sh tesseract-ocr tesseract-ocr-eng tesseract-ocr-pol sox',
      ),
    });
    expect(planInstall('bench', missing('espeak-ng'), user)).toMatchObject({
      message: expect.stringContaining('then npm run bench again'),
    });
  });

  it('stops naming the packages where there is no apt-get', () => {
    const plan = planInstall('start', missing('tesseract', 'sox'), { ...root, hasApt: false });
    expect(plan).toMatchObject({ action: 'stop', message: expect.stringContaining('tesseract-ocr-pol sox') });
  });

  it('only warns with SKIP_PARSER_INSTALL', () => {
    const plan = planInstall('start', missing('sox'), { ...user, skip: true });
    expect(plan).toMatchObject({ action: 'warn', message: expect.stringContaining('sox (sox lacks)') });
  });
});

describe('the list of parser programs', () => {
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
