import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeResults } from './bench-results';
import { BENCH_PART_NEEDS, BENCH_PARTS, type BenchPart, partsOf, runBenchParts } from './bench-parts';
import { COMMAND_NEEDS } from './system-deps';

const ROOT = path.resolve(__dirname, '..', '..');

describe('npm run bench: each part isolated', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-parts-'));
    file = path.join(dir, 'results.json');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const read = () => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const run = (parts: BenchPart[], missing = new Map()) =>
    runBenchParts(parts, { missing, write: (v) => mergeResults(v, file), log: () => {} });

  it('writes the results of the other parts when one fails with spawn espeak-ng ENOENT', async () => {
    const ran: string[] = [];
    const outcomes = await run([
      { name: 'lists', run: async () => (ran.push('lists'), { lists: { p95: 1 } }) },
      {
        name: 'speech',
        run: async () => {
          ran.push('speech');
          throw Object.assign(new Error('spawn espeak-ng ENOENT'), { code: 'ENOENT' });
        },
      },
      { name: 'export', run: async () => (ran.push('export'), { export: { peakMb: 2 } }) },
    ]);
    expect(ran).toEqual(['lists', 'speech', 'export']);
    expect(outcomes).toEqual([
      { name: 'lists', status: 'done' },
      { name: 'speech', status: 'failed', reason: 'spawn espeak-ng ENOENT' },
      { name: 'export', status: 'done' },
    ]);
    const results = read();
    expect(results.lists).toEqual({ p95: 1 });
    expect(results.export).toEqual({ peakMb: 2 });
    expect(results.lastRun).toMatchObject({
      parts: { lists: 'done', speech: 'failed: spawn espeak-ng ENOENT', export: 'done' },
    });
  });

  it('skips a part whose programs are missing, saying which and how to install them, and keeps its old figures', async () => {
    mergeResults({ speech: { openMs: 900 } }, file);
    let speechRan = false;
    const outcomes = await run(
      [
        {
          name: 'speech',
          needs: ['chromium', 'espeak-ng', 'sox'],
          run: async () => ((speechRan = true), {}),
        },
        { name: 'rag', run: async () => ({ rag: { recall: 0.9 } }) },
      ],
      new Map([['espeak-ng', 'not found: espeak-ng']]),
    );
    expect(speechRan).toBe(false);
    expect(outcomes[0]).toEqual({
      name: 'speech',
      status: 'skipped',
      reason: 'needs espeak-ng (not found: espeak-ng): bash scripts/install-system-deps.sh espeak-ng',
    });
    expect(outcomes[1]).toEqual({ name: 'rag', status: 'done' });
    expect(read()).toMatchObject({ speech: { openMs: 900 }, rag: { recall: 0.9 } });
  });

  it('writes each part as it ends, before the next one runs', async () => {
    await run([
      { name: 'lists', run: async () => ({ lists: { n: 1 } }) },
      { name: 'export', run: async () => ({ export: { listsThere: 'lists' in read() } }) },
    ]);
    expect(read().export).toEqual({ listsThere: true });
  });

  it('counts a part that finds it cannot run as skipped, not done, and writes nothing of it', async () => {
    const outcomes = await run([{ name: 'graph', run: async () => ({ skipped: 'dist/web is missing' }) }]);
    expect(outcomes).toEqual([{ name: 'graph', status: 'skipped', reason: 'dist/web is missing' }]);
    expect(read().graph).toBeUndefined();
  });

  it('runs every part, or those of BENCH_ONLY', () => {
    expect(partsOf(undefined)).toEqual([...BENCH_PARTS]);
    expect(partsOf('workspace')).toEqual(['workspace', 'graph']);
    expect(partsOf('speech')).toEqual(['speech']);
    expect(() => partsOf('lexicon')).toThrow('BENCH_ONLY can only be');
  });
});

describe("the bench parts' programs", () => {
  it('names every program a part starts', () => {
    // bench-<part>.ts and its helpers bench-<part>-*.ts: exec('program', ...) and chromium.launch.
    for (const part of BENCH_PARTS) {
      const files = fs
        .readdirSync(path.join(ROOT, 'scripts'))
        .filter((f) => f === `bench-${part}.ts` || f.startsWith(`bench-${part}-`));
      const started = new Set<string>();
      for (const f of files) {
        const src = fs.readFileSync(path.join(ROOT, 'scripts', f), 'utf8');
        for (const m of src.matchAll(/\bexec(?:File)?\(\s*'([\w-]+)'/g)) started.add(m[1]);
        if (/chromium\.launch\(/.test(src)) started.add('chromium');
      }
      expect({
        part,
        missing: [...started].filter((p) => !BENCH_PART_NEEDS[part].includes(p as never)),
      }).toEqual({
        part,
        missing: [],
      });
    }
  });

  it('are the programs npm run bench installs', () => {
    const all = new Set(Object.values(BENCH_PART_NEEDS).flat());
    expect([...all].sort()).toEqual([...COMMAND_NEEDS.bench].sort());
  });
});
