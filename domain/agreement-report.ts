/**
 * The agreement of a multiprocessed node's annotators over a date range (issue 31 section 2;
 * docs/api-agreement.md), from the finished steps of its documents: what `GET api/nodes/{id}/agreement`
 * answers. Pure; the measures are ./agreement.ts.
 *
 * Decisions:
 * - A document counts when at least two steps of the node are finished (DONE or ACCEPTED); the others are
 *   left out and counted (`leftOut`).
 * - An annotator is the step's assignee; Cohen's kappa is per pair of people over the documents both finished
 *   (a step without an assignee counts in Fleiss and alpha, not in a pair).
 * - Only a step's own tags are its annotator's (tags written by no step, e.g. a model's, are nobody's).
 * - A document's own agreement (the list of the lowest first): classes, the share of annotator pairs that chose
 *   the same set; spans, the exact-match F1 over all labels averaged over pairs (1 when nobody tagged).
 * - Unitizing alpha lays the documents end to end; coder k is a document's k-th finished step, over as many
 *   coders as the document with the fewest has.
 */
import {
  categoryOfSet,
  cohenKappa,
  fleissKappa,
  krippendorffAlphaNominal,
  spanF1,
  spanPairCounts,
  unitizingAlpha,
  type Span,
  type SpanPairCounts,
  type UnitizedUnit,
} from './agreement';
import { csvCell, dayOf, monthBefore } from './export';

export const AGREEMENT_LOWEST = 20;

export interface AgreementStep {
  stepId: number;
  userId: number | null;
  /** CLF: the step's classifier type ids */
  classes?: readonly number[];
  /** SPAN: the step's text spans */
  spans?: readonly Span[];
}

export interface AgreementDocument {
  documentId: number;
  filename: string;
  /** the text's length (SPAN), the continuum of unitizing alpha */
  length?: number;
  /** finished steps in order, at least two */
  steps: readonly AgreementStep[];
}

export interface AgreementReport {
  documents: number;
  leftOut: number;
  cohenKappa: { userA: number; userB: number; value: number | null; documents: number }[] | null;
  fleissKappa: number | null;
  krippendorffAlpha: number | null;
  spanF1: { label: string; exact: number | null; overlap: number | null }[] | null;
  unitizingAlpha: { label: string; value: number | null }[] | null;
  /** the documents with the lowest agreement first (at most AGREEMENT_LOWEST) */
  lowest: { documentId: number; filename: string; value: number }[];
}

const pairsOf = <T>(list: readonly T[]): [T, T][] =>
  list.flatMap((a, i) => list.slice(i + 1).map((b) => [a, b] as [T, T]));

function lowestFirst(rows: AgreementReport['lowest']): AgreementReport['lowest'] {
  return [...rows]
    .sort((a, b) => a.value - b.value || a.documentId - b.documentId)
    .slice(0, AGREEMENT_LOWEST);
}

/** How many documents a slice of the report holds between two turns of the caller's event loop. */
export const AGREEMENT_SLICE = 250;

function* classesReport(
  docs: readonly AgreementDocument[],
  leftOut: number,
  slice: number,
): Generator<void, AgreementReport> {
  const valueOf = (s: AgreementStep) => categoryOfSet(s.classes ?? []);
  const byPair = new Map<string, { userA: number; userB: number; pairs: [string, string][] }>();
  const lowest: AgreementReport['lowest'] = [];
  let done = 0;
  for (const d of docs) {
    if (++done % slice === 0) yield;
    const people = new Map<number, string>();
    for (const s of d.steps) if (s.userId !== null && !people.has(s.userId)) people.set(s.userId, valueOf(s));
    const users = [...people.keys()].sort((a, b) => a - b);
    for (const [a, b] of pairsOf(users)) {
      const k = `${a}:${b}`;
      let entry = byPair.get(k);
      if (!entry) byPair.set(k, (entry = { userA: a, userB: b, pairs: [] }));
      entry.pairs.push([people.get(a)!, people.get(b)!]);
    }
    const values = d.steps.map(valueOf);
    const pairs = pairsOf(values);
    lowest.push({
      documentId: d.documentId,
      filename: d.filename,
      value: pairs.filter(([a, b]) => a === b).length / pairs.length,
    });
  }
  const units = docs.map((d) => d.steps.map(valueOf));
  yield;
  const cohen = [...byPair.values()]
    .sort((x, y) => x.userA - y.userA || x.userB - y.userB)
    .map((p) => ({
      userA: p.userA,
      userB: p.userB,
      value: cohenKappa(p.pairs),
      documents: p.pairs.length,
    }));
  yield;
  const fleiss = fleissKappa(units);
  yield;
  return {
    documents: docs.length,
    leftOut,
    cohenKappa: cohen,
    fleissKappa: fleiss,
    krippendorffAlpha: krippendorffAlphaNominal(units),
    spanF1: null,
    unitizingAlpha: null,
    lowest: lowestFirst(lowest),
  };
}

