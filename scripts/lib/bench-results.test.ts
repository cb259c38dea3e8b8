/** `.data/bench/results.json` is shared by `npm run bench` and `npm run chaos`: each keeps the other's keys. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeResults, mergeResultsAt } from './bench-results';

describe('mergeResults', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-results-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes its keys over the file and keeps the others', () => {
    const file = path.join(dir, 'bench', 'results.json');
    mergeResults({ date: 'd1', api: { a: 1 }, engine: { e: 1 } }, file);
    mergeResults({ chaos: { lost: 0 } }, file);
    mergeResults({ date: 'd2', api: { a: 2 }, engine: { e: 2 } }, file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      date: 'd2',
      api: { a: 2 },
      engine: { e: 2 },
      chaos: { lost: 0 },
    });
  });

  it('writes at a key path, keeping the keys it is told to keep and every other key', () => {
    const file = path.join(dir, 'results.json');
    mergeResults({ api: { a: 1 }, chaos: { lost: 3 } }, file);
    mergeResultsAt(['chaos', 'cluster'], { lost: 0 }, { file });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      api: { a: 1 },
      chaos: { lost: 3, cluster: { lost: 0 } },
    });
    mergeResultsAt(['chaos'], { lost: 1 }, { keep: ['cluster'], file });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      api: { a: 1 },
      chaos: { lost: 1, cluster: { lost: 0 } },
    });
    mergeResultsAt(['chaos'], { lost: 2 }, { file });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).chaos).toEqual({ lost: 2 });
  });

  it('starts afresh from a file that is not a JSON object', () => {
    const file = path.join(dir, 'results.json');
    fs.writeFileSync(file, 'not json');
    mergeResults({ chaos: { lost: 0 } }, file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ chaos: { lost: 0 } });
  });
});
