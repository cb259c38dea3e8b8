/**
 * Relation graphs between NER tags (issue 12 section 1; rules in domain/relations.ts, contract in
 * docs/api-relations.md): the candidates of two tags (same node, node handling relations, merge, strict,
 * ancestry, priority order and priority mode), creating, validating, editing and deleting graphs with every
 * rule enforced by the server (a graph that is not connected: 422 error.graph.noCohesive), access per mode
 * (READ reads but does not write, WRITE writes, a step the caller may not edit refuses), another process's
 * document answering like an unknown one, and a tag with relations that cannot be deleted. The documents and
 * steps are inserted as the projection holds them (these routes read and write the projection only).
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import type { RelationGraphDTO } from '../../domain/relations';
import { buildProcess, buildUser, insertNode, MISSING_ID, setupSuite, type Suite } from '../support/harness';

const TEXT = 'Jan Kowalski, minister, mieszka w Warszawie i Krakowie.';

async function insertDocument(knex: Knex, processId: number, uploadNodeId: number) {
  const hash = crypto.randomBytes(32).toString('hex');
  const [doc] = await knex('documents')
    .insert({
      process_id: processId,
      upload_node_id: uploadNodeId,
      filename: 'relations.txt',
      path: `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
      content_hash: hash,
      mime_type: 'text/plain',
      size: TEXT.length,
      document_type: 'TEXTFILE',
    })
    .returning('id');
  await knex('document_contents').insert({ document_id: doc.id, content: TEXT });
  return Number(doc.id);
}

async function insertStep(
  knex: Knex,
  documentId: number,
  nodeId: number,
  order: number,
  over: { status?: string; blockedBy?: number | null } = {},
) {
  const [step] = await knex('steps')
    .insert({
      document_id: documentId,
      node_id: nodeId,
      order,
      status: over.status ?? 'WAITING',
      blocked_by_id: over.blockedBy ?? null,
      master: true,
    })
    .returning('id');
  return Number(step.id);
}

async function tagType(knex: Knex, nodeId: number, name: string, parentId: number | null = null) {
  const [t] = await knex('ner_tag_types')
    .insert({
      node_id: nodeId,
      name,
      parent_id: parentId,
      background_color: '#111111',
      text_color: '#ffffff',
      path: name,
    })
    .returning('id');
  return Number(t.id);
}

async function relationType(
  knex: Knex,
  nodeId: number,
  name: string,
  over: {
    priority?: number;
    fromId?: number | null;
    toId?: number | null;
    strict?: boolean;
    merge?: boolean;
  },
) {
  const [r] = await knex('ner_relation_types')
    .insert({
      node_id: nodeId,
      name,
      color: '#336699',
      priority: over.priority ?? 2,
      from_id: over.fromId ?? null,
      to_id: over.toId ?? null,
      strict: over.strict ?? false,
      merge: over.merge ?? false,
    })
    .returning('id');
  return Number(r.id);
}

async function tag(
  knex: Knex,
  documentId: number,
  stepId: number,
  typeId: number,
  start: number,
  end: number,
) {
  const [t] = await knex('ner_tags')
    .insert({
      document_id: documentId,
      step_id: stepId,
      ner_tag_type_id: typeId,
      type: 'SPAN_TAG',
      start_offset: start,
      end_offset: end,
    })
    .returning('id');
  return Number(t.id);
}

async function person(s: Suite, authorities: NonNullable<Parameters<typeof buildUser>[1]>['authorities']) {
  const user = await buildUser(s.knex, { authorities });
  return { id: user.id, token: await s.signIn(user) };
}

/**
 * A process with a SPAN node handling relations (Person > Politician, Place; relation types of every kind)
 * and a second SPAN node that does not; a document with a step of each, held by the writer, and tags.
 */
