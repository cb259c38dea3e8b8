import { BadAnswer, llmPrompt, occurrences, parseJson, readAnswer } from './model-answers';

const labels = [
  { id: 11, name: 'Person', description: null },
  { id: 12, name: 'City', description: 'A town' },
];

describe('parseJson', () => {
  it('reads JSON, a fenced block or the outer braces of a sentence', () => {
    expect(parseJson('{"labels": []}')).toEqual({ labels: [] });
    expect(parseJson('```json\n{"labels": ["a"]}\n```')).toEqual({ labels: ['a'] });
    expect(parseJson('Here you are: {"labels": ["b"]} Hope it helps.')).toEqual({ labels: ['b'] });
  });

  it('refuses prose with the raw answer kept', () => {
    const err = (() => {
      try {
        parseJson('No idea.');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(BadAnswer);
    expect(err).toMatchObject({ message: 'The model did not answer with JSON', raw: 'No idea.' });
  });
});

describe('occurrences', () => {
  it('finds every occurrence that does not cut a word', () => {
    expect(occurrences('Warsaw, Warsawian, (Warsaw)', 'Warsaw')).toEqual([
      { start: 0, end: 6 },
      { start: 20, end: 26 },
    ]);
    expect(occurrences('Zażółć gęślą', 'gęślą')).toEqual([{ start: 7, end: 12 }]);
    expect(occurrences('abc', '')).toEqual([]);
  });
});

describe('readAnswer', () => {
  it('resolves CLF labels by name, case-insensitively; ids only from custom models', () => {
    const clf = [
      { id: 1, name: 'Invoice', description: null },
      { id: 2, name: 'Letter', description: null },
    ];
    expect(readAnswer('{"labels": ["invoice", 2, "Nope", "invoice"]}', 'CLF', 'LLM', clf, '')).toEqual({
      classes: [1],
      spans: [],
      ignoredLabels: ['2', 'Nope'],
      notFound: 0,
    });
    expect(readAnswer('{"labels": [2, "1"]}', 'CLF', 'CUSTOM', clf, '').classes).toEqual([2, 1]);
  });

  it('locates LLM span texts, counting the ones not found, without duplicates', () => {
    const content = 'Anna met Anna in Paris.';
    const answer = JSON.stringify({
      spans: [
        { label: 'person', text: 'Anna' },
        { label: 'Person', text: 'Anna' },
        { label: 'City', text: 'Rome' },
        { label: 'City', text: 'Paris' },
      ],
    });
    expect(readAnswer(answer, 'SPAN', 'LLM', labels, content)).toEqual({
      classes: [],
      spans: [
        { labelId: 11, start: 0, end: 4 },
        { labelId: 11, start: 9, end: 13 },
        { labelId: 12, start: 17, end: 22 },
      ],
      ignoredLabels: [],
      notFound: 1,
    });
  });

  it('takes custom span offsets within the content and refuses others', () => {
    const ok = '{"spans": [{"label": 12, "start": 17, "end": 22}]}';
    expect(readAnswer(ok, 'SPAN', 'CUSTOM', labels, 'Anna met Anna in Paris.').spans).toEqual([
      { labelId: 12, start: 17, end: 22 },
    ]);
    expect(() => readAnswer(ok, 'SPAN', 'CUSTOM', labels, 'short')).toThrow(
      "The model's span 0 (17..22) is outside the document's 5 characters",
    );
    expect(() => readAnswer('{"spans": [{"label": "City"}]}', 'SPAN', 'CUSTOM', labels, 'x')).toThrow(
      /expected shape .* at spans\.0\.start/,
    );
  });
});

describe('llmPrompt', () => {
  it('lists the labels with descriptions, the answer format and the document', () => {
    const prompt = llmPrompt('SPAN', labels, { filename: 'a.txt', content: 'Anna in Paris.', tokens: null });
    expect(prompt).toContain('- "Person"\n- "City": A town');
    expect(prompt).toContain('{"spans": [{"label": "<label name>", "text": ');
    expect(prompt.endsWith('Document "a.txt":\nAnna in Paris.')).toBe(true);
  });
});
