/**
 * The NER tag API of the workspace (issue 11 section 3): reading a document's tags per step, labelling,
 * resizing, retyping and deleting text spans on the step the caller edits, "label all occurrences" in one
 * batch, the tag-type option tree of the labelling menu, and the refusals: no WRITE on the label's node
 * (403), a span outside the content (400), a step that is not editable (409 / 423), another process's
 * document or label (403 like an unknown id). Most tests insert documents and steps as the projection holds
 * them (these routes read and write the projection only); one runs a real lexicon node on the suite's worker
 * and lets an annotator review its tags and complete the step.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import type { NerTagDTO, TagTypeOption } from '../../domain/tags';
import { GraphBuilder, setupEngineSuite, startDocument, stepReaching, stepsOf } from '../support/engine';
import {
  buildProcess,
  buildUser,
  insertNerTagType,
  insertNode,
  MISSING_ID,
  type Suite,
} from '../support/harness';

const TEXT = 'Ala ma kota. Zażółć gęślą jaźń 😀 koniec.';

/** A document of the process with its content, as the parser leaves it. */
async function insertDocument(knex: Knex, processId: number, uploadNodeId: number, content = TEXT) {
  const hash = crypto.randomBytes(32).toString('hex');
  const [doc] = await knex('documents')
    .insert({
      process_id: processId,
      upload_node_id: uploadNodeId,
      filename: 'tags.txt',
      path: `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
      content_hash: hash,
      mime_type: 'text/plain',
      size: content.length,
      document_type: 'TEXTFILE',
    })
    .returning('id');
  await knex('document_contents').insert({ document_id: doc.id, content });
  return Number(doc.id);
}

async function insertStep(
  knex: Knex,
  documentId: number,
  nodeId: number,
  order: number,
  over: { status?: string; blockedBy?: number | null; master?: boolean } = {},
) {
  const [step] = await knex('steps')
    .insert({
      document_id: documentId,
      node_id: nodeId,
      order,
      status: over.status ?? 'WAITING',
      blocked_by_id: over.blockedBy ?? null,
      master: over.master ?? true,
    })
    .returning('id');
  return Number(step.id);
}

interface Person {
  id: number;
  token: string;
}

async function person(
  s: Suite,
  authorities: NonNullable<Parameters<typeof buildUser>[1]>['authorities'],
): Promise<Person> {
  const user = await buildUser(s.knex, { authorities });
  return { id: user.id, token: await s.signIn(user) };
}

/** A process with a span node, a second span node and a lexicon node, their labels, and one document. */
async function world(s: Suite) {
  const k = s.knex;
  const processId = (await buildProcess(k)).id;
  const upload = await insertObligatoryUploadNode(k, processId);
  const span = (await insertNode(k, processId, 'SPAN')).id;
  const span2 = (await insertNode(k, processId, 'SPAN')).id;
  const lexicon = (await insertNode(k, processId, 'LEXICON')).id;
  const clf = (await insertNode(k, processId, 'CLF')).id;
  const person_ = (await insertNerTagType(k, span, 'Person')).id;
  const place = (await insertNerTagType(k, span, 'Place')).id;
  const [group] = await k('ner_tag_types')
    .insert({
      node_id: span,
      name: 'Group',
      background_color: '#222222',
      text_color: '#ffffff',
      path: 'Group',
      selectable: false,
    })
    .returning('id');
  const other = (await insertNerTagType(k, span2, 'Other')).id;
  const city = (await insertNerTagType(k, lexicon, 'City')).id;
  const animal = (await insertNerTagType(k, lexicon, 'Animal')).id;
  const documentId = await insertDocument(k, processId, upload.id);
  return {
    processId,
    upload: upload.id,
    span,
    span2,
    lexicon,
    clf,
    types: { person: person_, place, group: Number(group.id), other, city, animal },
    documentId,
  };
}

describe('NER tags API', () => {
  const s = setupEngineSuite('ner-tags');
  const post = (token: string, json: unknown) => s.send('POST', '/api/ner-tags', token, json);
  const put = (token: string, json: unknown) => s.send('PUT', '/api/ner-tags', token, json);
  const del = (token: string, id: number) => s.send('DELETE', `/api/ner-tags/${id}`, token);
  const tagsOf = (token: string, documentId: number, stepIds?: number[]) =>
    s.get<NerTagDTO[]>(
      `/api/ner-tags?documentId=${documentId}${stepIds ? `&stepIds=${stepIds.join(',')}` : ''}`,
      token,
    );

  it('lets the user working on the step label, resize, retype and delete; the API decides step and node', async () => {
    const w = await world(s);
    const writer = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const other = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const otherStep = await insertStep(s.knex, w.documentId, w.span, 1, { blockedBy: other.id });
    const step = await insertStep(s.knex, w.documentId, w.span, 2, { blockedBy: writer.id, master: false });

    // The client's word on step, node, origin and type of node is not taken: the step is the writer's own.
    const created = await post(writer.token, {
      documentId: w.documentId,
      nerTagTypeId: w.types.person,
      startOffset: 0,
      endOffset: 3,
      nodeId: w.span2,
      origin: 'LEXICON',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'SPAN_TAG',
      nerTagTypeId: w.types.person,
      nerTagType: { id: w.types.person, name: 'Person', nodeId: w.span, path: 'Person' },
      startOffset: 0,
      endOffset: 3,
      stepId: step,
      nodeId: w.span,
      documentId: w.documentId,
      origin: 'USER',
      createdById: writer.id,
      lastModifiedById: null,
      utteranceTokens: [],
    });
    const tagId = created.body.id;
    // Naming a step the writer does not hold is refused, not obeyed.
    const elsewhere = await post(writer.token, {
      documentId: w.documentId,
      nerTagTypeId: w.types.person,
      startOffset: 4,
      endOffset: 6,
      stepId: otherStep,
    });
    expect([elsewhere.status, elsewhere.body.errorKey]).toEqual([409, 'assignedToOther']);
    // The same span again is the same tag.
    const again = await post(writer.token, {
      documentId: w.documentId,
      nerTagTypeId: w.types.person,
      startOffset: 0,
      endOffset: 3,
    });
    expect([again.status, again.body.id]).toEqual([200, tagId]);

    // Resize (what the drag handles send), then retype; fields the client may not set are ignored.
    const resized = await put(writer.token, {
      ...created.body,
      startOffset: 0,
      endOffset: 6,
      stepId: otherStep,
    });
    expect(resized.status).toBe(200);
    expect(resized.body).toMatchObject({ id: tagId, startOffset: 0, endOffset: 6, stepId: step });
    expect(resized.body.lastModifiedById).toBe(writer.id);
    const retyped = await put(writer.token, { id: tagId, nerTagType: { id: w.types.place } });
    expect(retyped.status).toBe(200);
    expect(retyped.body).toMatchObject({
      nerTagTypeId: w.types.place,
      nerTagType: { name: 'Place' },
      startOffset: 0,
      endOffset: 6,
    });
    expect((await tagsOf(writer.token, w.documentId)).body.map((t) => [t.id, t.nerTagTypeId])).toEqual([
      [tagId, w.types.place],
    ]);

    expect((await del(writer.token, tagId)).status).toBe(204);
    expect((await tagsOf(writer.token, w.documentId)).body).toEqual([]);
    expect((await del(writer.token, tagId)).status).toBe(403); // gone: like an unknown id
    expect((await del(s.admin, tagId)).status).toBe(404);
  });

  it('reads the tags of a document per step in text order, for anyone who may read the document', async () => {
    const w = await world(s);
    const spanStep = await insertStep(s.knex, w.documentId, w.span, 1, { status: 'DONE' });
    const lexStep = await insertStep(s.knex, w.documentId, w.lexicon, 2);
    await s.knex('ner_tags').insert([
      {
        document_id: w.documentId,
        step_id: lexStep,
        ner_tag_type_id: w.types.animal,
        start_offset: 7,
        end_offset: 11,
        origin: 'LEXICON',
      },
      {
        document_id: w.documentId,
        step_id: spanStep,
        ner_tag_type_id: w.types.person,
        start_offset: 0,
        end_offset: 3,
      },
      {
        document_id: w.documentId,
        step_id: spanStep,
        ner_tag_type_id: w.types.place,
        start_offset: 0,
        end_offset: 11,
      },
    ]);
    const reader = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'READ' }]);
    const nodeGrantee = await person(s, [{ componentId: w.span2, type: 'NODE', mode: 'WRITE' }]);
    const all = await tagsOf(reader.token, w.documentId);
    expect(all.status).toBe(200);
    // by start, the longer first at the same start
    expect(all.body.map((t) => [t.startOffset, t.endOffset, t.origin])).toEqual([
      [0, 11, 'USER'],
      [0, 3, 'USER'],
      [7, 11, 'LEXICON'],
    ]);
    expect(all.body[2]).toMatchObject({ stepId: lexStep, nodeId: w.lexicon, nerTagType: { name: 'Animal' } });
    expect((await tagsOf(nodeGrantee.token, w.documentId, [lexStep])).body.map((t) => t.stepId)).toEqual([
      lexStep,
    ]);
    // a step of another document names nothing here
    const elsewhere = await insertDocument(s.knex, w.processId, w.upload);
    const foreign = await insertStep(s.knex, elsewhere, w.span, 1);
    expect((await tagsOf(reader.token, w.documentId, [foreign])).body).toEqual([]);
    expect((await s.get(`/api/ner-tags?documentId=${w.documentId}&stepIds=x`, reader.token)).status).toBe(
      400,
    );
    expect((await s.get('/api/ner-tags', reader.token)).status).toBe(400);

    // no IDOR: a user of another process, an unknown document
    const q = await buildProcess(s.knex);
    const outsider = await person(s, [{ componentId: q.id, type: 'PROCESS', mode: 'ADMIN' }]);
    expect((await tagsOf(outsider.token, w.documentId)).status).toBe(403);
    expect((await tagsOf(outsider.token, MISSING_ID)).status).toBe(403);
    expect((await tagsOf(s.admin, MISSING_ID)).status).toBe(404);
    expect((await s.get(`/api/ner-tags?documentId=${w.documentId}`)).status).toBe(401);
  });

  it('lets READ read but not write, and refuses WRITE on another node (403)', async () => {
    const w = await world(s);
    const reader = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'READ' }]);
    const span2Writer = await person(s, [{ componentId: w.span2, type: 'NODE', mode: 'WRITE' }]);
    const step = await insertStep(s.knex, w.documentId, w.span, 1, { blockedBy: reader.id });
    const step2 = await insertStep(s.knex, w.documentId, w.span2, 2, { blockedBy: span2Writer.id });
    const [tag] = await s
      .knex('ner_tags')
      .insert({
        document_id: w.documentId,
        step_id: step,
        ner_tag_type_id: w.types.person,
        start_offset: 0,
        end_offset: 3,
      })
      .returning('id');
    const span = (typeId: number) => ({
      documentId: w.documentId,
      nerTagTypeId: typeId,
      startOffset: 4,
      endOffset: 6,
    });

    // READ holds the step but has no WRITE
    expect((await tagsOf(reader.token, w.documentId)).status).toBe(200);
    expect((await post(reader.token, span(w.types.person))).status).toBe(403);
    expect((await put(reader.token, { id: tag.id, startOffset: 0, endOffset: 2 })).status).toBe(403);
    expect((await del(reader.token, tag.id)).status).toBe(403);
    // WRITE on span2 only: its own node yes, the span node's labels and tags no
    expect((await post(span2Writer.token, span(w.types.other))).status).toBe(201);
    expect((await post(span2Writer.token, span(w.types.person))).status).toBe(403);
    expect((await put(span2Writer.token, { id: tag.id, endOffset: 2 })).status).toBe(403);
    expect((await del(span2Writer.token, tag.id)).status).toBe(403);
    // ... nor may it move a span2 tag onto the span node by retyping it
    const own = (await tagsOf(span2Writer.token, w.documentId, [step2])).body[0];
    expect((await put(span2Writer.token, { id: own.id, nerTagTypeId: w.types.person })).status).toBe(403);
    expect(await s.knex('ner_tags').where('id', tag.id).first('end_offset')).toEqual({ end_offset: 3 });
  });

  it('refuses a span outside the content, empty or splitting a character, with a 400 naming the field', async () => {
    const w = await world(s);
    const writer = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    await insertStep(s.knex, w.documentId, w.span, 1, { blockedBy: writer.id });
    const at = (startOffset: number, endOffset: number) =>
      post(writer.token, { documentId: w.documentId, nerTagTypeId: w.types.person, startOffset, endOffset });
    const emoji = TEXT.indexOf('😀');

    const beyond = await at(5, TEXT.length + 1);
    expect(beyond.status).toBe(400);
    expect(beyond.body.fieldErrors).toEqual([
      { objectName: 'nerTag', field: 'endOffset', message: 'Size', key: 'soaApp.nerTag.offsetRange' },
    ]);
    expect(beyond.body.detail).toBe(
      `The tag 5-${TEXT.length + 1} must lie within the document text (0 <= start < end <= ${TEXT.length})`,
    );
    expect((await at(-1, 3)).body.fieldErrors[0]).toMatchObject({
      field: 'startOffset',
      key: 'soaApp.nerTag.offsetRange',
    });
    expect((await at(4, 4)).body.fieldErrors[0]).toMatchObject({
      field: 'endOffset',
      key: 'soaApp.nerTag.offsetOrder',
    });
    expect((await at(6, 2)).status).toBe(400);
    const split = await at(emoji + 1, emoji + 2);
    expect(split.status).toBe(400);
    expect(split.body.fieldErrors[0]).toMatchObject({
      field: 'startOffset',
      key: 'soaApp.nerTag.splitCharacter',
    });
    expect((await at(1.5, 3)).status).toBe(400);
    expect(await s.knex('ner_tags').where('document_id', w.documentId).count('* as n').first()).toEqual({
      n: 0,
    });

    // Offsets are UTF-16 code units, as the lexicon stores them: the emoji is two, the whole text fits.
    const onEmoji = await at(emoji, emoji + 2);
    expect([onEmoji.status, onEmoji.body.startOffset, onEmoji.body.endOffset]).toEqual([
      201,
      emoji,
      emoji + 2,
    ]);
    expect((await at(0, TEXT.length)).status).toBe(201);
    // a resize is held to the same rule
    const resized = await put(writer.token, { id: onEmoji.body.id, endOffset: TEXT.length + 5 });
    expect(resized.status).toBe(400);
    expect(resized.body.fieldErrors[0]).toMatchObject({ field: 'endOffset' });
    // a label that cannot be chosen (a grouping parent), another labelling type
    const group = await post(writer.token, {
      documentId: w.documentId,
      nerTagTypeId: w.types.group,
      startOffset: 0,
      endOffset: 3,
    });
    expect(group.status).toBe(400);
    expect(group.body.fieldErrors[0]).toMatchObject({
      field: 'nerTagTypeId',
      key: 'soaApp.nerTag.typeNotSelectable',
    });
    const timespan = await post(writer.token, {
      documentId: w.documentId,
      nerTagTypeId: w.types.person,
      type: 'TIMESPAN_TAG',
      startOffset: 0,
      endOffset: 3,
    });
    expect([timespan.status, timespan.body.message]).toEqual([400, 'error.labellingType']);
  });

  it('writes only on an editable step: waiting, held by the caller, document not blocked by another', async () => {
    const w = await world(s);
    const writer = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const other = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const nodeAdmin = await person(s, [{ componentId: w.span, type: 'NODE', mode: 'ADMIN' }]);
    const label = (token: string, json: Record<string, unknown> = {}) =>
      post(token, {
        documentId: w.documentId,
        nerTagTypeId: w.types.person,
        startOffset: 0,
        endOffset: 3,
        ...json,
      });

    // no step of the node in the document
    const none = await label(writer.token);
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({
      message: 'error.tag.stepUndefined',
      detail: 'Step could not be defined',
    });

    const step = await insertStep(s.knex, w.documentId, w.span, 1);
    const notStarted = await label(writer.token);
    expect(notStarted.status).toBe(409);
    expect(notStarted.body).toMatchObject({ message: 'error.tag.stepNotEditable', errorKey: 'notStarted' });
    expect(notStarted.body.detail).toMatch(/Start working on the step/);

    await s.knex('steps').where('id', step).update({ blocked_by_id: other.id });
    expect((await label(writer.token)).body.errorKey).toBe('assignedToOther');

    // the node admin edits a step someone else holds
    const byAdmin = await label(nodeAdmin.token);
    expect([byAdmin.status, byAdmin.body.stepId]).toEqual([201, step]);

    await s.knex('steps').where('id', step).update({ blocked_by_id: writer.id });
    await s.knex('documents').where('id', w.documentId).update({ blocked_by_id: other.id });
    const blocked = await label(writer.token, { startOffset: 4, endOffset: 6 });
    expect([blocked.status, blocked.body.message]).toEqual([423, 'error.document.blocked']);
    expect((await put(writer.token, { id: byAdmin.body.id, endOffset: 5 })).status).toBe(423);
    await s.knex('documents').where('id', w.documentId).update({ blocked_by_id: writer.id }); // own block
    expect((await label(writer.token, { startOffset: 4, endOffset: 6 })).status).toBe(201);

    for (const status of ['DONE', 'ACCEPTED', 'PROCESSING', 'ERROR']) {
      await s.knex('steps').where('id', step).update({ status });
      const refused = await label(writer.token, { startOffset: 7, endOffset: 11 });
      expect([status, refused.status, refused.body.errorKey]).toEqual([status, 409, 'notWaiting']);
      expect((await put(writer.token, { id: byAdmin.body.id, endOffset: 5 })).status).toBe(409);
      expect((await del(writer.token, byAdmin.body.id)).status).toBe(409);
      expect((await label(nodeAdmin.token, { startOffset: 7, endOffset: 11 })).status).toBe(409);
    }
    // a step of another node named as the step is refused
    await s.knex('steps').where('id', step).update({ status: 'WAITING' });
    const lexStep = await insertStep(s.knex, w.documentId, w.lexicon, 2, { blockedBy: writer.id });
    const wrong = await label(writer.token, { startOffset: 7, endOffset: 11, stepId: lexStep });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'error.tag.wrongStep']);
    expect(await s.knex('ner_tags').where('step_id', lexStep).count('* as n').first()).toEqual({ n: 0 });
  });

  it("refuses another process's document, tag and label (no IDOR)", async () => {
    const w = await world(s);
    const q = await world(s);
    const both = await person(s, [
      { componentId: w.processId, type: 'PROCESS', mode: 'WRITE' },
      { componentId: q.processId, type: 'PROCESS', mode: 'WRITE' },
    ]);
    const qOnly = await person(s, [{ componentId: q.processId, type: 'PROCESS', mode: 'ADMIN' }]);
    const pStep = await insertStep(s.knex, w.documentId, w.span, 1, { blockedBy: both.id });
    await insertStep(s.knex, q.documentId, q.span, 1, { blockedBy: both.id });
    const [pTag] = await s
      .knex('ner_tags')
      .insert({
        document_id: w.documentId,
        step_id: pStep,
        ner_tag_type_id: w.types.person,
        start_offset: 0,
        end_offset: 3,
      })
      .returning('id');

    // P's label on Q's document, Q's label on P's document: like an unknown document
    const cross = await post(both.token, {
      documentId: q.documentId,
      nerTagTypeId: w.types.person,
      startOffset: 0,
      endOffset: 3,
    });
    expect(cross.status).toBe(403);
    expect(
      (
        await post(qOnly.token, {
          documentId: w.documentId,
          nerTagTypeId: q.types.person,
          startOffset: 0,
          endOffset: 3,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await post(s.admin, {
          documentId: q.documentId,
          nerTagTypeId: w.types.person,
          startOffset: 0,
          endOffset: 3,
        })
      ).status,
    ).toBe(404);
    // Q's admin cannot touch P's tag or read P's tags
    expect((await put(qOnly.token, { id: pTag.id, endOffset: 2 })).status).toBe(403);
    expect((await del(qOnly.token, pTag.id)).status).toBe(403);
    expect((await tagsOf(qOnly.token, w.documentId)).status).toBe(403);
    // retyping P's tag to Q's label
    expect((await put(both.token, { id: pTag.id, nerTagTypeId: q.types.person })).status).toBe(403);
    // unknown ids answer alike
    expect((await put(qOnly.token, { id: MISSING_ID, endOffset: 2 })).status).toBe(403);
    expect(
      (
        await post(qOnly.token, {
          documentId: MISSING_ID,
          nerTagTypeId: q.types.person,
          startOffset: 0,
          endOffset: 3,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await post(qOnly.token, {
          documentId: w.documentId,
          nerTagTypeId: MISSING_ID,
          startOffset: 0,
          endOffset: 3,
        })
      ).status,
    ).toBe(403);
    expect(await s.knex('ner_tags').where('id', pTag.id).first('ner_tag_type_id', 'end_offset')).toEqual({
      ner_tag_type_id: w.types.person,
      end_offset: 3,
    });
    expect(await s.knex('ner_tags').where('document_id', q.documentId).count('* as n').first()).toEqual({
      n: 0,
    });
  });

  it('lets an annotator keep, retype, resize and remove lexicon-written tags, which stay marked as such', async () => {
    const w = await world(s);
    const annotator = await person(s, [{ componentId: w.lexicon, type: 'NODE', mode: 'WRITE' }]);
    // The lexicon ran (automatic step ending WAITING) and wrote its tags; the annotator starts the step.
    const lexStep = await insertStep(s.knex, w.documentId, w.lexicon, 1, { blockedBy: annotator.id });
    const rows = await s
      .knex('ner_tags')
      .insert(
        [
          [w.types.city, 0, 3],
          [w.types.city, 7, 11],
          [w.types.animal, 13, 19],
        ].map(([type, start, end]) => ({
          document_id: w.documentId,
          step_id: lexStep,
          ner_tag_type_id: type,
          start_offset: start,
          end_offset: end,
          origin: 'LEXICON',
        })),
      )
      .returning('id');
    const [ala, kota, zazolc] = rows.map((r: { id: number }) => r.id);

    const shown = (await tagsOf(annotator.token, w.documentId, [lexStep])).body;
    expect(shown.map((t) => [t.id, t.origin, t.lastModifiedById])).toEqual([
      [ala, 'LEXICON', null],
      [kota, 'LEXICON', null],
      [zazolc, 'LEXICON', null],
    ]);
    const retyped = await put(annotator.token, { id: kota, nerTagTypeId: w.types.animal });
    expect(retyped.status).toBe(200);
    expect(retyped.body).toMatchObject({
      nerTagTypeId: w.types.animal,
      origin: 'LEXICON',
      lastModifiedById: annotator.id,
      stepId: lexStep,
      startOffset: 7,
      endOffset: 11,
    });
    expect((await put(annotator.token, { id: zazolc, startOffset: 13, endOffset: 30 })).body).toMatchObject({
      endOffset: 30,
      origin: 'LEXICON',
    });
    expect((await del(annotator.token, ala)).status).toBe(204);
    expect((await tagsOf(annotator.token, w.documentId)).body.map((t) => [t.id, t.nerTagTypeId])).toEqual([
      [kota, w.types.animal],
      [zazolc, w.types.animal],
    ]);
  });

  it('lets an annotator review what a real lexicon node wrote: keep, retype, add, then complete', async () => {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'ACCEPTED' });
    const lexicon = await g.node('LEXICON', { autoStepStatus: 'WAITING' });
    const span = await g.node('SPAN');
    const city = await g.nerTagType(lexicon, 'City');
    const animal = await g.nerTagType(lexicon, 'Animal');
    await s.knex('matching_rules').insert([
      { ner_tag_type_id: city, expression: 'Gdańsk', matching_type: 'EXACT', tolerance: null },
      { ner_tag_type_id: city, expression: 'Filemon', matching_type: 'EXACT', tolerance: null },
    ]);
    await g.edge(hup, parser);
    await g.edge(parser, lexicon);
    await g.edge(lexicon, span);
    const annotator = await person(s, [{ componentId: lexicon, type: 'NODE', mode: 'WRITE' }]);
    const text = 'Kot Filemon mieszka w Gdańsk.';
    const doc = await startDocument(s, g, hup, { content: `${text}\n` });
    const step = await stepReaching(s.knex, doc.id, lexicon, ['WAITING', 'ERROR'], 60000);
    expect(step.errorMessage).toBeNull();
    const content: string = (await s.knex('document_contents').where('document_id', doc.id).first()).content;

    const written = (await tagsOf(annotator.token, doc.id)).body;
    expect(
      written.map((t) => [content.slice(t.startOffset!, t.endOffset!), t.nerTagTypeId, t.origin, t.stepId]),
    ).toEqual([
      ['Filemon', city, 'LEXICON', step.id],
      ['Gdańsk', city, 'LEXICON', step.id],
    ]);
    // Before starting the step the annotator may only read.
    expect((await put(annotator.token, { id: written[0].id, nerTagTypeId: animal })).body.errorKey).toBe(
      'notStarted',
    );
    expect(
      (await s.send('POST', `/api/step/assign?docId=${doc.id}&nodeId=${lexicon}`, annotator.token)).status,
    ).toBe(200);
    const retyped = await put(annotator.token, { id: written[0].id, nerTagTypeId: animal });
    expect(retyped.body).toMatchObject({
      origin: 'LEXICON',
      nerTagTypeId: animal,
      lastModifiedById: annotator.id,
    });
    const kot = await post(annotator.token, {
      documentId: doc.id,
      nerTagTypeId: animal,
      startOffset: 0,
      endOffset: 3,
    });
    expect(kot.status).toBe(201);
    expect(kot.body).toMatchObject({ origin: 'USER', stepId: step.id });

    const completed = await s.send('PUT', `/api/steps/${step.id}/complete`, annotator.token);
    expect(completed.status).toBe(200);
    await stepReaching(s.knex, doc.id, span, ['WAITING']);
    // A done step is no longer editable.
    const late = await put(annotator.token, { id: written[1].id, nerTagTypeId: animal });
    expect([late.status, late.body.errorKey]).toEqual([409, 'notWaiting']);
    expect(
      (await tagsOf(annotator.token, doc.id)).body.map((t) => [t.startOffset, t.nerTagTypeId, t.origin]),
    ).toEqual([
      [0, animal, 'USER'],
      [4, animal, 'LEXICON'],
      [22, city, 'LEXICON'],
    ]);
    expect((await stepsOf(s.knex, doc.id)).map((x) => x.nodeId)).toEqual([hup, parser, lexicon, span]);
  });

  it('retypes to a label of another node by moving the tag to the step the caller edits there', async () => {
    const w = await world(s);
    const writer = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const spanStep = await insertStep(s.knex, w.documentId, w.span, 1, { blockedBy: writer.id });
    const created = await post(writer.token, {
      documentId: w.documentId,
      nerTagTypeId: w.types.person,
      startOffset: 0,
      endOffset: 3,
    });
    expect(created.body.stepId).toBe(spanStep);
    // span2 has no step the writer edits yet
    const refused = await put(writer.token, { id: created.body.id, nerTagTypeId: w.types.other });
    expect([refused.status, refused.body.message]).toEqual([409, 'error.tag.stepUndefined']);
    const span2Step = await insertStep(s.knex, w.documentId, w.span2, 2, { blockedBy: writer.id });
    const moved = await put(writer.token, { id: created.body.id, nerTagTypeId: w.types.other });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ stepId: span2Step, nodeId: w.span2, nerTagType: { name: 'Other' } });
  });

  it('labels all occurrences in one batch, all or nothing', async () => {
    const w = await world(s);
    const content = 'kot i kot, i jeszcze kot';
    const documentId = await insertDocument(s.knex, w.processId, w.upload, content);
    const writer = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    await insertStep(s.knex, documentId, w.span, 1, { blockedBy: writer.id });
    const spans = [0, 6, 21].map((start) => ({ startOffset: start, endOffset: start + 3 }));
    const batch = (json: Record<string, unknown>) =>
      s.send('POST', '/api/ner-tags/batch', writer.token, {
        documentId,
        nerTagTypeId: w.types.person,
        ...json,
      });

    const bad = await batch({ spans: [...spans, { startOffset: 22, endOffset: 25 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.fieldErrors[0]).toMatchObject({
      field: 'spans.3.endOffset',
      key: 'soaApp.nerTag.offsetRange',
    });
    expect((await tagsOf(writer.token, documentId)).body).toEqual([]);

    const made = await batch({ spans });
    expect(made.status).toBe(201);
    expect(made.body.map((t: NerTagDTO) => [t.startOffset, t.endOffset, t.origin])).toEqual([
      [0, 3, 'USER'],
      [6, 9, 'USER'],
      [21, 24, 'USER'],
    ]);
    expect(made.body.map((t: NerTagDTO) => content.slice(t.startOffset!, t.endOffset!))).toEqual([
      'kot',
      'kot',
      'kot',
    ]);
    const again = await batch({ spans });
    expect(again.status).toBe(200);
    expect(again.body.map((t: NerTagDTO) => t.id)).toEqual(made.body.map((t: NerTagDTO) => t.id));
    expect((await batch({ spans: [] })).status).toBe(400);
    const reader = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'READ' }]);
    expect(
      (
        await s.send('POST', '/api/ner-tags/batch', reader.token, {
          documentId,
          nerTagTypeId: w.types.person,
          spans,
        })
      ).status,
    ).toBe(403);
  });

  it("answers the labelling menu's option tree: roots per node of the steps the caller may edit", async () => {
    const w = await world(s);
    const writer = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const reader = await person(s, [{ componentId: w.processId, type: 'PROCESS', mode: 'READ' }]);
    await insertStep(s.knex, w.documentId, w.clf, 1, { blockedBy: writer.id });
    await insertStep(s.knex, w.documentId, w.span, 2, { blockedBy: writer.id });
    await insertStep(s.knex, w.documentId, w.span2, 3, { status: 'DONE', blockedBy: writer.id });
    await insertStep(s.knex, w.documentId, w.lexicon, 4, { blockedBy: writer.id });
    const options = (token: string, query = '') =>
      s.get<TagTypeOption[]>(`/api/root-ner-tag-types?documentId=${w.documentId}${query}`, token);

    const tree = await options(writer.token);
    expect(tree.status).toBe(200);
    // the CLF node takes no tags, span2's step is done
    expect(tree.body.map((r) => [r.optionId, r.isRoot, r.selectable, r.backgroundColor])).toEqual([
      [-w.span, true, false, '#ffc107'],
      [-w.lexicon, true, false, '#dc3545'],
    ]);
    expect(tree.body[0].children.map((o) => [o.optionId, o.parentId, o.rootId, o.selectable])).toEqual([
      [w.types.person, -w.span, -w.span, true],
      [w.types.place, -w.span, -w.span, true],
      [w.types.group, -w.span, -w.span, false],
    ]);
    expect(tree.body[0].children[0].path).toBe(`${tree.body[0].name} -> Person`);
    expect((await options(writer.token, `&nodeIds=${w.lexicon}`)).body.map((r) => r.optionId)).toEqual([
      -w.lexicon,
    ]);
    expect((await options(reader.token)).body).toEqual([]);
    expect((await options(writer.token, '&labellingType=NOPE')).status).toBe(400);
    // without documentId: the node trees of spec 3, as before
    const plain = await s.get(`/api/root-ner-tag-types?nodeIds=${w.span}`, reader.token);
    expect(plain.body.map((t: { id: number }) => t.id)).toEqual([
      w.types.person,
      w.types.place,
      w.types.group,
    ]);
    // another process's document
    const q = await world(s);
    expect((await s.get(`/api/root-ner-tag-types?documentId=${q.documentId}`, writer.token)).status).toBe(
      403,
    );
    expect(
      (await s.get(`/api/root-ner-tag-types?documentId=${w.documentId}&nodeIds=${q.span}`, s.admin)).status,
    ).toBe(404);

    // the state's steps say whether the caller may edit them
    const state = await s.get(`/api/v2/document/${w.documentId}/state`, writer.token);
    expect(
      state.body.steps.map((st: { nodeId: number; editable: boolean }) => [st.nodeId, st.editable]),
    ).toEqual([
      [w.clf, true],
      [w.span, true],
      [w.span2, false],
      [w.lexicon, true],
    ]);
    const readerState = await s.get(`/api/v2/document/${w.documentId}/state`, reader.token);
    expect(readerState.body.steps.every((st: { editable: boolean }) => !st.editable)).toBe(true);
  });
});
