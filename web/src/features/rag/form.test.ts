import { INITIAL_RAG_FORM, ragQueryOf, ragSimilarity, ragTopK } from './form';

describe('the RAG query form', () => {
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

  it('builds the query body: defaults topK 4, threshold 0, temperature 1; an empty secret is dropped', () => {
    expect(ragQueryOf({ ...INITIAL_RAG_FORM, query: 'q', llmModelId: '3' }, 9)).toEqual({
      query: 'q',
      processId: 9,
      topK: 4,
      similarityThreshold: 0,
      temperature: 1,
      llmModel: { id: 3 },
      secret: null,
    });
    const q = ragQueryOf({ ...INITIAL_RAG_FORM, secretId: '5', temperature: '', topK: '12' }, 9);
    expect(q.secret).toEqual({ id: 5 });
    expect(q.topK).toBe(10);
    expect(q.temperature).toBeNaN();
  });
});
