/** The agreement report computed a slice at a time (the API's event loop is free between slices). */
import {
  agreementReport,
  agreementReportInSlices,
  type AgreementDocument,
  type AgreementReport,
} from './agreement-report';

/** A seeded generator (mulberry32): the same documents on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function documents(kind: 'CLASSES' | 'SPANS', n: number): AgreementDocument[] {
  const r = random(7);
  return Array.from({ length: n }, (_, i) => ({
    documentId: i + 1,
    filename: `d${i + 1}.txt`,
    length: 200,
    steps: [1, 2, 3].map((userId) => ({
      stepId: i * 3 + userId,
      userId,
      ...(kind === 'CLASSES'
        ? { classes: [1 + Math.floor(r() * 3)] }
        : {
            spans: [0, 1].map(() => {
              const start = Math.floor(r() * 150);
              return { label: r() < 0.5 ? 'PER' : 'LOC', start, end: start + 1 + Math.floor(r() * 40) };
            }),
          }),
    })),
  }));
}

function drive(kind: 'CLASSES' | 'SPANS', docs: AgreementDocument[], slice: number) {
  const steps = agreementReportInSlices(kind, docs, 0, slice);
  let stops = 0;
  let next = steps.next();
  while (!next.done) {
    stops++;
    next = steps.next();
  }
  return { report: next.value as AgreementReport, stops };
}

describe('agreementReportInSlices', () => {
  it.each(['CLASSES', 'SPANS'] as const)(
    'gives the %s report of the whole at once, stopping after every slice of documents',
    (kind) => {
      const docs = documents(kind, 100);
      const { report, stops } = drive(kind, docs, 10);
      expect(report).toEqual(agreementReport(kind, docs, 0));
      expect(report.documents).toBe(100);
      // 100 documents in slices of 10: at least 10 stops (and more before the whole-node figures)
      expect(stops).toBeGreaterThanOrEqual(10);
      expect(drive(kind, docs, 1000).stops).toBeLessThan(stops);
    },
  );
});
