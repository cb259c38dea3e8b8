import {
  categoryOfSet,
  cohenKappa,
  fleissKappa,
  krippendorffAlphaNominal,
  spanF1,
  spanPairCounts,
  unitizingAlpha,
  unitizingExpected,
  unitizingObserved,
  type Category,
  type Span,
  type UnitizingStudy,
} from './agreement';

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (rnd: () => number, n: number) => Math.floor(rnd() * n);

describe("Krippendorff's alpha (nominal)", () => {
  it("reproduces Krippendorff's own reliability-data example: 4 coders, 12 units with gaps, alpha 0.743", () => {
    // Krippendorff, K. (2011). Computing Krippendorff's Alpha-Reliability. Annenberg School for
    // Communication, University of Pennsylvania, https://repository.upenn.edu/asc_papers/43, section C
    // ("nominal data, any number of observers, missing data"): alpha = 0.743.
    const coders: (number | null)[][] = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
      [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
    ];
    const units = coders[0].map((_, u) => coders.map((c) => c[u]).filter((v): v is number => v !== null));
    expect(krippendorffAlphaNominal(units)).toBeCloseTo(0.743, 3);
  });

  it('is null without pairable values and 1 for perfect agreement over several categories', () => {
    expect(krippendorffAlphaNominal([[1], [2]])).toBeNull();
    expect(
      krippendorffAlphaNominal([
        [1, 1],
        [1, 1],
      ]),
    ).toBeNull();
    expect(
      krippendorffAlphaNominal([
        [1, 1],
        [2, 2, 2],
      ]),
    ).toBe(1);
  });
});

describe("Cohen's kappa", () => {
  it("reproduces Cohen's (1960) example of 200 units, 3 categories: po 0.70, pe 0.41, kappa 0.492", () => {
    // Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational and Psychological
    // Measurement 20(1), 37-46, p. 45 (the table of 200 judgements by two judges).
    const cells: [number, number, number][] = [
      [88, 1, 1],
      [14, 1, 2],
      [18, 1, 3],
      [10, 2, 1],
      [40, 2, 2],
      [10, 2, 3],
      [2, 3, 1],
      [6, 3, 2],
      [12, 3, 3],
    ];
    const pairs = cells.flatMap(([n, a, b]) => Array.from({ length: n }, () => [a, b] as const));
    expect(pairs).toHaveLength(200);
    expect(cohenKappa(pairs)).toBeCloseTo(0.492, 3);
  });

  it('is null when chance agreement is certain', () => {
    expect(
      cohenKappa([
        ['x', 'x'],
        ['x', 'x'],
      ]),
    ).toBeNull();
    expect(cohenKappa([])).toBeNull();
  });
});

describe("Fleiss' kappa", () => {
  it("reproduces Fleiss's (1971) example of 30 subjects, 6 raters, 5 categories: kappa 0.430", () => {
    // Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters. Psychological Bulletin
    // 76(5), 378-382, table 1 (p. 379): P = 0.556, Pe = 0.220, kappa = 0.430.
    const units = [
      [4, 4, 4, 4, 4, 4],
      [2, 2, 2, 5, 5, 5],
      [2, 3, 3, 3, 3, 5],
      [5, 5, 5, 5, 5, 5],
      [2, 2, 2, 4, 4, 4],
      [1, 1, 3, 3, 3, 3],
      [3, 3, 3, 3, 5, 5],
      [1, 1, 3, 3, 3, 4],
      [1, 1, 4, 4, 4, 4],
      [5, 5, 5, 5, 5, 5],
      [1, 4, 4, 4, 4, 4],
      [1, 2, 4, 4, 4, 4],
      [2, 2, 2, 3, 3, 3],
      [1, 4, 4, 4, 4, 4],
      [2, 2, 4, 4, 4, 5],
      [3, 3, 3, 3, 3, 5],
      [1, 1, 1, 4, 5, 5],
      [1, 1, 1, 1, 1, 2],
      [2, 2, 4, 4, 4, 4],
      [1, 3, 3, 5, 5, 5],
      [5, 5, 5, 5, 5, 5],
      [2, 4, 4, 4, 4, 4],
      [2, 2, 4, 5, 5, 5],
      [1, 1, 4, 4, 4, 4],
      [1, 4, 4, 4, 4, 5],
      [2, 2, 2, 2, 2, 4],
      [1, 1, 1, 1, 5, 5],
      [2, 2, 4, 4, 4, 4],
      [1, 3, 3, 3, 3, 3],
      [5, 5, 5, 5, 5, 5],
    ];
    expect(fleissKappa(units)).toBeCloseTo(0.43, 3);
  });
});

