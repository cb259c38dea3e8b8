/**
 * The speech workspace's API (issue 14 sections 2 to 4, docs/api-speech.md) on a transcript the real file
 * parser imported from JSON: inline token edits, a split word, an actor change, extraction into new
 * utterances with the batch create, a merge, token deletion, token tags and time spans, the asr-document
 * routes; and the refusals: no WRITE, a step the caller may not edit, another process's document, a write
 * that would break the linked list or the times (400, nothing written).
 */
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import type { NerTagDTO } from '../../domain/tags';
import { eventually, GraphBuilder, setupEngineSuite, startDocument, stepReaching } from '../support/engine';
import {
  buildProcess,
  buildUser,
  insertNerTagType,
  insertNode,
  MISSING_ID,
  type Suite,
} from '../support/harness';

interface Token {
  id: number;
  utteranceId: number;
  value: string;
  tsStart: number;
  tsEnd: number;
  properties: string[];
  unclear: boolean;
}
interface Utterance {
  id: number;
  docId: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  tokens: Token[];
}

const TRANSCRIPT = {
  utterances: [
    {
      actor: 'SPEAKER1',
      tokens: [
        { value: 'Ala', tsStart: 0, tsEnd: 300 },
        { value: 'ma', tsStart: 350, tsEnd: 500 },
        { value: 'kota', tsStart: 550, tsEnd: 900 },
        { value: 'i', tsStart: 950, tsEnd: 1000 },
        { value: 'psa', tsStart: 1050, tsEnd: 1400 },
      ],
    },
    {
      actor: 'SPEAKER2',
      tokens: [
        { value: 'Dzień', tsStart: 2000, tsEnd: 2300 },
        { value: 'dobry', tsStart: 2350, tsEnd: 2700 },
      ],
    },
    { actor: 'SPEAKER1', tokens: [{ value: 'Koniec', tsStart: 3500, tsEnd: 4000 }] },
  ],
};

async function person(s: Suite, authorities: NonNullable<Parameters<typeof buildUser>[1]>['authorities']) {
  const user = await buildUser(s.knex, { authorities });
  return { id: user.id, token: await s.signIn(user) };
}

