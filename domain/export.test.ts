import { spansFromConll } from './export-conll';
import {
  csvCell,
  delimiterViolation,
  exportFormatsOf,
  exportKindOf,
  exportRange,
  EXPORT_FLUSH,
  exportText,
  monthBefore,
  planExport,
  rangeInstants,
  type ExportFormat,
  type ExportKind,
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

/** The export of records in one batch (CSV without its header line). */
async function exported(kind: ExportKind, format: ExportFormat, rows: StepResultRecord[], delimiter = ',') {
  let out = '';
  const batches = (async function* () {
    yield rows;
  })();
  for await (const part of exportText(batches, {
    kind,
    format,
    delimiter,
    range: { from: '2026-11-01', to: '2026-11-24' },
  }))
    out += part;
  return format === 'csv' ? out.slice(out.indexOf('\r\n') + 2) : out;
}

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
    expect(csvCell(null, ',')).toBe('');
  });

  it('neutralises cells a spreadsheet would evaluate: a leading apostrophe inside the quotes (OWASP)', () => {
    expect(csvCell('=SUM(A1)', ',')).toBe(`"'=SUM(A1)"`);
    expect(csvCell('=HYPERLINK("http://x.test","a")', ';')).toBe(`"'=HYPERLINK(""http://x.test"",""a"")"`);
    expect(csvCell('+1+2', ',')).toBe(`"'+1+2"`);
    expect(csvCell('-2+3', ',')).toBe(`"'-2+3"`);
    expect(csvCell('@SUM(A1)', ',')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\t=1', ',')).toBe(`"'\t=1"`);
    expect(csvCell('\r=1', ',')).toBe(`"'\r=1"`);
    // only the first character counts: the rest is text in a cell that does not start a formula
    expect(csvCell('a=1', ',')).toBe('a=1');
    expect(csvCell(' =1', ',')).toBe('" =1"');
  });

  it('writes CLF, LLM and SPAN rows as CSV', async () => {
    expect(await exported('CLF', 'csv', [record({ classes: ['Invoice', 'Urgent'] })], ';')).toBe(
      '7;3;a.txt;DONE;2026-11-20T10:00:00.000Z;"Invoice; Urgent"\r\n',
    );
    expect(await exported('LLM', 'csv', [record({ response: 'Yes, "sure"' })])).toBe(
      '7,3,a.txt,DONE,2026-11-20T10:00:00.000Z,"Yes, ""sure"""\r\n',
    );
    const span = await exported(
      'SPAN',
      'csv',
      [
        record({
          content: 'Jan Kowalski',
          tags: [{ id: 1, label: 'PER', start: 0, end: 12 }],
          relations: [],
        }),
      ],
      '|',
    );
    expect(span).toBe(
      '7|3|a.txt|DONE|2026-11-20T10:00:00.000Z|"[{""id"":1,""label"":""PER"",""start"":0,""end"":12,""text"":""Jan Kowalski""}]"|[]\r\n',
    );
  });

  it('writes JSONL spans and classes', async () => {
    const line = await exported('SPAN', 'jsonl', [
      record({
        content: 'Ala ma kota',
        tags: [
          { id: 1, label: 'PER', start: 0, end: 3 },
          { id: 2, label: 'ANIMAL', start: 7, end: 11 },
        ],
        relations: [{ from: 1, to: 2, type: 'owns' }],
      }),
    ]);
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
    expect(JSON.parse(await exported('CLF', 'jsonl', [record({ classes: ['A'] })]))).toMatchObject({
      labels: ['A'],
    });
  });
});

describe('a long document', () => {
  const TEXT = 'word '.repeat(400_000); // 2,000,000 characters
  const tags = Array.from({ length: 10_000 }, (_, i) => ({
    id: i + 1,
    label: 'W',
    start: i * 200,
    end: i * 200 + 4,
  }));

  /** The document's text read in pieces of 500,000 characters, noting how far the reading got. */
  function readInPieces(progress: { read: number }) {
    return async function* () {
      for (let at = 0; at < TEXT.length; at += 500_000) {
        progress.read = at + 500_000;
        yield TEXT.slice(at, at + 500_000);
      }
    };
  }

  it.each(['conll', 'jsonl', 'json', 'csv'] as const)(
    'comes out in %s in strings of bounded size, the first before the text is read to its end',
    async (format) => {
      const progress = { read: 0 };
      const row = record({ tags, relations: [], contentPieces: readInPieces(progress) });
      const batches = (async function* () {
        yield [row];
      })();
      const sizes: number[] = [];
      let readAtFirst = -1;
      let out = '';
      for await (const part of exportText(batches, {
        kind: 'SPAN',
        format,
        delimiter: ',',
        range: { from: '2026-11-01', to: '2026-11-24' },
      })) {
        if (readAtFirst < 0) readAtFirst = progress.read;
        sizes.push(part.length);
        out += part;
      }
      // the same text as the document given whole
      expect(out).toBe(
        await exported('SPAN', format, [record({ tags, relations: [], content: TEXT })]).then((text) =>
          format === 'csv' ? out.slice(0, out.indexOf('\r\n') + 2) + text : text,
        ),
      );
      // each string is EXPORT_FLUSH plus at most one part: the lines of a piece of the text (here 2.2 times the
      // piece's 65,536 characters) or a group of 1,000 tags (about 65,000 characters), not the whole 10 MB
      expect(Math.max(...sizes)).toBeLessThanOrEqual(5 * EXPORT_FLUSH);
      if (format === 'conll' || format === 'jsonl') {
        expect(sizes.length).toBeGreaterThan(20);
        expect(readAtFirst).toBeLessThan(TEXT.length);
      }
    },
  );
});

describe('CoNLL-2003', () => {
  it('writes a document block and reads its spans back', async () => {
    const content = 'Jan Kowalski lives in Kraków.\nHe works at ACME Corp.';
    const tags = [
      { id: 1, label: 'PER', start: 0, end: 12 },
      { id: 2, label: 'LOC', start: 22, end: 28 },
      { id: 3, label: 'ORG', start: 42, end: 51 },
    ];
    const block = await exported('SPAN', 'conll', [record({ content, tags })]);
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
