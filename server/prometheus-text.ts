/**
 * Prometheus text exposition, read and written (issue 15 section 2): the API's `management/prometheus` adds
 * the workers' own metrics (the Temporal runtime's, served on each worker's WORKER_METRICS_PORT) to its own,
 * each sample labelled with the worker it came from, every metric family written once (HELP and TYPE, then
 * the samples of all workers). Pure.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  help?: string;
  type?: string;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The family a sample belongs to: histogram and summary series end in _bucket, _sum, _count. */
const familyOf = (name: string, known: Map<string, Family>): string => {
  for (const suffix of ['_bucket', '_sum', '_count', '_total']) {
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      if (known.has(base)) return base;
    }
  }
  return name;
};

export function parseExposition(text: string): Family[] {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, samples: [] }));
    return f;
  };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const meta = /^#\s+(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
    if (meta) {
      const f = family(meta[2]);
      if (meta[1] === 'HELP') f.help = meta[3];
      else f.type = meta[3];
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]] = unescape(l[2]);
    family(familyOf(m[1], families)).samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return [...families.values()];
}

/** A label value as written (`\\`, `\"`, `\n` escaped) back to the value itself; writeExposition escapes it once. */
const unescape = (v: string) => v.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function writeExposition(families: Family[]): string {
  const out: string[] = [];
  for (const f of families) {
    if (f.help !== undefined) out.push(`# HELP ${f.name} ${f.help}`);
    if (f.type !== undefined) out.push(`# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) {
      const labels = Object.entries(s.labels)
        .map(([k, v]) => `${k}="${escape(v)}"`)
        .join(',');
      out.push(`${s.name}${labels ? `{${labels}}` : ''} ${s.value}`);
    }
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** The families of several workers' expositions, one family each, every sample labelled `worker`. */
export function mergeWorkers(workers: { worker: string; text: string }[]): Family[] {
  const merged = new Map<string, Family>();
  for (const { worker, text } of workers) {
    for (const f of parseExposition(text)) {
      const into = merged.get(f.name) ?? { name: f.name, help: f.help, type: f.type, samples: [] };
      merged.set(f.name, into);
      for (const s of f.samples) into.samples.push({ ...s, labels: { worker, ...s.labels } });
    }
  }
  return [...merged.values()];
}
