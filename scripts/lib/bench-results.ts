/**
 * `.data/bench/results.json`, shared by `npm run bench` and `npm run chaos`: each writes its own keys and keeps
 * the others' (a bench run keeps the last chaos figures and the other way round).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './prepare';

export const RESULTS_FILE = path.join(ROOT, '.data', 'bench', 'results.json');

/** Writes `values` over the file's top-level keys, keeping the keys it does not name. */
export function mergeResults(values: Record<string, unknown>, file = RESULTS_FILE): void {
  let existing: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      existing = parsed as Record<string, unknown>;
  } catch {
    // no file yet, or not JSON: start afresh
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...existing, ...values }, null, 2) + '\n');
}