async function world(s: Suite) {
  const k = s.knex;
  const processId = (await buildProcess(k)).id;
  const upload = await insertObligatoryUploadNode(k, processId);
  const span = (await insertNode(k, processId, 'SPAN')).id;
  await k('nodes')
    .where('id', span)
    .update({
      handles_relations: true,
      settings: JSON.stringify({
        supportedTaggingTypes: ['text'],
        relationPriorityMode: false,
      }),
    });
  const plain = (await insertNode(k, processId, 'SPAN')).id;
  const personType = await tagType(k, span, 'Person');
  const politician = await tagType(k, span, 'Politician', personType);
  const place = await tagType(k, span, 'Place');
  const plainType = await tagType(k, plain, 'Thing');
  const rt = {
    livesIn: await relationType(k, span, 'lives in', { priority: 3, fromId: personType, toId: place }),
    holdsOffice: await relationType(k, span, 'holds office in', {
      priority: 4,
      fromId: politician,
      toId: place,
    }),
    strictPerson: await relationType(k, span, 'strict person at', {
      priority: 2,
      fromId: personType,
      toId: place,
      strict: true,
    }),
    samePlace: await relationType(k, span, 'same as', {
      priority: 1,
      fromId: place,
      toId: place,
      merge: true,
    }),
    near: await relationType(k, span, 'near', { priority: 0 }),
    plainAny: await relationType(k, plain, 'thing rel', { priority: 4 }),
  };
  const writer = await person(s, [{ componentId: processId, type: 'PROCESS', mode: 'WRITE' }]);
  const documentId = await insertDocument(k, processId, upload.id);
  const step = await insertStep(k, documentId, span, 1, { blockedBy: writer.id });
  const plainStep = await insertStep(k, documentId, plain, 2, { blockedBy: writer.id });
  const tags = {
    jan: await tag(k, documentId, step, personType, 0, 12),
    minister: await tag(k, documentId, step, politician, 14, 22),
    warszawa: await tag(k, documentId, step, place, 34, 43),
    krakow: await tag(k, documentId, step, place, 46, 54),
    thing: await tag(k, documentId, plainStep, plainType, 0, 3),
    thing2: await tag(k, documentId, plainStep, plainType, 4, 12),
  };
  return { processId, span, plain, step, plainStep, rt, tags, writer, documentId };
}

