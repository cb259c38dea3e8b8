import {
  bioTags,
  conllBlock,
  csvCell,
  csvRow,
  delimiterViolation,
  exportFormatsOf,
  exportKindOf,
  exportRange,
  exportText,
  jsonlLine,
  monthBefore,
  planExport,
  rangeInstants,
  spansFromConll,
  tokenize,
  type StepResultRecord,
} from './export';

const record = (over: Partial<StepResultRecord> = {}): StepResultRecord => ({
  stepId: 7,
  documentId: 3,
  filename: 'a.txt',
  status: 'DONE',
  finishedAt: '2026-11-20T10:00:00.000Z',
  ...over,
});

describe('export rules', () => {
  it('knows the kind and formats of each node type', () => {
    expect(exportKindOf('LEXICON')).toBe('SPAN');
    expect(exportKindOf('LLM_PROMPT')).toBe('LLM');
    expect(exportKindOf('SEND_MAIL')).toBeNull();
    expect(exportFormatsOf('SPAN')).toEqual(['json', 'csv', 'conll', 'jsonl']);
    expect(exportFormatsOf('CLF')).toEqual(['json', 'csv', 'jsonl']);
    expect(exportFormatsOf('LLM')).toEqual(['json', 'csv']);
  });

  it('takes a one-character delimiter that is not a double quote', () => {
    expect(delimiterViolation(',')).toBeNull();
    expect(delimiterViolation(';')).toBeNull();
    expect(delimiterViolation('\t')).toBeNull();
    expect(delimiterViolation('')?.key).toBe('soaApp.nodePanel.export.errors.delimiterRequired');
    expect(delimiterViolation(';;')?.key).toBe('soaApp.nodePanel.export.errors.delimiterLength');
    expect(delimiterViolation('"')?.key).toBe('soaApp.nodePanel.export.errors.delimiterQuote');
    expect(delimiterViolation('\n')?.code).toBe('Pattern');
  });

  it('defaults to the last month and limits the range to 31 days, not after today', () => {
    expect(exportRange(undefined, undefined, '2026-11-24')).toEqual({
      range: { from: '2026-10-24', to: '2026-11-24' },
    });
    expect(monthBefore('2026-03-31')).toBe('2026-02-28');
    expect(monthBefore('2026-01-15')).toBe('2025-12-15');
    expect(exportRange('2026-10-01', '2026-11-01', '2026-11-24')).toEqual({
      range: { from: '2026-10-01', to: '2026-11-01' },
    });
    const key = (r: ReturnType<typeof exportRange>) => ('violations' in r ? r.violations[0].key : null);
    expect(key(exportRange('2026-10-01', '2026-11-02', '2026-11-24'))).toMatch(/rangeTooLong$/);
    expect(key(exportRange('2026-11-20', '2026-11-25', '2026-11-24'))).toMatch(/dateFuture$/);
    expect(key(exportRange('2026-11-20', '2026-11-19', '2026-11-24'))).toMatch(/dateOrder$/);
    expect(key(exportRange('2026-02-30', '2026-03-01', '2026-11-24'))).toMatch(/dateInvalid$/);
    expect(rangeInstants({ from: '2026-11-01', to: '2026-11-02' })).toEqual({
      start: new Date('2026-11-01T00:00:00Z'),
      end: new Date('2026-11-03T00:00:00Z'),
    });
  });
});

