/**
 * LEXICON nodes at run time: a real Worker runs HUP -> FILE_PARSER -> LEXICON -> CLF; the lexicon tags the
 * parsed text (EXACT, REGEX, FUZZY) or the transcript's tokens, records its action execution result, takes
 * its autoStepStatus, and an edge predicate on its tags picks the branch. Retries and reruns of the
 * executor leave one copy of the tags.
 */
import { createActionActivities } from '../../activities/actions';
import { executionKey } from '../../activities/actions/lexicon';
import {
  GraphBuilder,
  documentStatus,
  setupEngineSuite,
  startDocument,
  stepReaching,
  stepsOf,
} from '../support/engine';

describe('lexicon nodes', () => {
  const s = setupEngineSuite('lexicon');

  async function lexiconGraph() {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'ACCEPTED' });
    const lexicon = await g.node('LEXICON', { autoStepStatus: 'DONE' });
    const withPerson = await g.node('CLF', { name: 'with person' });
    const withoutPerson = await g.node('CLF', { name: 'without person' });
    const person = await g.nerTagType(lexicon, 'Osoba');
    const place = await g.nerTagType(lexicon, 'Miejsce');
    const code = await g.nerTagType(lexicon, 'Kod');
    await s.knex('matching_rules').insert([
      { ner_tag_type_id: person, expression: 'Jan Kowalski', matching_type: 'EXACT', tolerance: null },
      { ner_tag_type_id: person, expression: 'Żółkiewski', matching_type: 'FUZZY', tolerance: 2 },
      { ner_tag_type_id: place, expression: 'Warszawa', matching_type: 'FUZZY', tolerance: 1 },
      { ner_tag_type_id: code, expression: '\\d{2}-\\d{3}', matching_type: 'REGEX', tolerance: null },
    ]);
    await g.edge(hup, parser);
    await g.edge(parser, lexicon);
    await g.predicate({
      edgeId: await g.edge(lexicon, withPerson),
      predicateType: 'NER',
      nodeId: lexicon,
      nerTagTypeId: person,
    });
    await g.predicate({
      edgeId: await g.edge(lexicon, withoutPerson),
      predicateType: 'NER',
      nodeId: lexicon,
      nerTagTypeId: person,
      equal: false,
    });
    return { g, hup, parser, lexicon, withPerson, withoutPerson, person, place, code };
  }

  const tagsOf = (documentId: number) =>
    s
      .knex('ner_tags')
      .where('document_id', documentId)
      .orderBy(['start_offset', 'ner_tag_type_id', 'id'])
      .select(
        'id',
        'step_id as stepId',
        'ner_tag_type_id as type',
        'type as kind',
        'start_offset as start',
        'end_offset as end',
      );

  it('tags a parsed text by EXACT, REGEX and FUZZY rules and sends it down the branch of its tags', async () => {
    const f = await lexiconGraph();
    const text = 'Pan JAN KOWALSKI z Warszawy (kod 00-950) spotkał Żółkiewsky.\n';
    const doc = await startDocument(s, f.g, f.hup, { content: text });
    const step = await stepReaching(s.knex, doc.id, f.lexicon, ['DONE', 'ERROR'], 60000);
    expect(step).toMatchObject({ status: 'DONE', errorMessage: null });
    const content: string = (await s.knex('document_contents').where('document_id', doc.id).first()).content;

    const tags = await tagsOf(doc.id);
    expect(tags.map((t) => [content.slice(t.start, t.end), t.type, t.kind, t.stepId])).toEqual([
      ['JAN KOWALSKI', f.person, 'SPAN_TAG', step.id],
      ['Warszawy', f.place, 'SPAN_TAG', step.id],
      ['00-950', f.code, 'SPAN_TAG', step.id],
      ['Żółkiewsky', f.person, 'SPAN_TAG', step.id],
    ]);
    expect(tags[0]).toMatchObject({ start: 4, end: 16 });

    const results = await s.knex('action_execution_results').where('step_id', step.id);
    expect(results).toEqual([
      expect.objectContaining({
        node_id: f.lexicon,
        status: 'SUCCESS',
        details: expect.objectContaining({ matches: 4, kind: 'text' }),
      }),
    ]);

    await stepReaching(s.knex, doc.id, f.withPerson, ['WAITING']);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toEqual([
      f.hup,
      f.parser,
      f.lexicon,
      f.withPerson,
    ]);

    // Without a person the other branch is taken.
    const other = await startDocument(s, f.g, f.hup, { content: 'Kod 31-150, Warszawa.\n' });
    await stepReaching(s.knex, other.id, f.withoutPerson, ['WAITING'], 60000);
    expect((await stepsOf(s.knex, other.id)).map((x) => x.nodeId)).toEqual([
      f.hup,
      f.parser,
      f.lexicon,
      f.withoutPerson,
    ]);
    expect((await tagsOf(other.id)).map((t) => t.type)).toEqual([f.code, f.place]);
    expect(await documentStatus(s.knex, other.id)).toBe('WAITING');
  });

  it('leaves one copy of the tags after a retry and after a rerun of the step', async () => {
    const f = await lexiconGraph();
    const doc = await startDocument(s, f.g, f.hup, { content: 'Jan Kowalski, 00-950.\n' });
    const step = await stepReaching(s.knex, doc.id, f.lexicon, ['DONE'], 60000);
    const before = await tagsOf(doc.id);
    expect(before).toHaveLength(2);

    const { runAutomaticNode } = createActionActivities({ knex: s.knex, filesDir: s.filesDir });
    const input = {
      documentId: doc.id,
      stepId: step.id,
      nodeId: f.lexicon,
      activityType: 'LEXICON',
      attempt: 1,
    };
    // A retry of the same run after its success: nothing is written again.
    await runAutomaticNode(input);
    expect(await tagsOf(doc.id)).toEqual(before);

    // A second run of the step (new content meanwhile) replaces the tags of the first.
    await s
      .knex('document_contents')
      .where('document_id', doc.id)
      .update({ content: 'Kod 11-111 i 22-222.' });
    await runAutomaticNode({ ...input, attempt: 2 });
    await runAutomaticNode({ ...input, attempt: 2 });
    const after = await tagsOf(doc.id);
    expect(after.map((t) => [t.type, t.start, t.end])).toEqual([
      [f.code, 4, 10],
      [f.code, 13, 19],
    ]);
    const keys = await s
      .knex('action_execution_results')
      .where('step_id', step.id)
      .orderBy('id')
      .pluck('execution_key');
    expect(keys).toEqual([executionKey(input), executionKey({ ...input, attempt: 2 })]);
  });

  it('tags the tokens of a transcript and links them, with their times', async () => {
    const f = await lexiconGraph();
    const transcript = {
      utterances: [
        {
          actor: 'SPEAKER1',
          tokens: [
            { value: 'dzień', tsStart: 0, tsEnd: 300 },
            { value: 'dobry', tsStart: 300, tsEnd: 600 },
            { value: 'tu', tsStart: 700, tsEnd: 800 },
            { value: 'jan', tsStart: 800, tsEnd: 1000 },
            { value: 'kowalski', tsStart: 1000, tsEnd: 1500 },
          ],
        },
        {
          actor: 'SPEAKER2',
          tokens: [
            { value: 'kod', tsStart: 2000, tsEnd: 2300 },
            { value: '00-950', tsStart: 2300, tsEnd: 2900 },
            { value: 'warszawka', tsStart: 3000, tsEnd: 3600 },
          ],
        },
      ],
    };
    const doc = await startDocument(s, f.g, f.hup, {
      name: 'call.json',
      content: JSON.stringify(transcript),
      mimeType: 'application/json',
      documentType: 'AUDIOFILE',
    });
    const step = await stepReaching(s.knex, doc.id, f.lexicon, ['DONE', 'ERROR'], 60000);
    expect(step).toMatchObject({ status: 'DONE' });
    const tags = await s
      .knex('ner_tags as t')
      .where('t.document_id', doc.id)
      .orderBy('t.ts_start')
      .select(
        't.id',
        't.ner_tag_type_id as type',
        't.type as kind',
        't.ts_start as tsStart',
        't.ts_end as tsEnd',
        't.origin',
      );
    expect(tags.map((t) => [t.type, t.kind, t.tsStart, t.tsEnd, t.origin])).toEqual([
      [f.person, 'ASR_NER_TAG', 800, 1500, 'LEXICON'],
      [f.code, 'ASR_NER_TAG', 2300, 2900, 'LEXICON'],
      [f.place, 'ASR_NER_TAG', 3000, 3600, 'LEXICON'],
    ]);
    const linked = await s
      .knex('ner_tag_tokens as l')
      .join('utterance_tokens as k', 'k.id', 'l.utterance_token_id')
      .whereIn(
        'l.ner_tag_id',
        tags.map((t) => t.id),
      )
      .orderBy('k.ts_start')
      .select('l.ner_tag_id as tagId', 'k.value');
    expect(linked.map((l) => [l.tagId, l.value])).toEqual([
      [tags[0].id, 'jan'],
      [tags[0].id, 'kowalski'],
      [tags[1].id, '00-950'],
      [tags[2].id, 'warszawka'],
    ]);
    await stepReaching(s.knex, doc.id, f.withPerson, ['WAITING']);
  });

  it('fails the step with an actionable message when a rule cannot run', async () => {
    const f = await lexiconGraph();
    await s.knex('matching_rules').insert({
      ner_tag_type_id: f.code,
      expression: '([a-z]',
      matching_type: 'REGEX',
      tolerance: null,
    });
    const doc = await startDocument(s, f.g, f.hup, { content: 'Jan Kowalski\n' });
    const step = await stepReaching(s.knex, doc.id, f.lexicon, ['ERROR'], 60000);
    expect(step.errorMessage).toMatch(
      /The REGEX rule "\(\[a-z\]" of the tag "Kod" cannot run .*fix or delete the rule/,
    );
    expect(await tagsOf(doc.id)).toEqual([]);
    expect(await s.knex('action_execution_results').where('step_id', step.id).pluck('status')).toEqual([
      'FAILURE',
    ]);
  });
});