describe('relation graphs API', () => {
  const s = setupSuite();
  const base = '/api/ner-tag-relation-graphs';
  const rel = (fromId: number, toId: number, relationTypeId: number) => ({ fromId, toId, relationTypeId });
  const candidates = (token: string, documentId: number, fromId: number, toId: number) =>
    s.get<{ message: string | null; candidates: { id: number; name: string; priority: number }[] }>(
      `${base}/candidates?documentId=${documentId}&fromId=${fromId}&toId=${toId}`,
      token,
    );
  const names = (res: { body: { candidates: { name: string }[] } }) => res.body.candidates.map((c) => c.name);
  const graphsOf = (token: string, documentId: number, stepIds?: number[]) =>
    s.get<RelationGraphDTO[]>(
      `${base}?documentId=${documentId}${stepIds ? `&stepIds=${stepIds.join(',')}` : ''}`,
      token,
    );

  it('offers the candidates of two tags by node, kind, ancestry and priority (4 first)', async () => {
    const w = await world(s);
    const t = w.writer.token;
    // a Politician is a Person: ancestry matches "lives in" and "holds office in"; strict wants Person itself
    const fromMinister = await candidates(t, w.documentId, w.tags.minister, w.tags.warszawa);
    expect(fromMinister.status).toBe(200);
    expect(names(fromMinister)).toEqual(['holds office in', 'lives in', 'near']);
    expect(fromMinister.body.candidates.map((c) => c.priority)).toEqual([4, 3, 0]);
    expect(names(await candidates(t, w.documentId, w.tags.jan, w.tags.warszawa))).toEqual([
      'lives in',
      'strict person at',
      'near',
    ]);
    // merge: the same tag type only
    expect(names(await candidates(t, w.documentId, w.tags.warszawa, w.tags.krakow))).toEqual([
      'same as',
      'near',
    ]);
    // direction counts: Place -> Person only by "near" (any -> any)
    expect(names(await candidates(t, w.documentId, w.tags.warszawa, w.tags.jan))).toEqual(['near']);
    // another node's tags, a node that does not handle relations, the same tag
    const cross = await candidates(t, w.documentId, w.tags.jan, w.tags.thing);
    expect(cross.body).toEqual({ message: 'error.relation.differentNodes', candidates: [] });
    const plain = await candidates(t, w.documentId, w.tags.thing, w.tags.thing2);
    expect(plain.body).toEqual({ message: 'error.relation.nodeNoRelations', candidates: [] });
    expect((await candidates(t, w.documentId, w.tags.jan, w.tags.jan)).body.message).toBe(
      'error.relation.self',
    );
  });

  it('keeps only the top priority with the node’s priority mode on', async () => {
    const w = await world(s);
    const t = w.writer.token;
    expect(names(await candidates(t, w.documentId, w.tags.jan, w.tags.warszawa))).toHaveLength(3);
    // the SPAN node's setting, saved through the nodes API
    const before = await s.get(`/api/nodes/${w.span}`, s.admin);
    expect(before.body.relationPriorityMode).toBe(false);
    const saved = await s.send('PUT', '/api/nodes', s.admin, { ...before.body, relationPriorityMode: true });
    expect(saved.status).toBe(200);
    expect(names(await candidates(t, w.documentId, w.tags.minister, w.tags.warszawa))).toEqual([
      'holds office in',
    ]);
    expect(names(await candidates(t, w.documentId, w.tags.jan, w.tags.warszawa))).toEqual(['lives in']);
    // the server refuses a lower-priority type in priority mode
    const low = await s.send('POST', base, t, {
      documentId: w.documentId,
      relations: [rel(w.tags.jan, w.tags.warszawa, w.rt.near)],
    });
    expect(low.status).toBe(422);
    expect(low.body.message).toBe('error.relation.typeNotAllowed');
    expect((await s.get(`/api/nodes/${w.span}`, s.admin)).body.relationPriorityMode).toBe(true);
  });

  it('creates, validates, edits and deletes a graph; every rule is enforced by the server', async () => {
    const w = await world(s);
    const t = w.writer.token;
    const post = (relations: unknown[]) => s.send('POST', base, t, { documentId: w.documentId, relations });
    const validate = (relations: unknown[]) =>
      s.send('PUT', `${base}/validation`, t, { documentId: w.documentId, relations });

    const disconnected = [
      rel(w.tags.jan, w.tags.warszawa, w.rt.livesIn),
      rel(w.tags.minister, w.tags.krakow, w.rt.holdsOffice),
    ];
    expect((await validate(disconnected)).body).toEqual({
      valid: false,
      message: 'error.graph.noCohesive',
      graphs: [[0], [1]],
    });
    const refused = await post(disconnected);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('error.graph.noCohesive');
    expect(refused.body.validation.valid).toBe(false);

    // each rule, by its key
    const cases: [unknown[], string][] = [
      [[], 'error.graph.empty'],
      [[rel(w.tags.jan, w.tags.thing, w.rt.near)], 'error.relation.differentNodes'],
      [[rel(w.tags.thing, w.tags.thing2, w.rt.plainAny)], 'error.relation.nodeNoRelations'],
      [[rel(w.tags.minister, w.tags.warszawa, w.rt.strictPerson)], 'error.relation.typeNotAllowed'], // strict
      [[rel(w.tags.jan, w.tags.warszawa, w.rt.samePlace)], 'error.relation.typeNotAllowed'], // merge
      [[rel(w.tags.jan, w.tags.warszawa, w.rt.holdsOffice)], 'error.relation.typeNotAllowed'], // ancestry
      [[rel(w.tags.warszawa, w.tags.jan, w.rt.livesIn)], 'error.relation.typeNotAllowed'], // direction
      [[rel(w.tags.jan, w.tags.warszawa, w.rt.plainAny)], 'error.relation.typeNotAllowed'], // other node's type
      [[rel(w.tags.jan, MISSING_ID, w.rt.near)], 'error.relation.tagNotFound'],
      [[rel(w.tags.jan, w.tags.jan, w.rt.near)], 'error.relation.self'],
      [
        [rel(w.tags.jan, w.tags.warszawa, w.rt.near), rel(w.tags.jan, w.tags.warszawa, w.rt.near)],
        'error.relation.duplicate',
      ],
    ];
    for (const [relations, key] of cases) {
      const v = await validate(relations);
      expect([key, v.status, v.body.valid, v.body.message]).toEqual([key, 200, false, key]);
      const p = await post(relations);
      expect([key, p.status, p.body.message]).toEqual([key, 422, key]);
    }
    expect(await s.knex('ner_tag_relation_graphs').where('document_id', w.documentId)).toEqual([]);

    // a cohesive graph of allowed relations
    const relations = [
      rel(w.tags.jan, w.tags.warszawa, w.rt.livesIn),
      rel(w.tags.minister, w.tags.warszawa, w.rt.holdsOffice),
    ];
    expect((await validate(relations)).body).toEqual({ valid: true, message: null, graphs: [[0, 1]] });
    const created = await post(relations);
    expect(created.status).toBe(201);
    const graph = created.body as RelationGraphDTO;
    expect(graph).toMatchObject({ documentId: w.documentId, stepId: w.step, nodeId: w.span });
    expect(
      graph.relations.map(({ fromId, toId, relationTypeId }) => ({ fromId, toId, relationTypeId })),
    ).toEqual(relations);
    expect(graph.relations.every((r) => r.relationGraphId === graph.id)).toBe(true);
    expect(graph.relations[0].relationType).toEqual({ id: w.rt.livesIn, name: 'lives in', color: '#336699' });
    const listed = await graphsOf(t, w.documentId);
    expect(listed.body).toEqual([graph]);
    expect((await graphsOf(t, w.documentId, [w.step])).body).toEqual([graph]);
    expect((await graphsOf(t, w.documentId, [w.plainStep])).body).toEqual([]);

    // edit: add Kraków, drop one; the relation kept keeps its id; a disconnected edit is refused
    const kept = graph.relations[0];
    const edit = [relations[0], rel(w.tags.warszawa, w.tags.krakow, w.rt.samePlace)];
    const edited = await s.send('PUT', base, t, { id: graph.id, relations: edit });
    expect(edited.status).toBe(200);
    expect(edited.body.relations).toHaveLength(2);
    expect(edited.body.relations[0].id).toBe(kept.id);
    const broken = await s.send('PUT', base, t, {
      id: graph.id,
      relations: [relations[0], rel(w.tags.minister, w.tags.krakow, w.rt.holdsOffice)],
    });
    expect(broken.status).toBe(422);
    expect(broken.body.message).toBe('error.graph.noCohesive');
    expect((await graphsOf(t, w.documentId)).body[0].relations).toEqual(edited.body.relations);

    // a tag with relations cannot be deleted; without, it can
    const delTag = await s.send('DELETE', `/api/ner-tags/${w.tags.krakow}`, t);
    expect(delTag.status).toBe(409);
    expect(delTag.body.message).toBe('error.tag.hasRelations');
    expect(await s.knex('ner_tags').where('id', w.tags.krakow).first('id')).toBeDefined();
    expect((await s.send('DELETE', `/api/ner-tags/${w.tags.minister}`, t)).status).toBe(204);

    // delete the graph: its tags may then be deleted
    expect((await s.send('DELETE', `${base}/${graph.id}`, t)).status).toBe(204);
    expect((await graphsOf(t, w.documentId)).body).toEqual([]);
    expect(await s.knex('ner_tag_relations').where('graph_id', graph.id)).toEqual([]);
    expect((await s.send('DELETE', `/api/ner-tags/${w.tags.krakow}`, t)).status).toBe(204);
  });

  it('lets READ read and validate but not write; WRITE writes; a step the caller may not edit refuses', async () => {
    const w = await world(s);
    const reader = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'READ' }]);
    const otherWriter = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const nodeWriter = await person(s, [{ componentId: w.span, type: 'NODE', mode: 'WRITE' }]);
    const relations = [rel(w.tags.jan, w.tags.warszawa, w.rt.livesIn)];
    const created = await s.send('POST', base, w.writer.token, { documentId: w.documentId, relations });
    expect(created.status).toBe(201);
    const graphId = created.body.id as number;

    // READ: reads and validates, writes nothing
    expect((await graphsOf(reader.token, w.documentId)).status).toBe(200);
    expect((await graphsOf(reader.token, w.documentId)).body).toHaveLength(1);
    const v = await s.send('PUT', `${base}/validation`, reader.token, {
      documentId: w.documentId,
      relations,
    });
    expect(v.body.valid).toBe(true);
    expect((await s.send('POST', base, reader.token, { documentId: w.documentId, relations })).status).toBe(
      403,
    );
    expect((await s.send('PUT', base, reader.token, { id: graphId, relations })).status).toBe(403);
    expect((await s.send('DELETE', `${base}/${graphId}`, reader.token)).status).toBe(403);

    // WRITE, but the step is held by the writer: 409, nothing changes
    const notMine = await s.send('POST', base, otherWriter.token, {
      documentId: w.documentId,
      relations: [rel(w.tags.jan, w.tags.krakow, w.rt.livesIn)],
    });
    expect(notMine.status).toBe(409);
    expect(notMine.body.message).toBe('error.tag.stepNotEditable');
    expect((await s.send('DELETE', `${base}/${graphId}`, otherWriter.token)).status).toBe(409);

    // WRITE on another node only: the tags' node decides
    const plainWriter = await person(s, [{ componentId: w.plain, type: 'NODE', mode: 'WRITE' }]);
    expect(
      (await s.send('POST', base, plainWriter.token, { documentId: w.documentId, relations })).status,
    ).toBe(403);

    // a step that is DONE is not editable, even by its holder
    await s.knex('steps').where('id', w.step).update({ status: 'DONE' });
    expect((await s.send('PUT', base, w.writer.token, { id: graphId, relations })).status).toBe(409);
    await s.knex('steps').where('id', w.step).update({ status: 'WAITING', blocked_by_id: nodeWriter.id });

    // a WRITE grant on the node itself is enough once the step is theirs
    const edit = [...relations, rel(w.tags.minister, w.tags.warszawa, w.rt.holdsOffice)];
    const put = await s.send('PUT', base, nodeWriter.token, { id: graphId, relations: edit });
    expect(put.status).toBe(200);
    expect(put.body.relations).toHaveLength(2);
    expect((await s.send('DELETE', `${base}/${graphId}`, nodeWriter.token)).status).toBe(204);
  });

  it('answers another process’s document, graph or tags like unknown ones (no IDOR)', async () => {
    const w = await world(s);
    const other = await world(s);
    const relations = [rel(w.tags.jan, w.tags.warszawa, w.rt.livesIn)];
    const created = await s.send('POST', base, w.writer.token, { documentId: w.documentId, relations });
    expect(created.status).toBe(201);
    const outsider = other.writer.token;
    expect((await graphsOf(outsider, w.documentId)).status).toBe(403);
    expect((await graphsOf(outsider, MISSING_ID)).status).toBe(403);
    expect((await candidates(outsider, w.documentId, w.tags.jan, w.tags.warszawa)).status).toBe(403);
    const validate = await s.send('PUT', `${base}/validation`, outsider, {
      documentId: w.documentId,
      relations,
    });
    expect(validate.status).toBe(403);
    expect((await s.send('POST', base, outsider, { documentId: w.documentId, relations })).status).toBe(403);
    expect((await s.send('PUT', base, outsider, { id: created.body.id, relations })).status).toBe(403);
    expect((await s.send('DELETE', `${base}/${created.body.id}`, outsider)).status).toBe(403);
    expect((await s.send('DELETE', `${base}/${MISSING_ID}`, outsider)).status).toBe(403);
    // tags of the first process named through the outsider's own document are not found there
    const foreign = await s.send('POST', base, outsider, { documentId: other.documentId, relations });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toBe('error.relation.tagNotFound');
    // an edit may not pull another document's tags into the graph
    const pulled = await s.send('PUT', base, w.writer.token, {
      id: created.body.id,
      relations: [rel(other.tags.jan, other.tags.warszawa, other.rt.livesIn)],
    });
    expect(pulled.status).toBe(422);
    expect(pulled.body.message).toBe('error.relation.tagNotFound');
    // the admin gets plain 404s for unknown ids
    expect((await graphsOf(s.admin, MISSING_ID)).status).toBe(404);
    expect((await s.send('DELETE', `${base}/${MISSING_ID}`, s.admin)).status).toBe(404);
    expect((await graphsOf(w.writer.token, w.documentId)).body).toHaveLength(1);
  });
});