describe("Krippendorff's unitizing alpha", () => {
  // Krippendorff, K. (1995). On the reliability of unitizing contiguous data. Sociological Methodology 25,
  // 47-76, p. 57: four pairs of coders (A-D) segmenting a continuum of 24, each pair with its own category.
  // The observed disagreements are the paper's; the paper's expected disagreements carry a small error that
  // DKPro Agreement (Krippendorff1995Test) documents, so the alphas are checked as DKPro does, within 0.02
  // of the published 0.553, -0.926, 0.679, 0.066 on the continuum stretched to 1,200.
  const example = (stretch: number): UnitizingStudy => {
    const u = (start: number, length: number, coder: number, category: string) => ({
      start: Math.floor(start * stretch),
      length: Math.floor(length * stretch),
      coder,
      category,
    });
    return {
      length: Math.floor(24 * stretch),
      coders: 2,
      units: [
        u(2, 8, 0, 'A'),
        u(14, 6, 0, 'A'),
        u(4, 4, 1, 'A'),
        u(15, 2, 1, 'A'),
        u(0, 18, 0, 'B'),
        u(0, 2, 1, 'B'),
        u(2, 1, 1, 'B'),
        u(3, 1, 1, 'B'),
        u(4, 1, 1, 'B'),
        u(5, 1, 1, 'B'),
        u(6, 3, 1, 'B'),
        u(9, 1, 1, 'B'),
        u(2, 6, 0, 'C'),
        u(10, 2, 0, 'C'),
        u(14, 4, 0, 'C'),
        u(20, 2, 0, 'C'),
        u(0, 2, 1, 'C'),
        u(4, 4, 1, 'C'),
        u(10, 4, 1, 'C'),
        u(16, 2, 1, 'C'),
        u(20, 2, 1, 'C'),
        u(0, 2, 0, 'D'),
        u(2, 8, 0, 'D'),
        u(10, 4, 0, 'D'),
        u(14, 6, 0, 'D'),
        u(20, 4, 0, 'D'),
        u(0, 4, 1, 'D'),
        u(4, 4, 1, 'D'),
        u(8, 7, 1, 'D'),
        u(15, 2, 1, 'D'),
        u(17, 7, 1, 'D'),
      ],
    };
  };

  it('reproduces the observed disagreements of Krippendorff (1995)', () => {
    const s = example(1);
    expect(unitizingObserved(s, 'A')).toBeCloseTo(0.03125, 5);
    expect(unitizingObserved(s, 'C')).toBeCloseTo(0.02777, 4);
    // B and D: adjacent units of one coder; the paper treats them as separate units, so do we (no merge of
    // units that only touch)
    expect(unitizingObserved(s, 'B')).toBeCloseTo(2.26736, 5);
    expect(unitizingObserved(s, 'D')).toBeCloseTo(0.38715, 5);
  });

  it('gives the published alphas', () => {
    const s = example(50);
    expect(Math.abs(unitizingAlpha(s, 'A')! - 0.553)).toBeLessThan(0.02);
    expect(Math.abs(unitizingAlpha(s, 'B')! + 0.926)).toBeLessThan(0.02);
    expect(Math.abs(unitizingAlpha(s, 'C')! - 0.679)).toBeLessThan(0.02);
    expect(Math.abs(unitizingAlpha(s, 'D')! - 0.066)).toBeLessThan(0.02);
  });

  it('is 1 for identical segmentations and null without a unit of the category', () => {
    const same: UnitizingStudy = {
      length: 100,
      coders: 3,
      units: [0, 1, 2].flatMap((coder) => [
        { coder, start: 10, length: 5, category: 'X' },
        { coder, start: 40, length: 12, category: 'X' },
      ]),
    };
    expect(unitizingAlpha(same, 'X')).toBeCloseTo(1, 10);
    expect(unitizingAlpha(same, 'Y')).toBeNull();
  });
});