describe('lexicon nodes under a time limit', () => {
  // 300 ms: far below the seconds the rules below take on this text, in their thread.
  const s = setupEngineSuite('lexicon-limit', { settings: { lexiconTimeoutMs: 300 } });

  it('stops matching past LEXICON_TIMEOUT_SECONDS and fails the step once, with what to do', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    const lexicon = await g.node('LEXICON', { autoStepStatus: 'DONE' });
    await g.edge(hup, parser);
    await g.edge(parser, lexicon);
    const tag = await g.nerTagType(lexicon, 'Word');
    await s.knex('matching_rules').insert(
      Array.from({ length: 300 }, (_, i) => ({
        ner_tag_type_id: tag,
        expression: `word${i}x`,
        matching_type: 'FUZZY',
        tolerance: 3,
      })),
    );
    const doc = await startDocument(s, g, hup, { content: 'lorem ipsum dolor sit amet '.repeat(200_000) });
    const step = await stepReaching(s.knex, doc.id, lexicon, ['DONE', 'ERROR'], 120000);
    expect(step.status).toBe('ERROR');
    expect(step.errorMessage).toMatch(/took longer than 300 ms on this document and were stopped: simplify/);
    expect(await s.knex('action_execution_results').where('step_id', step.id).pluck('status')).toEqual([
      'FAILURE',
    ]);
  }, 180000);
});