function* spansReport(
  docs: readonly AgreementDocument[],
  leftOut: number,
  slice: number,
): Generator<void, AgreementReport> {
  const labels = [
    ...new Set(docs.flatMap((d) => d.steps.flatMap((s) => (s.spans ?? []).map((x) => x.label)))),
  ].sort();
  const totals = new Map<string, SpanPairCounts>(
    labels.map((l) => [l, { a: 0, b: 0, exact: 0, overlapMatched: 0 }]),
  );
  const lowest: AgreementReport['lowest'] = [];
  const coders = docs.length ? Math.min(...docs.map((d) => d.steps.length)) : 0;
  const units: UnitizedUnit[] = [];
  let offset = 0;
  let done = 0;
  for (const d of docs) {
    if (++done % slice === 0) yield;
    let docScore = 0;
    // each step's spans by label, once (a node has 10,000s of documents)
    const byLabel = new Map<AgreementStep, Map<string, Span[]>>();
    for (const st of d.steps) {
      const m = new Map<string, Span[]>();
      for (const x of st.spans ?? []) {
        const list = m.get(x.label);
        if (list) list.push(x);
        else m.set(x.label, [x]);
      }
      byLabel.set(st, m);
    }
    const pairs = pairsOf(d.steps);
    for (const [x, y] of pairs) {
      let exact = 0;
      let all = 0;
      const xs = byLabel.get(x)!;
      const ys = byLabel.get(y)!;
      for (const label of labels) {
        const xl = xs.get(label);
        const yl = ys.get(label);
        if (!xl && !yl) continue;
        const c = spanPairCounts(xl ?? [], yl ?? [], label);
        const t = totals.get(label)!;
        t.a += c.a;
        t.b += c.b;
        t.exact += c.exact;
        t.overlapMatched += c.overlapMatched;
        exact += c.exact;
        all += c.a + c.b;
      }
      docScore += all ? (2 * exact) / all : 1;
    }
    lowest.push({ documentId: d.documentId, filename: d.filename, value: docScore / pairs.length });
    const spanEnd = Math.max(0, ...d.steps.flatMap((s) => (s.spans ?? []).map((x) => x.end)));
    const length = Math.max(d.length ?? 0, spanEnd);
    d.steps.slice(0, coders).forEach((s, coder) => {
      for (const x of s.spans ?? [])
        if (x.end > x.start && x.start >= 0)
          units.push({ coder, start: offset + x.start, length: x.end - x.start, category: x.label });
    });
    offset += length;
  }
  const study = { length: offset, coders, units };
  const alphas: { label: string; value: number | null }[] = [];
  for (const label of labels) {
    yield; // each label's alpha reads the whole continuum
    alphas.push({ label, value: unitizingAlpha(study, label) });
  }
  return {
    documents: docs.length,
    leftOut,
    cohenKappa: null,
    fleissKappa: null,
    krippendorffAlpha: null,
    spanF1: labels.map((label) => ({ label, ...spanF1(totals.get(label)!) })),
    unitizingAlpha: alphas,
    lowest: lowestFirst(lowest),
  };
}

/**
 * The report of a CLF node (classes) or a SPAN node (spans; LEXICON nodes' tags are spans too), a slice at a
 * time: the generator stops after every `slice` documents and before each whole-node figure, so a caller on a
 * shared event loop (the API) gives other requests a turn there; it returns the report.
 */