describe('speech workspace API', () => {
  const s = setupEngineSuite('speech');
  let processId: number;
  let span: number;
  let spanWithoutStep: number;
  let docId: number;
  let label: number;
  let labelWithoutStep: number;
  let writer: { id: number; token: string };

  const utterances = async (token = writer.token): Promise<Utterance[]> => {
    const res = await s.get(`/api/asr-documents/${docId}/utterances`, token);
    expect(res.status).toBe(200);
    return res.body;
  };
  const words = (us: Utterance[]) => us.map((u) => u.tokens.map((t) => t.value).join(' '));
  const send = (method: string, path: string, json?: unknown, token = writer.token, node = span) =>
    s.send(method, `${path}${path.includes('?') ? '&' : '?'}nodeId=${node}`, token, json);
  const tokenOf = (us: Utterance[], value: string) =>
    us.flatMap((u) => u.tokens).find((t) => t.value === value)!;

  beforeAll(async () => {
    const g = await GraphBuilder.create(s.knex);
    processId = g.processId;
    const hup = (await insertObligatoryUploadNode(s.knex, processId)).id;
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'ACCEPTED' });
    span = await g.node('SPAN');
    spanWithoutStep = await g.node('SPAN');
    label = await g.nerTagType(span, 'Person');
    labelWithoutStep = await g.nerTagType(spanWithoutStep, 'Other');
    await g.edge(hup, parser);
    await g.edge(parser, span);
    await s.knex('process_actors').insert([
      { process_id: processId, actor: 'SPEAKER1', name: 'Speaker one' },
      { process_id: processId, actor: 'SPEAKER2', name: 'Speaker two' },
    ]);
    const doc = await startDocument(s, g, hup, {
      name: 'talk.json',
      content: JSON.stringify(TRANSCRIPT),
      mimeType: 'application/json',
      documentType: 'AUDIOFILE',
    });
    docId = doc.id;
    await stepReaching(s.knex, docId, span, ['WAITING'], 90_000);
    writer = await person(s, [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }]);
    const assigned = await s.send('POST', `/api/step/assign?docId=${docId}&nodeId=${span}`, writer.token);
    expect(assigned.status).toBe(200);
  }, 120_000);

  it('reads the parsed transcript and edits a token inline: value, unclear, properties', async () => {
    const before = await utterances();
    expect(words(before)).toEqual(['Ala ma kota i psa', 'Dzień dobry', 'Koniec']);
    const ma = tokenOf(before, 'ma');
    const res = await send('PUT', '/api/utterance-tokens', {
      id: ma.id,
      value: 'miała',
      unclear: true,
      properties: ['NOISE'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ma.id, value: 'miała', unclear: true, properties: ['NOISE'] });
    expect(words(await utterances())[0]).toBe('Ala miała kota i psa');
    // not a word of the inline edit: 'Invalid input'
    const bad = await send('PUT', '/api/utterance-tokens', { id: ma.id, value: 'dwa słowa' });
    expect([bad.status, bad.body.message]).toEqual([400, 'error.token.value']);
  });

  it('splits a word: the new token from the old end to the old end + 50 ms, placed in time order', async () => {
    const kota = tokenOf(await utterances(), 'kota');
    const res = await send('POST', '/api/utterance-tokens', {
      utteranceId: kota.utteranceId,
      value: 'kotka',
      tsStart: kota.tsEnd,
      tsEnd: kota.tsEnd + 50,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      utteranceId: kota.utteranceId,
      value: 'kotka',
      tsStart: 900,
      tsEnd: 950,
    });
    expect(words(await utterances())[0]).toBe('Ala miała kota kotka i psa');
  });

  it('changes the actor of an utterance to one of the process', async () => {
    const second = (await utterances())[1];
    const res = await send('PUT', '/api/utterances', { id: second.id, actor: 'SPEAKER1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: second.id, actor: 'SPEAKER1', tokens: second.tokens });
    const nobody = await send('PUT', '/api/utterances', { id: second.id, actor: 'NOBODY' });
    expect([nobody.status, nobody.body.message]).toEqual([400, 'error.utterance.actor']);
    expect((await send('PUT', '/api/utterances', { id: second.id, actor: 'SPEAKER2' })).status).toBe(200);
  });

  it('extracts tokens into new utterances with the batch create, mapping the ids from -1 down', async () => {
    const [first, second] = await utterances();
    const ids = first.tokens.map((t) => ({ id: t.id }));
    const res = await send('POST', '/api/utterances/batch', [
      { id: first.id, nextId: -1, tokens: ids.slice(0, 2) },
      { id: -1, actor: 'SPEAKER2', prevId: first.id, nextId: -2, tokens: ids.slice(2, 4) },
      { id: -2, actor: 'SPEAKER1', prevId: -1, nextId: second.id, tokens: ids.slice(4) },
      { id: second.id, prevId: -2 },
    ]);
    expect(res.status).toBe(201);
    const created = [res.body.ids['-1'], res.body.ids['-2']];
    expect(created.every((id: number) => id > 0)).toBe(true);
    expect(res.body.utterances.map((u: Utterance) => u.id)).toEqual([first.id, ...created, second.id]);
    const after = await utterances();
    expect(words(after)).toEqual(['Ala miała', 'kota kotka', 'i psa', 'Dzień dobry', 'Koniec']);
    expect(after.map((u) => [u.id, u.actor])).toEqual([
      [first.id, 'SPEAKER1'],
      [created[0], 'SPEAKER2'],
      [created[1], 'SPEAKER1'],
      [second.id, 'SPEAKER2'],
      [after[4].id, 'SPEAKER1'],
    ]);
    after.forEach((u, i) => {
      expect(u.prevId).toBe(i ? after[i - 1].id : null);
      expect(u.nextId).toBe(i < after.length - 1 ? after[i + 1].id : null);
    });
  });

  it('merges an utterance into the one before: the emptied one goes, the list stays linked', async () => {
    const before = await utterances();
    const [, middle, last] = before;
    const res = await send('PUT', '/api/utterances', {
      id: middle.id,
      tokens: [...middle.tokens, ...last.tokens].map((t) => ({ id: t.id })),
    });
    expect(res.status).toBe(200);
    const after = await utterances();
    expect(words(after)).toEqual(['Ala miała', 'kota kotka i psa', 'Dzień dobry', 'Koniec']);
    expect(after[1].nextId).toBe(after[2].id);
    expect(after[2].prevId).toBe(after[1].id);
    expect(await s.knex('utterances').where('id', last.id).first()).toBeUndefined();
  });

  it('refuses a write that would break the list or the times, and writes nothing of it', async () => {
    const before = await utterances();
    const [first, , third, fourth] = before;
    const refused = async (method: string, path: string, json: unknown, message: string) => {
      const res = await send(method, path, json);
      expect([path, res.status, res.body.message]).toEqual([path, 400, message]);
    };
    await refused(
      'PUT',
      '/api/utterances',
      { id: fourth.id, nextId: first.id },
      'error.utterance.brokenList',
    );
    await refused('PUT', '/api/utterances', { id: third.id, prevId: null }, 'error.utterance.brokenList');
    await refused(
      'POST',
      '/api/utterances/batch',
      [
        {
          id: -1,
          docId,
          actor: 'SPEAKER1',
          prevId: fourth.id,
          nextId: -7,
          tokens: [{ id: fourth.tokens[0].id }],
        },
      ],
      'error.utterance.brokenList',
    );
    const [a, b] = first.tokens;
    await refused(
      'PUT',
      '/api/utterance-tokens',
      { id: a.id, tsStart: 300, tsEnd: 100 },
      'error.token.endBeforeStart',
    );
    await refused(
      'PUT',
      '/api/utterance-tokens',
      { id: a.id, tsStart: 10.5, tsEnd: 100 },
      'error.token.times',
    );
    await refused(
      'PUT',
      '/api/utterance-tokens',
      { id: a.id, tsStart: 400, tsEnd: 420 },
      'error.token.order',
    );
    await refused(
      'PUT',
      '/api/utterances',
      { id: first.id, tokens: [{ id: b.id }, { id: a.id }] },
      'error.token.order',
    );
    await refused(
      'PUT',
      '/api/utterances',
      { id: first.id, tokens: [{ id: a.id }] },
      'error.utterance.lostTokens',
    );
    // a batch whose first part is fine and whose last part breaks the list: none of it is written
    await refused(
      'POST',
      '/api/utterances/batch',
      [
        { id: first.id, actor: 'SPEAKER2', nextId: -1, tokens: [{ id: a.id }] },
        { id: -1, actor: 'SPEAKER1', prevId: first.id, nextId: null, tokens: [{ id: b.id }] },
      ],
      'error.utterance.brokenList',
    );
    expect(await utterances()).toEqual(before);
  });

  it('refuses a word moved before the last word of the utterance before, or after the first of the next', async () => {
    const before = await utterances();
    expect(words(before)).toEqual(['Ala miała', 'kota kotka i psa', 'Dzień dobry', 'Koniec']);
    const refused = async (method: string, json: unknown) => {
      const res = await send(method, '/api/utterance-tokens', json);
      expect([res.status, res.body.message]).toEqual([400, 'error.utterance.order']);
    };
    // 'Dzień' (2000 ms) would start before 'psa' (1050 ms), the last word of the utterance before
    const dzien = tokenOf(before, 'Dzień');
    await refused('PUT', { id: dzien.id, tsStart: 1000, tsEnd: 1100 });
    // a word added to 'kota kotka i psa' at 2100 ms would come after 'Dzień' of the next utterance
    await refused('POST', { utteranceId: before[1].id, value: 'tak', tsStart: 2100, tsEnd: 2200 });
    // the last word of the first utterance retimed past the next utterance's first word
    const miala = tokenOf(before, 'miała');
    await refused('PUT', { id: miala.id, tsStart: 600, tsEnd: 700 });
    expect(await utterances()).toEqual(before);
  });

  it('reads only the edited utterance and its neighbours for a token write', async () => {
    const before = await utterances();
    const [first, second] = before;
    const ala = first.tokens[0];
    const read: number[] = [];
    let wholeDocument = 0;
    const watch = (q: { sql: string; bindings?: unknown[] }) => {
      if (/from "utterance_tokens" where "utterance_id" in/.test(q.sql))
        read.push(...(q.bindings ?? []).map(Number));
      if (/from "utterances" where "document_id" = \? order by/.test(q.sql)) wholeDocument++;
    };
    s.api.knex.on('query', watch);
    try {
      for (const value of ['Ela', 'Ala'])
        expect((await send('PUT', '/api/utterance-tokens', { id: ala.id, value })).status).toBe(200);
      const added = await send('POST', '/api/utterance-tokens', {
        utteranceId: first.id,
        value: 'tak',
        tsStart: 360,
        tsEnd: 380,
      });
      expect(added.status).toBe(201);
      expect((await send('DELETE', `/api/utterance-tokens/${added.body.id}`)).status).toBe(204);
    } finally {
      s.api.knex.removeListener('query', watch);
    }
    expect(wholeDocument).toBe(0);
    expect(read.length).toBeGreaterThan(0);
    expect([...new Set(read)].sort((a, b) => a - b)).toEqual([first.id, second.id].sort((a, b) => a - b));
    expect(await utterances()).toEqual(before);
  });

  it('deletes a token; the last token of an utterance takes the utterance with it', async () => {
    const before = await utterances();
    const koniec = tokenOf(before, 'Koniec');
    expect((await send('DELETE', `/api/utterance-tokens?id=${koniec.id}`)).status).toBe(204);
    const after = await utterances();
    expect(words(after)).toEqual(['Ala miała', 'kota kotka i psa', 'Dzień dobry']);
    expect(after[2].nextId).toBeNull();
    const psa = tokenOf(after, 'psa');
    expect((await send('DELETE', `/api/utterance-tokens/${psa.id}`)).status).toBe(204);
    expect(words(await utterances())[1]).toBe('kota kotka i');
  });

  it('tags tokens of one utterance and time spans of the recording', async () => {
    const us = await utterances();
    const [kota, kotka] = us[1].tokens;
    const post = (json: Record<string, unknown>) =>
      s.send('POST', '/api/ner-tags', writer.token, { documentId: docId, nerTagTypeId: label, ...json });
    const tokenTag = await post({
      type: 'ASR_NER_TAG',
      utteranceTokens: [{ id: kota.id }, { id: kotka.id }],
    });
    expect(tokenTag.status).toBe(201);
    expect(tokenTag.body).toMatchObject({
      type: 'ASR_NER_TAG',
      utteranceTokens: [{ id: kota.id }, { id: kotka.id }],
      tsStart: 550,
      tsEnd: 950,
      origin: 'USER',
    });
    const again = await post({ type: 'ASR_NER_TAG', utteranceTokenIds: [kotka.id, kota.id] });
    expect([again.status, again.body.id]).toEqual([200, tokenTag.body.id]);
    const twoUtterances = await post({
      type: 'ASR_NER_TAG',
      utteranceTokenIds: [kota.id, us[0].tokens[0].id],
    });
    expect(twoUtterances.status).toBe(400);
    expect(twoUtterances.body.fieldErrors[0]).toMatchObject({
      field: 'utteranceTokens',
      key: 'soaApp.nerTag.tokens',
    });
    const ofToken = await s.get(`/api/utterance-tokens/${kotka.id}/ner-tags`, writer.token);
    expect(ofToken.body.map((t: NerTagDTO) => t.id)).toEqual([tokenTag.body.id]);
    expect(
      (await s.get(`/api/utterance-tokens/${kotka.id}/ner-tags?stepIds=${MISSING_ID}`, writer.token)).body,
    ).toEqual([]);

    const timespan = await post({ type: 'TIMESPAN_TAG', tsStart: 1234.4, tsEnd: 2345.6 });
    expect(timespan.status).toBe(201);
    expect(timespan.body).toMatchObject({
      type: 'TIMESPAN_TAG',
      tsStart: 1230,
      tsEnd: 2350,
      utteranceTokens: [],
    });
    const resized = await s.send('PUT', '/api/ner-tags', writer.token, { id: timespan.body.id, tsEnd: 3001 });
    expect(resized.body).toMatchObject({ tsStart: 1230, tsEnd: 3000 });
    const backwards = await post({ type: 'TIMESPAN_TAG', tsStart: 2000, tsEnd: 1000 });
    expect(backwards.status).toBe(400);
    expect(backwards.body.fieldErrors[0]).toMatchObject({ field: 'tsEnd', key: 'soaApp.nerTag.timeOrder' });
    const noLabel = await s.send('POST', '/api/ner-tags', writer.token, {
      documentId: docId,
      type: 'TIMESPAN_TAG',
      tsStart: 0,
      tsEnd: 100,
    });
    expect([noLabel.status, noLabel.body.message]).toEqual([400, 'error.tag.nodeUndefined']);
    expect(noLabel.body.detail).toMatch(/Node could not be defined/);
    const noStep = await post({
      type: 'TIMESPAN_TAG',
      tsStart: 0,
      tsEnd: 100,
      nerTagTypeId: labelWithoutStep,
    });
    expect([noStep.status, noStep.body.detail]).toEqual([409, 'Step could not be defined']);
    const textTag = await post({ startOffset: 0, endOffset: 1 });
    expect([textTag.status, textTag.body.message]).toEqual([400, 'error.labellingType']);

    // deleting a tagged token: the tag keeps the other token; a tag left without tokens goes
    expect((await send('DELETE', `/api/utterance-tokens/${kotka.id}`)).status).toBe(204);
    const tags = (await s.get(`/api/ner-tags?documentId=${docId}`, writer.token)).body as NerTagDTO[];
    expect(tags.find((t) => t.id === tokenTag.body.id)!.utteranceTokens).toEqual([{ id: kota.id }]);

    // re-tokening a token tag: its times follow its tokens
    const i = us[1].tokens.find((t) => t.value === 'i')!;
    const retokened = await s.send('PUT', '/api/ner-tags', writer.token, {
      id: tokenTag.body.id,
      utteranceTokens: [{ id: i.id }, { id: kota.id }],
    });
    expect(retokened.status).toBe(200);
    expect(retokened.body).toMatchObject({
      utteranceTokens: [{ id: kota.id }, { id: i.id }].sort((a, b) => a.id - b.id),
      tsStart: 550,
      tsEnd: 1000,
    });

    // no word may be deleted while the document has a relation graph (spec 2 section 5)
    const [step] = await s.knex('steps').where({ document_id: docId, node_id: span }).select('id');
    const [graph] = await s
      .knex('ner_tag_relation_graphs')
      .insert({ document_id: docId, step_id: step.id, node_id: span })
      .returning('id');
    const blocked = await send('DELETE', `/api/utterance-tokens/${i.id}`);
    expect([blocked.status, blocked.body.message]).toEqual([409, 'error.token.cannotDelete']);
    await s.knex('ner_tag_relation_graphs').where('id', graph.id).delete();
  });

  it('refuses a write that would leave the words of a token tag in two utterances, and writes nothing of it', async () => {
    // an utterance of three words or more (two merged when there is none), a tag on its second and third word
    let before = await utterances();
    if (!before.some((x) => x.tokens.length >= 3)) {
      expect(before.length).toBeGreaterThanOrEqual(2);
      const i = 0;
      const merged = await send('PUT', '/api/utterances', {
        id: before[i].id,
        tokens: [...before[i].tokens, ...before[i + 1].tokens].map((t) => ({ id: t.id })),
      });
      expect(merged.status).toBe(200);
      before = await utterances();
    }
    const at = before.findIndex((x) => x.tokens.length >= 3);
    const u = before[at];
    const cut = 2;
    const tag = await s.send('POST', '/api/ner-tags', writer.token, {
      documentId: docId,
      nerTagTypeId: label,
      type: 'ASR_NER_TAG',
      utteranceTokenIds: [u.tokens[cut - 1].id, u.tokens[cut].id],
    });
    expect([200, 201]).toContain(tag.status);
    const ids = u.tokens.map((t) => ({ id: t.id }));
    const next = before[at + 1];
    // extracting the tag's second word (and what follows) into a new utterance
    const res = await send('POST', '/api/utterances/batch', [
      { id: u.id, nextId: -1, tokens: ids.slice(0, cut) },
      { id: -1, actor: u.actor, prevId: u.id, nextId: next?.id ?? null, tokens: ids.slice(cut) },
      ...(next ? [{ id: next.id, prevId: -1 }] : []),
    ]);
    expect([res.status, res.body.message]).toEqual([400, 'error.token.tagSplit']);
    expect(await utterances()).toEqual(before);
    // the same extraction before the tag's first word keeps the tag whole
    const whole = await send('POST', '/api/utterances/batch', [
      { id: u.id, nextId: -1, tokens: ids.slice(0, cut - 1) },
      { id: -1, actor: u.actor, prevId: u.id, nextId: next?.id ?? null, tokens: ids.slice(cut - 1) },
      ...(next ? [{ id: next.id, prevId: -1 }] : []),
    ]);
    expect(whole.status).toBe(201);
    const after = await utterances();
    expect(after[at].tokens.map((t) => t.id)).toEqual([u.tokens[0].id]);
    expect(after[at + 1].tokens.map((t) => t.id)).toEqual(u.tokens.slice(1).map((t) => t.id));
  });

  it('links token tags by relations with the rules of text tags: candidates, graph, refusals, issue', async () => {
    const us = await utterances();
    const tokenAt = (u: number, i: number) => us[u].tokens[i];
    await s.knex('nodes').where('id', span).update({ handles_relations: true });
    const [knows] = await s
      .knex('ner_relation_types')
      .insert({ node_id: span, name: 'knows', color: '#336699', priority: 2 })
      .returning('id');
    const typeId = Number(knows.id);
    const tagOf = async (tokens: { id: number }[]) => {
      const res = await s.send('POST', '/api/ner-tags', writer.token, {
        documentId: docId,
        nerTagTypeId: label,
        type: 'ASR_NER_TAG',
        utteranceTokens: tokens.map((t) => ({ id: t.id })),
      });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const ala = await tagOf([tokenAt(0, 0)]);
    const greeting = await tagOf([tokenAt(2, 0), tokenAt(2, 1)]);
    const relation = { fromId: ala, toId: greeting, relationTypeId: typeId };

    const candidates = await s.get(
      `/api/ner-tag-relation-graphs/candidates?documentId=${docId}&fromId=${ala}&toId=${greeting}`,
      writer.token,
    );
    expect(candidates.status).toBe(200);
    expect(candidates.body.message).toBeNull();
    expect(candidates.body.candidates.map((c: { name: string }) => c.name)).toEqual(['knows']);
    const validation = await s.send('PUT', '/api/ner-tag-relation-graphs/validation', writer.token, {
      documentId: docId,
      relations: [relation],
    });
    expect(validation.body).toEqual({ valid: true, message: null, graphs: [[0]] });
    // a time-span tag of another node's type (inserted: that node has no step here): not of the same node
    const [foreign] = await s
      .knex('ner_tags')
      .insert({
        document_id: docId,
        ner_tag_type_id: labelWithoutStep,
        type: 'TIMESPAN_TAG',
        ts_start: 0,
        ts_end: 100,
      })
      .returning('id');
    const mixed = await s.get(
      `/api/ner-tag-relation-graphs/candidates?documentId=${docId}&fromId=${ala}&toId=${foreign.id}`,
      writer.token,
    );
    expect([mixed.body.message, mixed.body.candidates]).toEqual(['error.relation.differentNodes', []]);

    const created = await s.send('POST', '/api/ner-tag-relation-graphs', writer.token, {
      documentId: docId,
      relations: [relation],
    });
    expect(created.status).toBe(201);
    expect(created.body.relations).toMatchObject([relation]);
    const listed = await s.get(`/api/ner-tag-relation-graphs?documentId=${docId}`, writer.token);
    expect(listed.body.map((g: { id: number }) => g.id)).toEqual([created.body.id]);
    expect(listed.body[0].relations[0].relationType).toMatchObject({ id: typeId, name: 'knows' });

    // a tag with relations is not deleted; no word may be deleted while the graph exists
    const refused = await s.send('DELETE', `/api/ner-tags/${ala}`, writer.token);
    expect([refused.status, refused.body.message]).toEqual([409, 'error.tag.hasRelations']);
    const word = await send('DELETE', `/api/utterance-tokens/${tokenAt(2, 1).id}`);
    expect([word.status, word.body.message]).toEqual([409, 'error.token.cannotDelete']);

    // a relation issue is titled by the tags' words
    const issue = await s.send('POST', '/api/issues', writer.token, {
      docId,
      type: 'RELATION',
      text: 'wrong direction',
      relation,
    });
    expect(issue.status).toBe(201);
    expect(issue.body.title).toBe(`${tokenAt(0, 0).value} - Dzień dobry`);

    const removed = await s.send('DELETE', `/api/ner-tag-relation-graphs/${created.body.id}`, writer.token);
    expect(removed.status).toBe(204);
    expect((await s.send('DELETE', `/api/ner-tags/${ala}`, writer.token)).status).toBe(204);
    await s.knex('issues').where('id', issue.body.id).delete();
    await s.knex('ner_tags').where('id', foreign.id).delete();
  });

  it('refuses a word deletion when a relation graph is saved while the deletion waits for the document', async () => {
    const us = await utterances();
    const victim = us[1].tokens[us[1].tokens.length - 1];
    const [step] = await s.knex('steps').where({ document_id: docId, node_id: span }).select('id');
    // A relation graph's save holds the document row (FOR SHARE, tag-steps holdDocument) before the deletion comes.
    const holder = await s.knex.transaction();
    try {
      await holder('documents').where('id', docId).forShare().first('id');
      const deletion = send('DELETE', `/api/utterance-tokens/${victim.id}`);
      await eventually('the deletion waits for the document row', async () => {
        const { rows } = await s.knex.raw<{ rows: { n: number }[] }>(
          `select count(*)::int as n from pg_stat_activity
           where wait_event_type = 'Lock' and query ilike '%from "documents"%for update%'`,
        );
        return rows[0].n > 0;
      });
      await holder('ner_tag_relation_graphs').insert({ document_id: docId, step_id: step.id, node_id: span });
      await holder.commit();
      const res = await deletion;
      expect([res.status, res.body.message]).toEqual([409, 'error.token.cannotDelete']);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
    expect((await utterances()).flatMap((u) => u.tokens).map((t) => t.id)).toContain(victim.id);
    await s.knex('ner_tag_relation_graphs').where('document_id', docId).delete();
  });

  it('writes a batch with deletedTokens all or nothing, and a deleted word named again comes back whole', async () => {
    const before = await utterances();
    const greeting = before.find((u) => u.tokens[0]?.value === 'Dzień')!;
    const [dzien, dobry] = greeting.tokens;
    const tagsOf = async (tokenId: number) =>
      ((await s.get(`/api/utterance-tokens/${tokenId}/ner-tags`, writer.token)).body as NerTagDTO[])
        .map((t) => t.id)
        .sort((a, b) => a - b);
    // 'dobry': a tag of its own (goes with the word), the greeting's tag (keeps 'Dzień'), a hint, a confidence
    const own = await s.send('POST', '/api/ner-tags', writer.token, {
      documentId: docId,
      nerTagTypeId: label,
      type: 'ASR_NER_TAG',
      utteranceTokens: [{ id: dobry.id }],
    });
    expect(own.status).toBe(201);
    const tagsBefore = await tagsOf(dobry.id);
    expect(tagsBefore).toHaveLength(2);
    await s.knex('token_hints').insert({ utterance_token_id: dobry.id, value: 'dobre', confidence: 0.4 });
    await s.knex('utterance_tokens').where('id', dobry.id).update({ confidence: 0.75 });
    const saved = await utterances();
    const batch = (json: unknown) => send('POST', '/api/utterances/batch', json);

    // refused by the plan (an actor not of the process) or by a relation graph: nothing deleted
    const badActor = await batch({
      batch: [{ id: greeting.id, actor: 'NOBODY' }],
      deletedTokens: [dobry.id],
    });
    expect([badActor.status, badActor.body.message]).toEqual([400, 'error.utterance.actor']);
    const [step] = await s.knex('steps').where({ document_id: docId, node_id: span }).select('id');
    const [graph] = await s
      .knex('ner_tag_relation_graphs')
      .insert({ document_id: docId, step_id: step.id, node_id: span })
      .returning('id');
    const blocked = await batch({
      batch: [{ id: greeting.id, actor: 'SPEAKER1' }],
      deletedTokens: [dobry.id],
    });
    expect([blocked.status, blocked.body.message]).toEqual([409, 'error.token.cannotDelete']);
    await s.knex('ner_tag_relation_graphs').where('id', graph.id).delete();
    // an unknown token answers as the token DELETE route does (403 to all but an admin)
    const unknown = await batch({ batch: [], deletedTokens: [dobry.id, MISSING_ID] });
    expect(unknown.status).toBe(403);
    const empty = await batch({ batch: [] });
    expect(empty.status).toBe(400);
    expect(await utterances()).toEqual(saved);
    expect(await tagsOf(dobry.id)).toEqual(tagsBefore);

    // applied: the word goes with its own tag, the actor changes, in one request
    const applied = await batch({
      batch: [{ id: greeting.id, actor: 'SPEAKER1' }],
      deletedTokens: [dobry.id],
    });
    expect(applied.status).toBe(200);
    const after = (await utterances()).find((u) => u.id === greeting.id)!;
    expect([after.actor, after.tokens.map((t) => t.value)]).toEqual(['SPEAKER1', ['Dzień']]);
    expect(await s.knex('ner_tags').where('id', own.body.id).first()).toBeUndefined();
    expect(await tagsOf(dzien.id)).toEqual(tagsBefore.filter((id) => id !== own.body.id));

    // the undo: the word named again by its id comes back with its id, confidence, hints and both tags
    const { utteranceId: _, ...fields } = dobry;
    const undone = await batch({
      batch: [{ id: greeting.id, actor: 'SPEAKER2', tokens: [{ id: dzien.id }, fields] }],
      deletedTokens: [],
    });
    expect(undone.status).toBe(200);
    expect(await utterances()).toEqual(saved);
    expect(await tagsOf(dobry.id)).toEqual(tagsBefore);
    expect(await s.knex('utterance_tokens').where('id', dobry.id).first('confidence')).toEqual({
      confidence: 0.75,
    });
    expect(
      await s.knex('token_hints').where('utterance_token_id', dobry.id).select('value', 'confidence'),
    ).toEqual([{ value: 'dobre', confidence: 0.4 }]);
    // brought back once: named again as new, it is no token of the document
    const again = await batch([
      { id: greeting.id, tokens: [{ id: dzien.id }, { id: MISSING_ID, value: 'x' }] },
    ]);
    expect([again.status, again.body.message]).toEqual([400, 'error.token.unknown']);
    await s.send('DELETE', `/api/ner-tags/${own.body.id}`, writer.token);
    await s.knex('token_hints').where('utterance_token_id', dobry.id).delete();
  });

  it('refuses a caller without WRITE, a step the caller may not edit, another process and its node', async () => {
    const us = await utterances();
    const ala = us[0].tokens[0];
    const change = { id: ala.id, value: 'Ola' };
    const reader = await person(s, [{ componentId: processId, type: 'PROCESS', mode: 'READ' }]);
    expect((await send('PUT', '/api/utterance-tokens', change, reader.token)).status).toBe(403);
    const readerBatch = { batch: [], deletedTokens: [ala.id] };
    expect((await send('POST', '/api/utterances/batch', readerBatch, reader.token)).status).toBe(403);
    expect(
      (await send('PUT', '/api/utterances', { id: us[0].id, actor: 'SPEAKER2' }, reader.token)).status,
    ).toBe(403);
    // another writer: the step is held by the writer
    const other = await person(s, [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }]);
    const held = await send('PUT', '/api/utterance-tokens', change, other.token);
    expect([held.status, held.body.errorKey]).toEqual([409, 'assignedToOther']);
    const heldDelete = await send('DELETE', `/api/utterance-tokens/${ala.id}`, undefined, other.token);
    expect([heldDelete.status, heldDelete.body.errorKey]).toEqual([409, 'assignedToOther']);
    const heldBatch = await send('POST', '/api/utterances/batch', readerBatch, other.token);
    expect([heldBatch.status, heldBatch.body.errorKey]).toEqual([409, 'assignedToOther']);
    // a node without a step in the document
    const noStep = await send('PUT', '/api/utterance-tokens', change, writer.token, spanWithoutStep);
    expect([noStep.status, noStep.body.message]).toEqual([409, 'error.tag.stepUndefined']);

    // a writer of another process, through its own node, on this process's document
    const q = (await buildProcess(s.knex)).id;
    const qNode = (await insertNode(s.knex, q, 'SPAN')).id;
    await insertNerTagType(s.knex, qNode);
    const stranger = await person(s, [{ componentId: q, type: 'PROCESS', mode: 'ADMIN' }]);
    for (const [method, path, json] of [
      ['PUT', '/api/utterance-tokens', change],
      ['PUT', '/api/utterances', { id: us[0].id, actor: 'SPEAKER2' }],
      ['POST', '/api/utterance-tokens', { utteranceId: us[0].id, value: 'x', tsStart: 0, tsEnd: 1 }],
      ['POST', '/api/utterances/batch', [{ id: us[0].id, actor: 'SPEAKER2' }]],
      ['POST', '/api/utterances/batch', { batch: [], deletedTokens: [ala.id] }],
      ['DELETE', `/api/utterance-tokens/${ala.id}`, undefined],
    ] as const) {
      const res = await send(method, path, json, stranger.token, qNode);
      expect([method, path, res.status]).toEqual([method, path, 403]);
      // the admin (who reaches everything) gets the same refusal as for an unknown id: 404
      const admin = await send(method, path, json, s.admin, qNode);
      expect([method, path, admin.status]).toEqual([method, path, 404]);
    }
    expect((await s.get(`/api/utterance-tokens/${ala.id}/ner-tags`, stranger.token)).status).toBe(403);
    expect((await s.get(`/api/asr-documents/${docId}`, stranger.token)).status).toBe(403);
    expect((await s.get(`/api/asr-documents?processId=${processId}`, stranger.token)).status).toBe(403);
    expect(await utterances()).toEqual(us);
  });

  it('refuses every write once the step is completed (no longer WAITING), and the reads still answer', async () => {
    const us = await utterances();
    const [step] = await s.knex('steps').where({ document_id: docId, node_id: span }).select('id');
    expect((await s.send('PUT', `/api/steps/${step.id}/complete`, writer.token)).status).toBe(200);
    await stepReaching(s.knex, docId, span, ['DONE']);
    const ala = us[0].tokens[0];
    for (const [method, path, json] of [
      ['PUT', '/api/utterance-tokens', { id: ala.id, value: 'Ola' }],
      ['PUT', '/api/utterances', { id: us[0].id, actor: 'SPEAKER2' }],
      ['POST', '/api/utterance-tokens', { utteranceId: us[0].id, value: 'x', tsStart: 0, tsEnd: 1 }],
      ['DELETE', `/api/utterance-tokens/${ala.id}`, undefined],
      ['POST', '/api/utterances/batch', { batch: [], deletedTokens: [ala.id] }],
    ] as const) {
      const res = await send(method, path, json);
      expect([method, path, res.status, res.body.errorKey]).toEqual([method, path, 409, 'notWaiting']);
    }
    expect(await utterances()).toEqual(us);
  });

  it('lists, searches, shows, creates, renames and deletes asr documents per process', async () => {
    const list = await s.get(`/api/asr-documents?processId=${processId}`, writer.token);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body).toEqual([
      { id: docId, processId, filename: 'talk.json', status: expect.stringMatching(/^(WAITING|DONE)$/) },
    ]);
    expect((await s.get(`/api/asr-documents/${docId}`, writer.token)).body).toMatchObject({
      id: docId,
      processId,
    });
    const found = await s.get(`/api/_search/asr-documents?query=TALK&processId=${processId}`, writer.token);
    expect(found.body.map((d: { id: number }) => d.id)).toEqual([docId]);
    const byId = await s.get(`/api/_search/asr-documents?query=${docId}`, writer.token);
    expect(byId.body.map((d: { id: number }) => d.id)).toEqual([docId]);
    expect((await s.get(`/api/_search/asr-documents?query=nothing-like-it`, writer.token)).body).toEqual([]);

    const admin = await person(s, [{ componentId: processId, type: 'PROCESS', mode: 'ADMIN' }]);
    const created = await s.send('POST', '/api/asr-documents', admin.token, { processId, filename: 'nowy' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ processId, filename: 'nowy.wav' });
    const renamed = await s.send('PUT', '/api/asr-documents', admin.token, {
      id: created.body.id,
      processId,
      filename: 'nagranie.wav',
    });
    expect([renamed.status, renamed.body.filename]).toEqual([200, 'nagranie.wav']);
    // a text document is no asr document
    const [text] = await s
      .knex('documents')
      .insert({
        process_id: processId,
        filename: 'plain.txt',
        path: 'aa/bb/plain',
        content_hash: 'x'.repeat(64),
        mime_type: 'text/plain',
        size: 1,
        document_type: 'TEXTFILE',
      })
      .returning('id');
    expect((await s.get(`/api/asr-documents/${text.id}`, writer.token)).status).toBe(404);
    const moved = await s.send('PUT', '/api/asr-documents', admin.token, {
      id: created.body.id,
      processId: MISSING_ID,
      filename: 'x.wav',
    });
    expect(moved.status).toBe(400);
    const paged = await s.get(`/api/asr-documents?processId=${processId}&size=1&page=1`, writer.token);
    expect([paged.headers.get('x-total-count'), paged.body.map((d: { id: number }) => d.id)]).toEqual([
      '2',
      [created.body.id],
    ]);
    expect((await s.send('DELETE', `/api/asr-documents/${created.body.id}`, writer.token)).status).toBe(403);
    expect((await s.send('DELETE', `/api/asr-documents/${created.body.id}`, admin.token)).status).toBe(204);
    expect((await s.get(`/api/asr-documents/${created.body.id}`, s.admin)).status).toBe(404);
  });
});
