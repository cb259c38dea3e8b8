/**
 * The step-result export of a long document (issue 25 finding 1, beside tests/integration/export.test.ts):
 * a SPAN document of about 10 million characters (UTF-16; 16 MB of UTF-8 with Polish letters and emoji,
 * longer than the pieces the database layer reads at once) with 70,000 tags, exported as CoNLL, JSONL and JSON.
 * The export streams (the first bytes come long before the last), the API answers management/health while it
 * does, and the output is the one the whole text gives (cut into the database's pieces of a million code points,
 * which fall inside words here). Memory is measured by the bench (scripts/bench-export.ts), not asserted here.
 */
import { conllBlock } from '../../domain/export-conll';
import { buildProcess, insertNerTagType, insertNode, setupSuite } from '../support/harness';
import { insertDocument, stepOf } from '../support/documents';

/** 15 UTF-16 units, 14 code points: the database's pieces of 1,000,000 code points cut words. */
const UNIT = 'Łódź 😀 words, ';
const REPEAT = 700_000;
/** A tag on `Łódź` of every 20th unit and on `words,` (two tokens) of every 20th unit, 70,000 in all. */
const EVERY = 20;

/** Where two long texts first differ (null when equal), so that a failure does not print megabytes. */
function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i} of ${a.length}/${b.length}: ${JSON.stringify(a.slice(i - 40, i + 40))} vs ${JSON.stringify(b.slice(i - 40, i + 40))}`;
}

describe('step-result export of a long document', () => {
  const suite = setupSuite();
  const { knex } = suite;
  let spanNodeId: number;
  let documentId: number;
  const text = UNIT.repeat(REPEAT);
  const spans: { start: number; end: number; label: string }[] = [];
  for (let i = 0; i < REPEAT; i += EVERY) {
    spans.push({ start: i * UNIT.length, end: i * UNIT.length + 4, label: 'CITY' });
    spans.push({ start: i * UNIT.length + 8, end: i * UNIT.length + 14, label: 'WORD LIST' });
  }

  beforeAll(async () => {
    const processId = (await buildProcess(knex)).id;
    const upload = await insertNode(knex, processId, 'HUP');
    const span = await insertNode(knex, processId, 'SPAN');
    spanNodeId = span.id;
    const city = await insertNerTagType(knex, span.id, 'CITY');
    const words = await insertNerTagType(knex, span.id, 'WORD LIST');
    documentId = await insertDocument(knex, processId, upload.id, 'long.txt', {
      steps: [
        [upload.id, 'DONE'],
        [span.id, 'DONE'],
      ],
    });
    const stepId = await stepOf(knex, documentId, span.id);
    await knex('steps').where({ id: stepId }).update({ last_modified_date: new Date() });
    await knex.raw(
      'insert into document_contents (document_id, content) values (?::bigint, repeat(?::text, ?::int))',
      [documentId, UNIT, REPEAT],
    );
    await knex.raw(
      `insert into ner_tags (document_id, step_id, ner_tag_type_id, type, start_offset, end_offset)
       select ?::bigint, ?::bigint, ?::bigint, 'SPAN_TAG', g * ?::int, g * ?::int + 4 from generate_series(0, ?::int - 1, ?::int) g
       union all
       select ?::bigint, ?::bigint, ?::bigint, 'SPAN_TAG', g * ?::int + 8, g * ?::int + 14 from generate_series(0, ?::int - 1, ?::int) g`,
      [documentId, stepId, city.id, UNIT.length, UNIT.length, REPEAT, EVERY].concat([
        documentId,
        stepId,
        words.id,
        UNIT.length,
        UNIT.length,
        REPEAT,
        EVERY,
      ]),
    );
  }, 120_000);

  /** Downloads an export as a stream; calls `onFirst` when the first bytes came. */
  async function download(format: string, onFirst: () => void = () => undefined) {
    const res = await fetch(
      `${suite.api.baseUrl}/api/nodes/${spanNodeId}/export-step-result?format=${format}`,
      { headers: { Authorization: `Bearer ${suite.admin}` } },
    );
    expect(res.status).toBe(200);
    const decoder = new TextDecoder();
    const parts: string[] = [];
    let chunks = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (chunks++ === 0) onFirst();
      parts.push(decoder.decode(chunk, { stream: true }));
    }
    parts.push(decoder.decode());
    return { text: parts.join(''), chunks };
  }

  it('streams CoNLL in bounded pieces, answering management/health meanwhile, with the tags of the whole text', async () => {
    const events: string[] = [];
    let health: Promise<number> | undefined;
    const { text: conll, chunks } = await download('conll', () => {
      events.push('export started');
      health = fetch(`${suite.api.baseUrl}/management/health`).then((r) => {
        events.push('health answered');
        return r.status;
      });
    });
    events.push('export ended');
    expect(await health).toBeLessThan(500);
    expect(events).toEqual(['export started', 'health answered', 'export ended']);
    expect(chunks).toBeGreaterThan(100);
    expect(firstDifference(conll, conllBlock(documentId, 'long.txt', text, spans))).toBeNull();
    expect(conll.match(/ _ _ B-WORD_LIST\n/g)).toHaveLength(REPEAT / EVERY);
  }, 120_000);

  it('writes the JSONL line and the JSON row of the long document from its pieces', async () => {
    const { text: jsonl } = await download('jsonl');
    const line = JSON.parse(jsonl) as { text: string; spans: { text: string; start: number }[] };
    expect(firstDifference(line.text, text)).toBeNull();
    expect(line.spans).toHaveLength(spans.length);
    expect(line.spans.slice(0, 2).map((s) => s.text)).toEqual(['Łódź', 'words,']);
    expect(line.spans.every((s, i) => s.text === (i % 2 ? 'words,' : 'Łódź'))).toBe(true);

    const { text: json } = await download('json');
    const [row] = JSON.parse(json) as { tags: { text: string; start: number }[] }[];
    expect(row.tags).toHaveLength(spans.length);
    expect(row.tags.every((t, i) => t.text === (i % 2 ? 'words,' : 'Łódź'))).toBe(true);
  }, 120_000);
});
