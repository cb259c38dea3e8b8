/** `.data/bench/results.json` is shared by `npm run bench` and `npm run chaos`: each keeps the other's keys. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeResults } from './bench-results';

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

  it('starts afresh from a file that is not a JSON object', () => {
    const file = path.join(dir, 'results.json');
    fs.writeFileSync(file, 'not json');
    mergeResults({ chaos: { lost: 0 } }, file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ chaos: { lost: 0 } });
  });
});
