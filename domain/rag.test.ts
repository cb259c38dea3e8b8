import {
  BM25_B,
  BM25_K1,
  DEFAULT_RAG_TEMPLATE,
  RAG_TEMPLATE_ERROR,
  bm25Idf,
  bm25Term,
  candidateTerms,
  cosine,
  ragDocumentsText,
  ragTemplateRule,
  ragQueryDefaults,
  ragQueryViolations,
  rrfFuse,
  selectMatches,
  type ScoredChunk,
} from './rag';

describe('RAG template rule', () => {
  it('needs both wildcards in a non-empty template', () => {
    expect(ragTemplateRule(DEFAULT_RAG_TEMPLATE)).toBeNull();
    expect(ragTemplateRule('Q: ${process.rag.input} D: ${process.rag.documents}')).toBeNull();
    for (const bad of ['', '   ', null, 'Q: ${process.rag.input}', 'D: ${process.rag.documents}'])
      expect(ragTemplateRule(bad)?.key).toBe(RAG_TEMPLATE_ERROR);
  });
});

describe('BM25', () => {
  it('weighs rare terms up and long chunks down', () => {
    expect(bm25Idf(100, 1)).toBeGreaterThan(bm25Idf(100, 50));
    expect(bm25Idf(100, 100)).toBeGreaterThan(0);
    const idf = bm25Idf(10, 2);
    expect(bm25Term(1, 10, 20, idf)).toBeGreaterThan(bm25Term(1, 40, 20, idf));
    expect(bm25Term(3, 20, 20, idf)).toBeGreaterThan(bm25Term(1, 20, 20, idf));
  });

  it('matches the textbook formula', () => {
    const idf = Math.log(1 + (1000 - 10 + 0.5) / (10 + 0.5));
    expect(bm25Idf(1000, 10)).toBeCloseTo(idf, 12);
    const expected = (idf * 2 * (BM25_K1 + 1)) / (2 + BM25_K1 * (1 - BM25_B + (BM25_B * 30) / 15));
    expect(bm25Term(2, 30, 15, idf)).toBeCloseTo(expected, 12);
  });

  it('picks candidate terms rarest first within the postings budget', () => {
    const terms = [
      { lexeme: 'the', df: 9000 },
      { lexeme: 'zebra', df: 3 },
      { lexeme: 'colour', df: 400 },
      { lexeme: 'absent', df: 0 },
    ];
    expect(candidateTerms(terms, 1000)).toEqual(['zebra', 'colour']);
    expect(candidateTerms(terms, 100_000)).toEqual(['zebra', 'colour', 'the']);
    // the rarest is taken even over the budget
    expect(candidateTerms([{ lexeme: 'the', df: 9000 }], 10)).toEqual(['the']);
  });
});

describe('fusion and selection', () => {
  it('fuses by reciprocal rank with k = 60', () => {
    const fused = rrfFuse([
      [1, 2, 3],
      [3, 1],
    ]);
    expect(fused.map((f) => f.id)).toEqual([1, 3, 2]);
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 12);
  });

  it('measures cosine similarity', () => {
    expect(cosine([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 1])).toBeCloseTo(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });

  const chunk = (id: number, docId: number, raw: number): ScoredChunk => ({
    id,
    docId,
    filename: `d${docId}.txt`,
    text: `c${id}`,
    startOffset: 0,
    endOffset: 2,
    raw,
  });

  it('normalises by the best, applies the threshold, keeps topK chunks grouped by document', () => {
    const chunks = [chunk(1, 10, 2), chunk(2, 20, 8), chunk(3, 10, 6), chunk(4, 30, 1)];
    const all = selectMatches(chunks, 10, 0);
    expect(all.map((d) => d.docId)).toEqual([20, 10, 30]);
    expect(all[1].chunks.map((c) => [c.id, c.score])).toEqual([
      [3, 0.75],
      [1, 0.25],
    ]);
    expect(selectMatches(chunks, 2, 0).flatMap((d) => d.chunks.map((c) => c.id))).toEqual([2, 3]);
    expect(selectMatches(chunks, 10, 0.5).flatMap((d) => d.chunks.map((c) => c.id))).toEqual([2, 3]);
    expect(selectMatches(chunks, 10, 1).flatMap((d) => d.chunks.map((c) => c.id))).toEqual([2]);
    expect(selectMatches([], 4, 0)).toEqual([]);
  });

  it('renders the documents for the template', () => {
    const text = ragDocumentsText(selectMatches([chunk(1, 10, 1)], 4, 0));
    expect(text).toBe('Document 10 (d10.txt):\n[0-2] c1');
    expect(ragDocumentsText([])).toBe('(no matching documents)');
  });
});

describe('RAG query rules', () => {
  const keys = (q: Parameters<typeof ragQueryViolations>[0]) =>
    ragQueryViolations(q).map((v) => [v.field, v.violation.key]);

  it('needs a model and keeps topK, threshold and temperature in range', () => {
    const ok = { llmModel: { id: 1 }, ...ragQueryDefaults({}) };
    expect(ok).toMatchObject({ topK: 4, similarityThreshold: 0, temperature: 1 });
    expect(keys(ok)).toEqual([]);
    expect(keys({ ...ok, llmModel: null })).toEqual([['llmModel', 'entity.validation.required']]);
    expect(keys({ ...ok, topK: 0 })).toEqual([['topK', 'entity.validation.min']]);
    expect(keys({ ...ok, topK: 11 })).toEqual([['topK', 'entity.validation.max']]);
    expect(keys({ ...ok, topK: 2.5 })).toEqual([['topK', 'entity.validation.pattern']]);
    expect(keys({ ...ok, similarityThreshold: 1.05 })).toEqual([
      ['similarityThreshold', 'entity.validation.max'],
    ]);
    expect(keys({ ...ok, temperature: -0.1 })).toEqual([['temperature', 'entity.validation.min']]);
    expect(keys({ ...ok, temperature: 2 })).toEqual([]);
  });
});