describe('span F1', () => {
  it('counts exact and overlapping matches per label', () => {
    const a: Span[] = [
      { start: 0, end: 5, label: 'PER' },
      { start: 10, end: 15, label: 'PER' },
      { start: 20, end: 25, label: 'LOC' },
    ];
    const b: Span[] = [
      { start: 0, end: 5, label: 'PER' },
      { start: 12, end: 18, label: 'PER' },
      { start: 30, end: 35, label: 'PER' },
      { start: 20, end: 25, label: 'ORG' },
    ];
    const per = spanPairCounts(a, b, 'PER');
    expect(per).toEqual({ a: 2, b: 3, exact: 1, overlapMatched: 4 });
    expect(spanF1(per)).toEqual({ exact: 0.4, overlap: 0.8 });
    expect(spanF1(spanPairCounts(a, b, 'LOC'))).toEqual({ exact: 0, overlap: 0 });
    expect(spanF1(spanPairCounts([], [], 'LOC'))).toEqual({ exact: null, overlap: null });
  });
});

// --- an independent, straightforward computation of each figure on random data ---

function naiveAlpha(units: Category[][]): number {
  // Krippendorff (2011) by pairable values: Do over pairs within units, De over all pairs of pairable values
  const pairable = units.filter((u) => u.length > 1);
  const values = pairable.flat();
  const n = values.length;
  let dO = 0;
  for (const u of pairable) {
    let d = 0;
    for (let i = 0; i < u.length; i++) for (let j = 0; j < u.length; j++) if (i !== j && u[i] !== u[j]) d++;
    dO += d / (u.length - 1);
  }
  let dE = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && values[i] !== values[j]) dE++;
  return 1 - dO / n / (dE / (n * (n - 1)));
}

function naiveCohen(pairs: [Category, Category][]): number {
  const cats = [...new Set(pairs.flat())];
  const n = pairs.length;
  const table = cats.map((x) => cats.map((y) => pairs.filter(([a, b]) => a === x && b === y).length / n));
  const po = cats.reduce<number>((s, _, i) => s + table[i][i], 0);
  const rows = table.map((r) => r.reduce((s, v) => s + v, 0));
  const cols = cats.map((_, j) => table.reduce<number>((s, r) => s + r[j], 0));
  const pe = rows.reduce((s, r, i) => s + r * cols[i], 0);
  return (po - pe) / (1 - pe);
}

function naiveFleiss(units: Category[][]): number {
  // equal raters per unit: the textbook n_ij table
  const m = units[0].length;
  const cats = [...new Set(units.flat())];
  const nij = units.map((u) => cats.map((c) => u.filter((v) => v === c).length));
  const P = nij.map((row) => (row.reduce((s, k) => s + k * k, 0) - m) / (m * (m - 1)));
  const pBar = P.reduce((s, v) => s + v, 0) / units.length;
  const pj = cats.map((_, j) => nij.reduce((s, r) => s + r[j], 0) / (units.length * m));
  const pe = pj.reduce((s, p) => s + p * p, 0);
  return (pBar - pe) / (1 - pe);
}

/** Unitizing disagreements by brute force: every pair of segments, the expected sum over every unit and gap. */
function naiveUnitizing(study: UnitizingStudy, category: string): { dO: number; dE: number } {
  const segs = Array.from({ length: study.coders }, (_, r) => {
    const units = study.units
      .filter((u) => u.coder === r && u.category === category)
      .sort((x, y) => x.start - y.start);
    const out: { b: number; l: number; unit: boolean }[] = [];
    let pos = 0;
    for (const u of units) {
      if (u.start > pos) out.push({ b: pos, l: u.start - pos, unit: false });
      out.push({ b: u.start, l: u.length, unit: true });
      pos = u.start + u.length;
    }
    if (pos < study.length) out.push({ b: pos, l: study.length - pos, unit: false });
    return out;
  });
  const d = (g: { b: number; l: number; unit: boolean }, h: { b: number; l: number; unit: boolean }) => {
    const ge = g.b + g.l;
    const he = h.b + h.l;
    if (g.unit && h.unit && g.b < he && h.b < ge) return (g.b - h.b) ** 2 + (ge - he) ** 2;
    if (g.unit && !h.unit && h.b <= g.b && ge <= he) return g.l ** 2;
    if (!g.unit && h.unit && g.b <= h.b && he <= ge) return h.l ** 2;
    return 0;
  };
  const R = study.coders;
  const L = study.length;
  let sum = 0;
  for (let i = 0; i < R; i++)
    for (let j = 0; j < R; j++) if (i !== j) for (const g of segs[i]) for (const h of segs[j]) sum += d(g, h);
  const dO = sum / (R * (R - 1) * L * L);
  const all = segs.flat();
  const units = all.filter((s) => s.unit);
  const gaps = all.filter((s) => !s.unit);
  let e = 0;
  for (const u of units) {
    e += ((units.length - 1) * (2 * u.l ** 3 - 3 * u.l ** 2 + u.l)) / 3;
    for (const g of gaps) if (g.l >= u.l) e += u.l ** 2 * (g.l - u.l + 1);
  }
  const den = R * L * (R * L - 1) - units.reduce((s, u) => s + u.l * (u.l - 1), 0);
  return { dO, dE: ((2 / L) * e) / den };
}

