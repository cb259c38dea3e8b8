/**
 * Inter-annotator agreement (issue 31 section 2; docs/api-agreement.md): pure functions over the annotators'
 * values, with no I/O.
 *
 * - Classes (CLF): Cohen's kappa of two coders (Cohen 1960), Fleiss' kappa of many (Fleiss 1971) and
 *   Krippendorff's alpha for nominal data with missing values (Krippendorff 2011, "Computing Krippendorff's
 *   Alpha-Reliability"). A unit is a document; a coder's value is the set of classes they chose, as one
 *   category (`categoryOfSet`), so single-label nodes get the textbook figures and multi-label nodes count an
 *   exact match of the set.
 * - Spans (SPAN): per label, pairwise F1 of two coders with exact match (same start, end and label) and
 *   overlap match (a span counts as matched when it overlaps a span of the same label of the other coder),
 *   and Krippendorff's unitizing alpha (Krippendorff 1995; the u-alpha of DKPro Agreement that INCEpTION
 *   shows) over the documents laid end to end as one continuum.
 *
 * Decisions:
 * - A figure that is undefined (no unit, or chance agreement equal to 1: every coder used one category) is
 *   null, not 0 or 1.
 * - Fleiss' kappa with units coded by different numbers of coders uses each unit's own count in its
 *   agreement (Fleiss's formula, generalised as DKPro does); with equal counts it is Fleiss's figure.
 * - Unitizing alpha needs one coder per position of the continuum: coder k of a document is its k-th finished
 *   step; a coder's overlapping spans of one label are merged into one unit (the measure requires units of one
 *   category by one coder not to overlap). As in DKPro, alpha is 0 when observed and expected disagreement are
 *   equal.
 */

export type Category = string | number;

/** The category of a set of choices (a multi-label coder's value): its members in order, joined. */
export function categoryOfSet(values: readonly Category[]): string {
  return [...new Set(values.map(String))].sort().join('\u001f');
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

/** Cohen's kappa of two coders over the units both coded (`[a's value, b's value]` per unit). */
export function cohenKappa(pairs: readonly (readonly [Category, Category])[]): number | null {
  const n = pairs.length;
  if (!n) return null;
  const a = new Map<Category, number>();
  const b = new Map<Category, number>();
  let agree = 0;
  for (const [x, y] of pairs) {
    a.set(x, (a.get(x) ?? 0) + 1);
    b.set(y, (b.get(y) ?? 0) + 1);
    if (x === y) agree++;
  }
  const po = agree / n;
  let pe = 0;
  for (const [c, na] of a) pe += (na / n) * ((b.get(c) ?? 0) / n);
  return ratio(po - pe, 1 - pe);
}

/** Fleiss' kappa over units, each the values its coders gave (units with fewer than two are left out). */
export function fleissKappa(units: readonly (readonly Category[])[]): number | null {
  const used = units.filter((u) => u.length >= 2);
  if (!used.length) return null;
  const totals = new Map<Category, number>();
  let all = 0;
  let agreement = 0;
  for (const u of used) {
    const counts = new Map<Category, number>();
    for (const v of u) counts.set(v, (counts.get(v) ?? 0) + 1);
    let same = 0;
    for (const [c, k] of counts) {
      same += k * (k - 1);
      totals.set(c, (totals.get(c) ?? 0) + k);
    }
    agreement += same / (u.length * (u.length - 1));
    all += u.length;
  }
  const po = agreement / used.length;
  let pe = 0;
  for (const k of totals.values()) pe += (k / all) ** 2;
  return ratio(po - pe, 1 - pe);
}

/**
 * Krippendorff's alpha for nominal data: units are the values their coders gave (missing values simply
 * absent); units with one value are not pairable and left out.
 */
export function krippendorffAlphaNominal(units: readonly (readonly Category[])[]): number | null {
  // coincidences: o[c][k] = sum over units of (pairs c-k in the unit) / (m_u - 1)
  const coincide = new Map<Category, Map<Category, number>>();
  const add = (c: Category, k: Category, w: number) => {
    let row = coincide.get(c);
    if (!row) coincide.set(c, (row = new Map()));
    row.set(k, (row.get(k) ?? 0) + w);
  };
  for (const u of units) {
    if (u.length < 2) continue;
    const w = 1 / (u.length - 1);
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j) add(u[i], u[j], w);
  }
  const nc = new Map<Category, number>();
  let n = 0;
  let disagree = 0;
  for (const [c, row] of coincide)
    for (const [k, o] of row) {
      nc.set(c, (nc.get(c) ?? 0) + o);
      n += o;
      if (c !== k) disagree += o;
    }
  if (n <= 1) return null;
  let expected = 0;
  for (const [c, a] of nc) for (const [k, b] of nc) if (c !== k) expected += a * b;
  if (expected === 0) return null;
  return 1 - ((n - 1) * disagree) / expected;
}

