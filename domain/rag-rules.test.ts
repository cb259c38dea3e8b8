import { ragQueryRules, ragSimilarity, ragTemplateRule, ragTopK, RAG_TEMPLATE_ERROR } from './rag-rules';

const valid = { llmModel: { id: 1 }, topK: 4, similarityThreshold: 0, temperature: 1 };
const fields = (q: Parameters<typeof ragQueryRules>[0]) =>
  Object.fromEntries(ragQueryRules(q).map((v) => [v.field, v.violation.key]));

describe('RAG template rule', () => {
  it('accepts a template with both wildcards', () => {
    expect(ragTemplateRule('Q: ${process.rag.input}\nDocs: ${process.rag.documents}')).toBeNull();
  });

  it('refuses an empty template or one missing a wildcard', () => {
    for (const t of ['', '   ', null, 'Q: ${process.rag.input}', 'Docs: ${process.rag.documents}', 'plain'])
      expect(ragTemplateRule(t)?.key).toBe(RAG_TEMPLATE_ERROR);
  });
});

describe('RAG query rules', () => {
  it('accepts the defaults with a model', () => {
    expect(ragQueryRules(valid)).toEqual([]);
  });

  it('needs an LLM model', () => {
    expect(fields({ ...valid, llmModel: null })).toEqual({ llmModel: 'entity.validation.required' });
  });

  it('reports the bounds of topK, threshold and temperature', () => {
    expect(fields({ ...valid, topK: 11, similarityThreshold: -0.1, temperature: 2.5 })).toEqual({
      topK: 'entity.validation.max',
      similarityThreshold: 'entity.validation.min',
      temperature: 'entity.validation.max',
    });
    expect(fields({ ...valid, topK: 2.5, temperature: -1 })).toEqual({
      topK: 'entity.validation.pattern',
      temperature: 'entity.validation.min',
    });
    expect(fields({ ...valid, temperature: Number.NaN })).toEqual({
      temperature: 'entity.validation.pattern',
    });
  });
});

describe('RAG form normalisers', () => {
  it('clamps topK to 1..10 and makes an empty one 1', () => {
    expect(ragTopK('')).toBe(1);
    expect(ragTopK('0')).toBe(1);
    expect(ragTopK('7')).toBe(7);
    expect(ragTopK('42')).toBe(10);
    expect(ragTopK('3.6')).toBe(4);
    expect(ragTopK('x')).toBe(1);
  });

  it('clamps the threshold to 0..1 on the 0.05 grid', () => {
    expect(ragSimilarity('')).toBe(0);
    expect(ragSimilarity('0.33')).toBe(0.35);
    expect(ragSimilarity('0.32')).toBe(0.3);
    expect(ragSimilarity('1.7')).toBe(1);
    expect(ragSimilarity('-2')).toBe(0);
  });
});
