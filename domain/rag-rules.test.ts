import { ragQueryRules, ragTemplateRule, RAG_TEMPLATE_ERROR } from './rag-rules';

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
