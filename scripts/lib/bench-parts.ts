/**
 * The parts of `npm run bench`, each isolated: a part whose programs are missing is skipped with the reason
 * (and the command that installs them), a part that throws is recorded as failed, and in both cases the
 * other parts still run. Each part's figures are written to the results file as soon as it ends, so a later
 * failure loses nothing; `lastRun` says what each part of the latest run did. The figures of a part that did
 * not run stay as an earlier run wrote them.
 */
import { mergeResults } from './bench-results';
import { packagesOf, type SystemProgramName } from './system-deps';

/** The parts in the order they run. */
export const BENCH_PARTS = [
  'api',
  'engine',
  'lexicon',
  'workspace',
  'graph',
  'lists',
  'speech',
  'export',
  'rag',
  'statistics',
  'tracker',
  'docx',
  'webhooks',
  'timeline',
  'agreement',
] as const;
export type BenchPartName = (typeof BENCH_PARTS)[number];

/** The Debian programs each part starts (a unit test reads the parts' sources to keep this whole). */
export const BENCH_PART_NEEDS: Record<BenchPartName, readonly SystemProgramName[]> = {
  api: [],
  engine: [],
  lexicon: [],
  workspace: ['chromium'],
  graph: ['chromium'],
  lists: [],
  speech: ['chromium', 'espeak-ng', 'sox'],
  export: [],
  rag: [],
  statistics: [],
  tracker: [],
  docx: ['libreoffice'],
  webhooks: [],
  timeline: [],
  agreement: [],
};

/** BENCH_ONLY's values; `workspace` brings the graph page along. */
const CHOOSABLE: readonly BenchPartName[] = [
  'engine',
  'workspace',
  'lists',
  'graph',
  'speech',
  'tracker',
  'export',
  'rag',
  'statistics',
  'docx',
  'webhooks',
  'timeline',
  'agreement',
];

/** The parts of a run: all of them, or BENCH_ONLY's. */
export function partsOf(only: string | undefined): BenchPartName[] {
  if (!only) return [...BENCH_PARTS];
  if (!CHOOSABLE.includes(only as BenchPartName))
    throw new Error(`BENCH_ONLY can only be ${CHOOSABLE.join(', ')}`);
  return only === 'workspace' ? ['workspace', 'graph'] : [only as BenchPartName];
}

export interface BenchPart {
  name: BenchPartName;
  /** The Debian programs it starts (scripts/lib/system-deps.ts). */
  needs?: readonly SystemProgramName[];
  /**
   * Runs the part and prints its figures; resolves to the top-level keys to write (none: nothing to write),
   * or to `{ skipped }` when it found it cannot run.
   */
  run(): Promise<Record<string, unknown> | { skipped: string } | undefined>;
}

export interface PartOutcome {
  name: string;
  status: 'done' | 'skipped' | 'failed';
  reason?: string;
}

export interface RunPartsOptions {
  /** Programs still missing after the set-up, with what they lack. */
  missing?: ReadonlyMap<SystemProgramName, string>;
  /** Where the figures go (default the bench's results file). */
  write?: (values: Record<string, unknown>) => void;
  log?: (line: string) => void;
}

export async function runBenchParts(
  parts: readonly BenchPart[],
  opts: RunPartsOptions = {},
): Promise<PartOutcome[]> {
  const write = opts.write ?? ((v) => mergeResults(v));
  const log = opts.log ?? ((line) => console.log(line));
  const outcomes: PartOutcome[] = [];
  const summary = () =>
    write({
      lastRun: {
        date: new Date().toISOString(),
        parts: Object.fromEntries(
          outcomes.map((o) => [o.name, o.reason ? `${o.status}: ${o.reason}` : o.status]),
        ),
      },
    });
  for (const part of parts) {
    const lacking = (part.needs ?? []).filter((n) => opts.missing?.has(n));
    if (lacking.length) {
      const packages = [...new Set(lacking.flatMap((n) => packagesOf(n)))];
      const reason = `needs ${lacking.map((n) => `${n} (${opts.missing!.get(n)})`).join(', ')}: bash scripts/install-system-deps.sh ${packages.join(' ')}`;
      log(`[bench] ${part.name}: skipped, ${reason}`);
      outcomes.push({ name: part.name, status: 'skipped', reason });
      summary();
      continue;
    }
    try {
      const result = await part.run();
      if (result && 'skipped' in result && typeof result.skipped === 'string') {
        log(`[bench] ${part.name}: skipped, ${result.skipped}`);
        outcomes.push({ name: part.name, status: 'skipped', reason: result.skipped });
      } else {
        if (result) write(result);
        outcomes.push({ name: part.name, status: 'done' });
      }
    } catch (err) {
      const reason = (err as Error)?.message ?? String(err);
      log(`[bench] ${part.name}: FAILED, ${reason} (the other parts go on)`);
      outcomes.push({ name: part.name, status: 'failed', reason });
    }
    summary();
  }
  return outcomes;
}