// --- spans ---

export interface Span {
  start: number;
  end: number;
  label: string;
}

export interface SpanPairCounts {
  /** spans of the label by the first and by the second coder */
  a: number;
  b: number;
  /** spans present in both (same start and end) */
  exact: number;
  /** spans of either coder overlapping a span of the other (counted on both sides) */
  overlapMatched: number;
}

const key = (s: Span) => `${s.start}:${s.end}`;
const overlaps = (x: Span, y: Span) => x.start < y.end && y.start < x.end;

/** The match counts of two coders' spans of one label in one document (duplicates of a coder count once). */
export function spanPairCounts(a: readonly Span[], b: readonly Span[], label: string): SpanPairCounts {
  const dedupe = (list: readonly Span[]) => {
    const seen = new Map<string, Span>();
    for (const s of list) if (s.label === label) seen.set(key(s), s);
    return [...seen.values()].sort((x, y) => x.start - y.start || x.end - y.end);
  };
  const sa = dedupe(a);
  const sb = dedupe(b);
  const bKeys = new Set(sb.map(key));
  const exact = sa.filter((s) => bKeys.has(key(s))).length;
  const matched = (from: Span[], to: Span[]) => {
    // both sorted by start: the candidates of a span are those starting before its end
    let count = 0;
    for (const s of from) if (to.some((t) => overlaps(s, t))) count++;
    return count;
  };
  return { a: sa.length, b: sb.length, exact, overlapMatched: matched(sa, sb) + matched(sb, sa) };
}

/** F1 from summed counts: exact 2·exact/(a+b), overlap overlapMatched/(a+b); null without any span. */
export function spanF1(c: SpanPairCounts): { exact: number | null; overlap: number | null } {
  const den = c.a + c.b;
  return { exact: ratio(2 * c.exact, den), overlap: ratio(c.overlapMatched, den) };
}

// --- unitizing alpha ---

export interface UnitizedUnit {
  coder: number;
  start: number;
  length: number;
  category: string;
}

/** A continuum [0, length) segmented by `coders` coders (0..coders-1). */
export interface UnitizingStudy {
  length: number;
  coders: number;
  units: readonly UnitizedUnit[];
}

interface Segment {
  start: number;
  length: number;
  unit: boolean;
}

/** The study's units by coder and category, grouped once per study (a node's continuum has 100,000s). */
const grouped = new WeakMap<UnitizingStudy, Map<string, UnitizedUnit[]>>();

function unitsByCoder(study: UnitizingStudy, coder: number, category: string): UnitizedUnit[] {
  let groups = grouped.get(study);
  if (!groups) {
    groups = new Map();
    for (const u of study.units) {
      const k = `${u.coder}\u0000${u.category}`;
      let list = groups.get(k);
      if (!list) groups.set(k, (list = []));
      list.push(u);
    }
    grouped.set(study, groups);
  }
  return groups.get(`${coder}\u0000${category}`) ?? [];
}

/** A coder's units of the category (overlapping ones merged), in order. */
function unitsOf(study: UnitizingStudy, coder: number, category: string): { start: number; end: number }[] {
  const list = unitsByCoder(study, coder, category)
    .filter((u) => u.length > 0)
    .map((u) => ({ start: u.start, end: u.start + u.length }))
    .sort((x, y) => x.start - y.start || x.end - y.end);
  const merged: { start: number; end: number }[] = [];
  for (const u of list) {
    const last = merged[merged.length - 1];
    if (last && u.start < last.end) last.end = Math.max(last.end, u.end);
    else merged.push({ ...u });
  }
  return merged;
}

