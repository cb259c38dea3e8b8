import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkParserPrograms, findExecutable, parserProgramsMonitor } from './parser-programs';
import { englishOnlyTessdata } from '../../tests/support/media';

// The programs are installed on the machines that run the tests (scripts/install-system-deps.sh); each test
// builds a PATH of its own holding links to some of them only.
const systemPath = process.env.PATH;

const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function pathWith(programs: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parser-path-'));
  made.push(dir);
  for (const p of programs) {
    const real = findExecutable(p, systemPath);
    if (!real) throw new Error(`${p} is not installed on this machine`);
    fs.symlinkSync(real, path.join(dir, p));
  }
  return dir;
}

describe('parser program check', () => {
  it('reports a program missing from PATH as DOWN with its name and package, the others UP', async () => {
    const report = await checkParserPrograms({ env: { PATH: pathWith(['tesseract']) } });
    expect(report.sox).toEqual({ status: 'DOWN', details: { missing: 'sox', packages: 'sox' } });
    expect(report.poppler).toMatchObject({
      status: 'DOWN',
      details: { missing: 'pdftotext, pdftoppm, pdfimages, pdfinfo', packages: 'poppler-utils' },
    });
    expect(report.tesseract).toEqual({
      status: 'UP',
      details: { version: expect.stringMatching(/^\d+\.\d+/), languages: 'eng, pol' },
    });
  });

  it('reports every program UP with its version on this machine, and no path in the details', async () => {
    const report = await checkParserPrograms();
    for (const component of ['tesseract', 'poppler', 'libreoffice', 'sox', 'pocketsphinx'] as const)
      expect(report[component]?.status).toBe('UP');
    expect(report.libreoffice?.details).toMatchObject({ modules: 'writer, calc' });
    expect(report.pocketsphinx?.details).toMatchObject({ model: 'en-us' });
    expect(report.sox?.details.version).toMatch(/^\d+\.\d+/);
    expect(JSON.stringify(report)).not.toContain('/');
  });

  it('reports tesseract DOWN when an OCR language is missing', async () => {
    const tessdata = englishOnlyTessdata();
    const report = await checkParserPrograms({ env: { PATH: systemPath, TESSDATA_PREFIX: tessdata.dir } });
    tessdata.remove();
    expect(report.tesseract).toMatchObject({
      status: 'DOWN',
      details: {
        missing: 'language pol',
        languages: 'eng',
        packages: expect.stringContaining('tesseract-ocr-pol'),
      },
    });
  });

  it('leaves pocketsphinx out when speech goes to Whisper', async () => {
    const report = await checkParserPrograms({ asrEngine: 'whisper', env: { PATH: pathWith([]) } });
    expect(Object.keys(report).sort()).toEqual(['libreoffice', 'poppler', 'sox', 'tesseract']);
  });

  it('answers from the last check while it is fresh', async () => {
    const dir = pathWith([]);
    const monitor = parserProgramsMonitor({ env: { PATH: dir }, ttlMs: 3_600_000 });
    const first = await monitor.report();
    expect(first.sox?.status).toBe('DOWN');
    fs.symlinkSync(findExecutable('sox', systemPath)!, path.join(dir, 'sox'));
    expect(await monitor.report()).toBe(first);
  });

  it('checks again once the last check is older than its lifetime', async () => {
    const dir = pathWith([]);
    const monitor = parserProgramsMonitor({ env: { PATH: dir }, ttlMs: 0 });
    expect((await monitor.report()).sox?.status).toBe('DOWN');
    fs.symlinkSync(findExecutable('sox', systemPath)!, path.join(dir, 'sox'));
    await new Promise((r) => setTimeout(r, 5));
    // A stale answer starts a refresh in the background: a later call sees its result.
    await monitor.report();
    let sox = (await monitor.report()).sox?.status;
    for (let i = 0; sox !== 'UP' && i < 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      sox = (await monitor.report()).sox?.status;
    }
    expect(sox).toBe('UP');
  });
});
