/**
 * `.data/bench/results.json`, shared by `npm run bench` and `npm run chaos`: each writes its own keys and keeps
 * the others' (a bench run keeps the last chaos figures and the other way round).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './prepare';

export const RESULTS_FILE = path.join(ROOT, '.data', 'bench', 'results.json');

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function readResults(file: string): Json {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (isObject(parsed)) return parsed;
  } catch {
    // no file yet, or not JSON: start afresh
  }
  return {};
}

function writeResults(file: string, results: Json): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}

/** Writes `values` over the file's top-level keys, keeping the keys it does not name. */
export function mergeResults(values: Json, file = RESULTS_FILE): void {
  writeResults(file, { ...readResults(file), ...values });
}

/**
 * Writes `value` at a key path (`['chaos', 'cluster']`), keeping everything else; `keep` names keys of the
 * old value at that path that stay (`npm run chaos` writes `chaos` and keeps `chaos.cluster`).
 */
export function mergeResultsAt(
  keys: string[],
  value: Json,
  opts: { keep?: string[]; file?: string } = {},
): void {
  if (!keys.length) throw new Error('mergeResultsAt: an empty key path');
  const file = opts.file ?? RESULTS_FILE;
  const root = readResults(file);
  let parent = root;
  for (const k of keys.slice(0, -1)) {
    if (!isObject(parent[k])) parent[k] = {};
    parent = parent[k] as Json;
  }
  const last = keys[keys.length - 1];
  const old = isObject(parent[last]) ? parent[last] : {};
  const kept = Object.fromEntries((opts.keep ?? []).filter((k) => k in old).map((k) => [k, old[k]]));
  parent[last] = { ...value, ...kept };
  writeResults(file, root);
}