/** The coder's partition of the continuum into the category's units and the gaps between them. */
function segmentsOf(study: UnitizingStudy, coder: number, category: string): Segment[] {
  const out: Segment[] = [];
  let pos = 0;
  for (const u of unitsOf(study, coder, category)) {
    if (u.start > pos) out.push({ start: pos, length: u.start - pos, unit: false });
    out.push({ start: u.start, length: u.end - u.start, unit: true });
    pos = u.end;
  }
  if (pos < study.length) out.push({ start: pos, length: study.length - pos, unit: false });
  return out;
}

/** Krippendorff's (1995) distance of two segments of two coders. */
function distance(g: Segment, h: Segment): number {
  const begin = g.start - h.start;
  const lengths = g.length - h.length;
  if (g.unit && h.unit && -g.length < begin && begin < h.length) return begin ** 2 + (begin + lengths) ** 2;
  if (g.unit && !h.unit && -lengths >= begin && begin >= 0) return g.length ** 2;
  if (!g.unit && h.unit && -lengths <= begin && begin <= 0) return h.length ** 2;
  return 0;
}

/** Observed disagreement of the category: the distances of every two coders' intersecting segments. */
export function unitizingObserved(study: UnitizingStudy, category: string): number {
  const { length: L, coders: R } = study;
  const segments = Array.from({ length: R }, (_, r) => segmentsOf(study, r, category));
  let sum = 0;
  for (let r1 = 0; r1 < R; r1++)
    for (let r2 = r1 + 1; r2 < R; r2++) {
      const s1 = segments[r1];
      const s2 = segments[r2];
      let i = 0;
      let j = 0;
      while (i < s1.length && j < s2.length) {
        sum += distance(s1[i], s2[j]);
        const e1 = s1[i].start + s1[i].length;
        const e2 = s2[j].start + s2[j].length;
        if (e1 <= e2) i++;
        if (e2 <= e1) j++;
      }
    }
  return (2 * sum) / (R * (R - 1) * L * L);
}

/**
 * Expected disagreement of the category over all the unitizations the coders' units and gaps allow. The sum
 * over the gaps at least as long as a unit, of (gap - unit + 1), is read from prefix sums of the sorted gaps
 * (a node's continuum holds tens of thousands of units and gaps).
 */
export function unitizingExpected(study: UnitizingStudy, category: string): number {
  const { length: L, coders: R } = study;
  const units: number[] = [];
  const gaps: number[] = [];
  for (let r = 0; r < R; r++)
    for (const s of segmentsOf(study, r, category)) (s.unit ? units : gaps).push(s.length);
  gaps.sort((x, y) => x - y);
  // suffix[i]: the sum of gaps[i..]
  const suffix = new Array<number>(gaps.length + 1).fill(0);
  for (let i = gaps.length - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + gaps[i];
  const firstAtLeast = (l: number) => {
    let lo = 0;
    let hi = gaps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (gaps[mid] < l) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const nc = units.length;
  let squared = 0;
  for (const l of units) squared += l * (l - 1);
  let sum = 0;
  for (const l of units) {
    sum += ((nc - 1) * (2 * l ** 3 - 3 * l ** 2 + l)) / 3;
    const i = firstAtLeast(l);
    const fits = suffix[i] - (l - 1) * (gaps.length - i);
    sum += l * l * fits;
  }
  const den = R * L * (R * L - 1) - squared;
  return den === 0 ? 0 : ((2 / L) * sum) / den;
}

/** Krippendorff's unitizing alpha of the category; null when nothing can disagree (no unit of it). */
export function unitizingAlpha(study: UnitizingStudy, category: string): number | null {
  if (study.coders < 2 || study.length <= 0) return null;
  if (!study.units.some((u) => u.category === category && u.length > 0)) return null;
  const dO = unitizingObserved(study, category);
  const dE = unitizingExpected(study, category);
  if (dO === dE) return 0;
  if (dE === 0) return null;
  return 1 - dO / dE;
}