describe('export rows', () => {
  it('escapes CSV fields', () => {
    expect(csvCell('plain', ',')).toBe('plain');
    expect(csvCell('a,b', ',')).toBe('"a,b"');
    expect(csvCell('a,b', ';')).toBe('a,b');
    expect(csvCell('say "hi"', ',')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines', ',')).toBe('"two\nlines"');
    expect(csvCell('=SUM(A1)', ',')).toBe('"=SUM(A1)"');
    expect(csvCell(null, ',')).toBe('');
  });

  it('writes CLF, LLM and SPAN rows as CSV', () => {
    expect(csvRow('CLF', record({ classes: ['Invoice', 'Urgent'] }), ';')).toBe(
      '7;3;a.txt;DONE;2026-11-20T10:00:00.000Z;"Invoice; Urgent"\r\n',
    );
    expect(csvRow('LLM', record({ response: 'Yes, "sure"' }), ',')).toBe(
      '7,3,a.txt,DONE,2026-11-20T10:00:00.000Z,"Yes, ""sure"""\r\n',
    );
    const span = csvRow(
      'SPAN',
      record({ content: 'Jan Kowalski', tags: [{ id: 1, label: 'PER', start: 0, end: 12 }], relations: [] }),
      '|',
    );
    expect(span).toBe(
      '7|3|a.txt|DONE|2026-11-20T10:00:00.000Z|"[{""id"":1,""label"":""PER"",""start"":0,""end"":12,""text"":""Jan Kowalski""}]"|[]\r\n',
    );
  });

  it('writes JSONL spans and classes', () => {
    const line = jsonlLine(
      'SPAN',
      record({
        content: 'Ala ma kota',
        tags: [
          { id: 1, label: 'PER', start: 0, end: 3 },
          { id: 2, label: 'ANIMAL', start: 7, end: 11 },
        ],
        relations: [{ from: 1, to: 2, type: 'owns' }],
      }),
    );
    expect(JSON.parse(line)).toEqual({
      documentId: 3,
      stepId: 7,
      filename: 'a.txt',
      text: 'Ala ma kota',
      spans: [
        { id: 1, text: 'Ala', start: 0, end: 3, label: 'PER' },
        { id: 2, text: 'kota', start: 7, end: 11, label: 'ANIMAL' },
      ],
      relations: [{ from: 1, to: 2, type: 'owns' }],
    });
    expect(JSON.parse(jsonlLine('CLF', record({ classes: ['A'] })))).toMatchObject({ labels: ['A'] });
  });
});

describe('CoNLL-2003', () => {
  it('tokenises words, punctuation and line breaks', () => {
    expect(tokenize('Dr. Łukasz, 42!\nOK').map((t) => t.text)).toEqual([
      'Dr',
      '.',
      'Łukasz',
      ',',
      '42',
      '!',
      '\n',
      'OK',
    ]);
  });

  it('tags BIO; overlapping tags keep the first', () => {
    const tokens = tokenize('New York City is big');
    expect(
      bioTags(tokens, [
        { start: 0, end: 13, label: 'LOC' },
        { start: 4, end: 8, label: 'CITY' },
        { start: 17, end: 20, label: 'size adj' },
      ]),
    ).toEqual(['B-LOC', 'I-LOC', 'I-LOC', 'O', 'B-size_adj']);
  });

  it('writes a document block and reads its spans back', () => {
    const content = 'Jan Kowalski lives in Kraków.\nHe works at ACME Corp.';
    const tags = [
      { id: 1, label: 'PER', start: 0, end: 12 },
      { id: 2, label: 'LOC', start: 22, end: 28 },
      { id: 3, label: 'ORG', start: 42, end: 51 },
    ];
    const block = conllBlock(record({ content, tags }));
    expect(block).toBe(
      [
        '-DOCSTART- -X- -X- O',
        '# document 3 a.txt',
        '',
        'Jan _ _ B-PER',
        'Kowalski _ _ I-PER',
        'lives _ _ O',
        'in _ _ O',
        'Kraków _ _ B-LOC',
        '. _ _ O',
        '',
        'He _ _ O',
        'works _ _ O',
        'at _ _ O',
        'ACME _ _ B-ORG',
        'Corp _ _ I-ORG',
        '. _ _ O',
        '',
      ].join('\n') + '\n',
    );
    expect(spansFromConll(content, block)).toEqual(
      tags.map(({ label, start, end }) => ({ start, end, label })),
    );
  });
});

describe('an export request', () => {
  const today = '2026-11-24';
  const keys = (r: ReturnType<typeof planExport>) =>
    'violations' in r ? r.violations.map((v) => v.key) : [];

  it('plans JSON of the last month by default', () => {
    expect(planExport({ activityType: 'SPAN', today })).toEqual({
      plan: { kind: 'SPAN', format: 'json', delimiter: ',', range: { from: '2026-10-24', to: today } },
    });
    expect(planExport({ activityType: 'CLF', format: 'CSV', delimiter: ';', today })).toMatchObject({
      plan: { kind: 'CLF', format: 'csv', delimiter: ';' },
    });
  });

  it('gives every refusal at once', () => {
    expect(keys(planExport({ activityType: 'SEND_MAIL', format: 'csv', delimiter: '"', today }))).toEqual([
      'soaApp.nodePanel.export.errors.notExportable',
      'soaApp.nodePanel.export.errors.delimiterQuote',
    ]);
    expect(
      keys(planExport({ activityType: 'LLM_PROMPT', format: 'conll', from: '2026-12-01', today })),
    ).toEqual([
      'soaApp.nodePanel.export.errors.formatUnsupported',
      'soaApp.nodePanel.export.errors.dateOrder',
    ]);
    // a delimiter only matters for CSV
    expect(keys(planExport({ activityType: 'SPAN', format: 'json', delimiter: ';;', today }))).toEqual([]);
  });

  it('writes each format batch by batch', async () => {
    async function* batches() {
      yield [record({ stepId: 1 })];
      yield [record({ stepId: 2 })];
    }
    const text = async (format: string) => {
      const asked = planExport({ activityType: 'CLF', format, today });
      if (!('plan' in asked)) throw new Error('refused');
      let out = '';
      for await (const part of exportText(batches(), asked.plan)) out += part;
      return out;
    };
    const json = JSON.parse(await text('json')) as { stepId: number }[];
    expect(json.map((r) => r.stepId)).toEqual([1, 2]);
    const empty = planExport({ activityType: 'CLF', today });
    if (!('plan' in empty)) throw new Error('refused');
    let none = '';
    for await (const part of exportText((async function* () {})(), empty.plan)) none += part;
    expect(JSON.parse(none)).toEqual([]);
    const csv = (await text('csv')).trim().split('\n');
    expect(csv).toHaveLength(3);
    expect(
      (await text('jsonl'))
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { stepId: number }).stepId),
    ).toEqual([1, 2]);
  });
});