export function agreementReportInSlices(
  kind: 'CLASSES' | 'SPANS',
  docs: readonly AgreementDocument[],
  leftOut: number,
  slice = AGREEMENT_SLICE,
): Generator<void, AgreementReport> {
  const used = docs.filter((d) => d.steps.length >= 2);
  const left = leftOut + docs.length - used.length;
  return kind === 'CLASSES' ? classesReport(used, left, slice) : spansReport(used, left, slice);
}

/** The report at once (tests, the bench's computation alone). */
export function agreementReport(
  kind: 'CLASSES' | 'SPANS',
  docs: readonly AgreementDocument[],
  leftOut: number,
): AgreementReport {
  const steps = agreementReportInSlices(kind, docs, leftOut);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

// --- the request ---

const K = 'soaApp.nodePanel.agreement.errors';

export interface AgreementViolation {
  field: 'id' | 'from' | 'to';
  code: 'Pattern';
  key: string;
}

/** The kind of agreement a node's type has: classes (CLF) or spans (SPAN, LEXICON); null for the others. */
export const agreementKindOf = (activityType: string): 'CLASSES' | 'SPANS' | null =>
  activityType === 'CLF' ? 'CLASSES' : activityType === 'SPAN' || activityType === 'LEXICON' ? 'SPANS' : null;

/**
 * The request's node kind and days: `from`/`to` as `YYYY-MM-DD` (UTC days, `to` included), default the month
 * up to today; no longer limit than the data (an annotation project runs for months).
 */
export function planAgreement(q: {
  activityType: string;
  from?: string;
  to?: string;
  today: string;
}):
  | { plan: { kind: 'CLASSES' | 'SPANS'; range: { from: string; to: string } } }
  | { violations: AgreementViolation[] } {
  const violations: AgreementViolation[] = [];
  const kind = agreementKindOf(q.activityType);
  if (!kind) violations.push({ field: 'id', code: 'Pattern', key: `${K}.notMultiprocessed` });
  const to = q.to || q.today;
  const from = q.from || monthBefore(to);
  const fromDay = dayOf(from);
  const toDay = dayOf(to);
  if (fromDay === null) violations.push({ field: 'from', code: 'Pattern', key: `${K}.dateInvalid` });
  if (toDay === null) violations.push({ field: 'to', code: 'Pattern', key: `${K}.dateInvalid` });
  if (fromDay !== null && toDay !== null && fromDay > toDay)
    violations.push({ field: 'from', code: 'Pattern', key: `${K}.dateOrder` });
  if (violations.length || !kind) return { violations };
  return { plan: { kind, range: { from, to } } };
}

/**
 * The figures as CSV (the screen's download): one line per figure, `section, name, other, value, documents`;
 * names are users' text, neutralised like the export's cells (domain/export.ts csvCell), numbers as they are.
 */
export function agreementCsv(report: AgreementReport, loginOf: (userId: number) => string): string {
  const line = (values: unknown[]) =>
    values.map((v) => (typeof v === 'number' ? String(v) : csvCell(v, ','))).join(',') + '\r\n';
  let out = line(['section', 'name', 'other', 'value', 'documents']);
  out += line(['overall', 'documents', '', report.documents, '']);
  out += line(['overall', 'leftOut', '', report.leftOut, '']);
  if (report.fleissKappa !== undefined && report.cohenKappa) {
    out += line(['overall', 'fleissKappa', '', report.fleissKappa, '']);
    out += line(['overall', 'krippendorffAlpha', '', report.krippendorffAlpha, '']);
    for (const k of report.cohenKappa)
      out += line(['cohenKappa', loginOf(k.userA), loginOf(k.userB), k.value, k.documents]);
  }
  for (const f of report.spanF1 ?? []) {
    out += line(['spanF1Exact', f.label, '', f.exact, '']);
    out += line(['spanF1Overlap', f.label, '', f.overlap, '']);
  }
  for (const u of report.unitizingAlpha ?? []) out += line(['unitizingAlpha', u.label, '', u.value, '']);
  for (const d of report.lowest) out += line(['document', d.filename, String(d.documentId), d.value, '']);
  return out;
}