describe('agreement against an independent computation on random data', () => {
  it('agrees on nominal alpha, Cohen and Fleiss for 200 random studies', () => {
    const rnd = random(31);
    for (let t = 0; t < 200; t++) {
      const cats = 2 + pick(rnd, 4);
      const coders = 2 + pick(rnd, 4);
      const n = 5 + pick(rnd, 40);
      // skewed draws so coders agree more than chance
      const truth = Array.from({ length: n }, () => pick(rnd, cats));
      const full = truth.map((v) =>
        Array.from({ length: coders }, () => (rnd() < 0.7 ? v : pick(rnd, cats))),
      );
      const gappy = full.map((u) => u.filter(() => rnd() < 0.8));
      const alpha = krippendorffAlphaNominal(gappy);
      if (alpha !== null) expect(alpha).toBeCloseTo(naiveAlpha(gappy), 9);
      const pairs = full.map((u) => [u[0], u[1]] as [Category, Category]);
      const kappa = cohenKappa(pairs);
      if (kappa !== null) expect(kappa).toBeCloseTo(naiveCohen(pairs), 9);
      const fleiss = fleissKappa(full);
      if (fleiss !== null) expect(fleiss).toBeCloseTo(naiveFleiss(full), 9);
    }
  });

  it('agrees on unitizing alpha for 100 random segmentations', () => {
    const rnd = random(1995);
    for (let t = 0; t < 100; t++) {
      const L = 50 + pick(rnd, 300);
      const coders = 2 + pick(rnd, 3);
      const units: UnitizingStudy['units'][number][] = [];
      for (let c = 0; c < coders; c++) {
        let pos = pick(rnd, 10);
        while (pos < L - 2) {
          const length = 1 + pick(rnd, Math.min(20, L - pos - 1));
          if (rnd() < 0.6) units.push({ coder: c, start: pos, length, category: 'X' });
          pos += length + pick(rnd, 15);
        }
      }
      const study = { length: L, coders, units };
      if (!units.length) continue;
      const naive = naiveUnitizing(study, 'X');
      expect(unitizingObserved(study, 'X')).toBeCloseTo(naive.dO, 9);
      expect(unitizingExpected(study, 'X')).toBeCloseTo(naive.dE, 9);
    }
  });

  it('agrees on span F1 with a count over every pair of spans', () => {
    const rnd = random(7);
    for (let t = 0; t < 200; t++) {
      const spans = (): Span[] =>
        Array.from({ length: pick(rnd, 8) }, () => {
          const start = pick(rnd, 60);
          return { start, end: start + 1 + pick(rnd, 10), label: rnd() < 0.5 ? 'A' : 'B' };
        });
      const a = spans();
      const b = spans();
      const uniq = (l: Span[]) =>
        l.filter(
          (s, i) =>
            s.label === 'A' &&
            l.findIndex((x) => x.label === 'A' && x.start === s.start && x.end === s.end) === i,
        );
      const ua = uniq(a);
      const ub = uniq(b);
      const exact = ua.filter((s) => ub.some((x) => x.start === s.start && x.end === s.end)).length;
      const ov = (s: Span, l: Span[]) => l.some((x) => Math.max(s.start, x.start) < Math.min(s.end, x.end));
      const matched = ua.filter((s) => ov(s, ub)).length + ub.filter((s) => ov(s, ua)).length;
      const f = spanF1(spanPairCounts(a, b, 'A'));
      const den = ua.length + ub.length;
      expect(f.exact).toEqual(den ? (2 * exact) / den : null);
      expect(f.overlap).toEqual(den ? matched / den : null);
    }
  });

  it("treats a coder's set of classes as one category", () => {
    expect(categoryOfSet(['b', 'a', 'b'])).toBe(categoryOfSet(['a', 'b']));
    expect(categoryOfSet([])).toBe('');
  });
});
