/**
 * The issues API (issue 12 section 2, spec 2 sections 3 to 7, docs/api-issues.md): raising TEXT, TOKEN, TAG
 * and RELATION issues (title computed by the server from the anchor, status ACTIVE, no replies), the anchor
 * checked against the document, the thread (new replies by the caller at the server's time, status changes
 * with their automatic reply), who may do what (READ reads, WRITE comments and changes the status, only a
 * process ADMIN edits or deletes comments), issues on tags of steps the reader cannot see hidden (shown to a
 * process admin), another process's document and issues refused like unknown ones, and markup kept as text.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { insertObligatoryUploadNode } from '../../db/queries/nodes';
import type { IssueDTO } from '../../domain/issues';
import {
  buildProcess,
  buildUser,
  fieldKeyMap,
  insertNerTagType,
  insertNode,
  MISSING_ID,
  setupSuite,
  type Suite,
} from '../support/harness';

const TEXT = 'Jan Kowalski mieszka w Warszawie. Zażółć 😀 koniec.';

async function insertDocument(knex: Knex, processId: number, uploadNodeId: number) {
  const hash = crypto.randomBytes(32).toString('hex');
  const [doc] = await knex('documents')
    .insert({
      process_id: processId,
      upload_node_id: uploadNodeId,
      filename: 'issues.txt',
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

async function insertTag(
  knex: Knex,
  documentId: number,
  stepId: number,
  typeId: number,
  s: number,
  e: number,
) {
  const [tag] = await knex('ner_tags')
    .insert({
      document_id: documentId,
      step_id: stepId,
      ner_tag_type_id: typeId,
      start_offset: s,
      end_offset: e,
    })
    .returning('id');
  return Number(tag.id);
}

/** A process with two span nodes (a step of each on the document), tags on both, and words of a transcript. */
async function world(s: Suite) {
  const k = s.knex;
  const processId = (await buildProcess(k)).id;
  const upload = await insertObligatoryUploadNode(k, processId);
  const spanA = (await insertNode(k, processId, 'SPAN')).id;
  const spanB = (await insertNode(k, processId, 'SPAN')).id;
  const person = (await insertNerTagType(k, spanA, 'Person')).id;
  const place = (await insertNerTagType(k, spanA, 'Place')).id;
  const other = (await insertNerTagType(k, spanB, 'Other')).id;
  const documentId = await insertDocument(k, processId, upload.id);
  const [stepA] = await k('steps')
    .insert({ document_id: documentId, node_id: spanA, order: 1 })
    .returning('id');
  const [stepB] = await k('steps')
    .insert({ document_id: documentId, node_id: spanB, order: 2 })
    .returning('id');
  const janTag = await insertTag(k, documentId, stepA.id, person, 0, 12); // "Jan Kowalski"
  const cityTag = await insertTag(k, documentId, stepA.id, place, 23, 32); // "Warszawie"
  const hiddenTag = await insertTag(k, documentId, stepB.id, other, 34, 40); // "Zażółć"
  const [relationType] = await k('ner_relation_types')
    .insert({ node_id: spanA, name: 'lives in', color: '#123456' })
    .returning('id');
  const [otherRelationType] = await k('ner_relation_types')
    .insert({ node_id: spanB, name: 'other', color: '#123456' })
    .returning('id');
  const [utterance] = await k('utterances')
    .insert({ document_id: documentId, actor: 'SPEAKER1' })
    .returning('id');
  const words = await k('utterance_tokens')
    .insert(
      ['dzień', 'dobry', 'państwu'].map((value, position) => ({
        utterance_id: utterance.id,
        position,
        value,
      })),
    )
    .returning('id');
  return {
    processId,
    upload: upload.id,
    spanA,
    spanB,
    documentId,
    stepA: Number(stepA.id),
    tags: { jan: janTag, city: cityTag, hidden: hiddenTag },
    relationType: Number(relationType.id),
    otherRelationType: Number(otherRelationType.id),
    words: words.map((w: { id: number }) => Number(w.id)),
  };
}

describe('issues API', () => {
  const s = setupSuite();
  const list = (token: string, documentId: number) =>
    s.get<IssueDTO[]>(`/api/document/${documentId}/issues`, token);
  const raise = (token: string, json: unknown) => s.send<IssueDTO>('POST', '/api/issues', token, json);
  const person = async (authorities: NonNullable<Parameters<typeof buildUser>[1]>['authorities']) => {
    const user = await buildUser(s.knex, { authorities });
    return { id: user.id, token: await s.signIn(user) };
  };

  it('raises each type of issue with the title computed from its anchor, ACTIVE and without replies', async () => {
    const w = await world(s);
    const writer = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);

    const text = await raise(writer.token, {
      docId: w.documentId,
      type: 'TEXT',
      startOffset: 4,
      endOffset: 12,
      text: 'Nazwisko?',
      title: 'client title is ignored',
      status: 'RESOLVED',
      stepId: w.stepA,
    });
    expect(text.status).toBe(201);
    expect(text.body).toMatchObject({
      docId: w.documentId,
      type: 'TEXT',
      status: 'ACTIVE',
      title: 'Kowalski',
      text: 'Nazwisko?',
      startOffset: 4,
      endOffset: 12,
      stepId: w.stepA,
      userId: writer.id,
      replies: [],
    });

    const token = await raise(writer.token, {
      docId: w.documentId,
      type: 'TOKEN',
      tokens: [{ id: w.words[2] }, { id: w.words[0] }, { id: w.words[1] }],
      text: 'Źle rozpoznane',
    });
    expect(token.status).toBe(201);
    expect(token.body.title).toBe('dzień dobry państwu');
    expect(token.body.tokens.map((t) => t.id)).toEqual(w.words);

    const tag = await raise(writer.token, {
      docId: w.documentId,
      type: 'TAG',
      tags: [{ id: w.tags.jan }, { id: w.tags.city }],
      text: 'Czy to dobre tagi?',
    });
    expect(tag.status).toBe(201);
    expect(tag.body.title).toBe('Jan Kowalski - Warszawie');
    expect(tag.body.tags.map((t) => [t.id, t.nerTagTypeName])).toEqual([
      [w.tags.jan, 'Person'],
      [w.tags.city, 'Place'],
    ]);

    const single = await raise(writer.token, {
      docId: w.documentId,
      type: 'TAG',
      tags: [{ id: w.tags.city }],
      text: 'Odmiana',
    });
    expect(single.body.title).toBe('Warszawie');

    // A relation issue names the tags and the type; the relation need not be saved (a candidate).
    const relation = await raise(writer.token, {
      docId: w.documentId,
      type: 'RELATION',
      relation: { fromId: w.tags.jan, toId: w.tags.city, relationTypeId: w.relationType },
      text: 'Relacja wątpliwa',
    });
    expect(relation.status).toBe(201);
    expect(relation.body).toMatchObject({
      type: 'RELATION',
      title: 'Jan Kowalski - Warszawie',
      relation: {
        fromId: w.tags.jan,
        toId: w.tags.city,
        relationTypeId: w.relationType,
        relationTypeName: 'lives in',
      },
    });

    const listed = await list(writer.token, w.documentId);
    expect(listed.status).toBe(200);
    expect(listed.body.map((i) => i.id).sort()).toEqual(
      [text, token, tag, single, relation].map((r) => r.body.id).sort(),
    );
  });

  it('checks the anchor against the document and refuses empty descriptions with the spec messages', async () => {
    const w = await world(s);
    const v = await world(s);
    const writer = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const expect400 = async (json: unknown, field: string, key: string) => {
      const res = await s.send('POST', '/api/issues', writer.token, json);
      expect(res.status).toBe(400);
      expect(fieldKeyMap(res.body)[field]).toBe(key);
    };
    const doc = { docId: w.documentId, text: 'x' };
    await expect400(
      { ...doc, type: 'TEXT', startOffset: 0, endOffset: 3, text: '   ' },
      'text',
      'soaApp.issue.textRequired',
    );
    await expect400(
      { ...doc, type: 'TEXT', startOffset: 10, endOffset: 500 },
      'endOffset',
      'soaApp.nerTag.offsetRange',
    );
    await expect400(
      { ...doc, type: 'TEXT', startOffset: 8, endOffset: 3 },
      'endOffset',
      'soaApp.nerTag.offsetOrder',
    );
    // "😀" is two UTF-16 units: an end inside it is refused
    const emoji = TEXT.indexOf('😀');
    await expect400(
      { ...doc, type: 'TEXT', startOffset: 0, endOffset: emoji + 1 },
      'endOffset',
      'soaApp.nerTag.splitCharacter',
    );
    // a tag of another document (of another process here) is no tag of this one
    await expect400(
      { ...doc, type: 'TAG', tags: [{ id: v.tags.jan }] },
      'tags.0.id',
      'soaApp.issue.tagNotInDocument',
    );
    await expect400(
      { ...doc, type: 'TAG', tags: [{ id: MISSING_ID }] },
      'tags.0.id',
      'soaApp.issue.tagNotInDocument',
    );
    await expect400(
      { ...doc, type: 'TOKEN', tokens: [{ id: v.words[0] }] },
      'tokens.0.id',
      'soaApp.issue.tokenNotInDocument',
    );
    await expect400(
      {
        ...doc,
        type: 'RELATION',
        relation: { fromId: w.tags.jan, toId: v.tags.city, relationTypeId: w.relationType },
      },
      'relation.toId',
      'soaApp.issue.tagNotInDocument',
    );
    // the relation type must be of the tags' node
    await expect400(
      {
        ...doc,
        type: 'RELATION',
        relation: { fromId: w.tags.jan, toId: w.tags.city, relationTypeId: w.otherRelationType },
      },
      'relation.relationTypeId',
      'soaApp.issue.relationType',
    );
    await expect400(
      {
        ...doc,
        type: 'RELATION',
        relation: { fromId: w.tags.jan, toId: w.tags.jan, relationTypeId: w.relationType },
      },
      'relation.toId',
      'soaApp.issue.sameTag',
    );
    await expect400(
      { ...doc, type: 'TEXT', startOffset: 0, endOffset: 3, stepId: v.stepA },
      'stepId',
      'soaApp.issue.stepNotInDocument',
    );
    expect((await list(s.admin, w.documentId)).body).toEqual([]);
  });

  it('lets READ read, WRITE comment and change the status, and only a process ADMIN edit or delete comments', async () => {
    const w = await world(s);
    const reader = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'READ' }]);
    const writer = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const admin = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'ADMIN' }]);
    const base = { docId: w.documentId, type: 'TEXT', startOffset: 0, endOffset: 3, text: 'Imię?' };

    expect((await raise(reader.token, base)).status).toBe(403);
    const issue = (await raise(writer.token, base)).body;
    const path = `/api/issues/${issue.id}`;

    expect((await list(reader.token, w.documentId)).body.map((i) => i.id)).toEqual([issue.id]);
    expect((await s.send('POST', `${path}/replies`, reader.token, { text: 'nie mogę' })).status).toBe(403);
    expect((await s.send('PUT', `${path}/status`, reader.token, { status: 'RESOLVED' })).status).toBe(403);
    expect((await s.send('PUT', '/api/issues', reader.token, { ...issue, status: 'RESOLVED' })).status).toBe(
      403,
    );

    // an empty comment cannot be sent
    const empty = await s.send('POST', `${path}/replies`, writer.token, { text: ' \n ' });
    expect(empty.status).toBe(400);
    expect(fieldKeyMap(empty.body).text).toBe('soaApp.issue.replyRequired');

    const before = Date.now();
    const commented = await s.send<IssueDTO>('POST', `${path}/replies`, writer.token, {
      text: 'Sprawdzę',
      userId: admin.id,
      timestamp: '2000-01-01T00:00:00Z',
    });
    expect(commented.status).toBe(201);
    const reply = commented.body.replies[0];
    expect(reply).toMatchObject({ text: 'Sprawdzę', userId: writer.id, automatic: false });
    expect(new Date(reply.timestamp).getTime()).toBeGreaterThan(before - 60_000);

    const resolved = await s.send<IssueDTO>('PUT', `${path}/status`, writer.token, { status: 'RESOLVED' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.status).toBe('RESOLVED');
    expect(resolved.body.replies.at(-1)).toMatchObject({
      automatic: true,
      userId: writer.id,
      text: 'Status changed from Active to Resolved',
    });
    // the same status again adds nothing
    const again = await s.send<IssueDTO>('PUT', `${path}/status`, writer.token, { status: 'RESOLVED' });
    expect(again.body.replies).toHaveLength(2);

    // the whole issue: a new reply and a status change by a writer
    const whole = await s.send<IssueDTO>('PUT', '/api/issues', writer.token, {
      ...again.body,
      status: 'ACTIVE',
      replies: [...again.body.replies, { text: 'Jednak nie' }],
    });
    expect(whole.status).toBe(200);
    expect(whole.body.status).toBe('ACTIVE');
    expect(whole.body.replies.map((r) => [r.text, r.automatic])).toEqual([
      ['Sprawdzę', false],
      ['Status changed from Active to Resolved', true],
      ['Jednak nie', false],
      ['Status changed from Resolved to Active', true],
    ]);

    // a writer may not edit or delete a comment, neither by the small routes nor in the whole issue
    const edited = whole.body.replies.map((r, i) => (i === 0 ? { ...r, text: 'zmienione' } : r));
    expect(
      (await s.send('PUT', '/api/issues', writer.token, { ...whole.body, replies: edited })).status,
    ).toBe(403);
    expect(
      (
        await s.send('PUT', '/api/issues', writer.token, {
          ...whole.body,
          replies: whole.body.replies.slice(1),
        })
      ).status,
    ).toBe(403);
    expect(
      (await s.send('PUT', `${path}/replies/${reply.id}`, writer.token, { text: 'zmienione' })).status,
    ).toBe(403);
    expect((await s.send('DELETE', `${path}/replies/${reply.id}`, writer.token)).status).toBe(403);
    expect((await list(writer.token, w.documentId)).body[0].replies[0].text).toBe('Sprawdzę');

    // a process admin edits and deletes
    const byAdmin = await s.send<IssueDTO>('PUT', `${path}/replies/${reply.id}`, admin.token, {
      text: 'Poprawione',
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.replies[0]).toMatchObject({ id: reply.id, text: 'Poprawione', userId: writer.id });
    expect(byAdmin.body.replies[0].lastModified).not.toBeNull();
    const third = byAdmin.body.replies[2];
    const deleted = await s.send<IssueDTO>('DELETE', `${path}/replies/${third.id}`, admin.token);
    expect(deleted.status).toBe(200);
    expect(deleted.body.replies.map((r) => r.id)).not.toContain(third.id);
    const wholeByAdmin = await s.send<IssueDTO>('PUT', '/api/issues', admin.token, {
      ...deleted.body,
      replies: deleted.body.replies.slice(1),
    });
    expect(wholeByAdmin.status).toBe(200);
    expect(wholeByAdmin.body.replies).toHaveLength(deleted.body.replies.length - 1);
    expect((await s.send('DELETE', `${path}/replies/${MISSING_ID}`, admin.token)).status).toBe(404);
  });

  it('hides issues on tags of steps the reader cannot see, and shows them to a process admin', async () => {
    const w = await world(s);
    const writer = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    // an annotator granted node A only: reads the document, sees step A, not step B
    const annotator = await person([{ componentId: w.spanA, type: 'NODE', mode: 'WRITE' }]);
    const admin = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'ADMIN' }]);
    const onA = (
      await raise(writer.token, { docId: w.documentId, type: 'TAG', tags: [{ id: w.tags.jan }], text: 'a' })
    ).body;
    const onB = (
      await raise(writer.token, {
        docId: w.documentId,
        type: 'TAG',
        tags: [{ id: w.tags.hidden }],
        text: 'b',
      })
    ).body;
    const onAB = (
      await raise(writer.token, {
        docId: w.documentId,
        type: 'TAG',
        tags: [{ id: w.tags.jan }, { id: w.tags.hidden }],
        text: 'ab',
      })
    ).body;
    const onText = (
      await raise(writer.token, {
        docId: w.documentId,
        type: 'TEXT',
        startOffset: 0,
        endOffset: 3,
        text: 't',
      })
    ).body;
    expect([onA, onB, onAB, onText].every((i) => i.id > 0)).toBe(true);

    const seen = (await list(annotator.token, w.documentId)).body.map((i) => i.id).sort();
    expect(seen).toEqual([onA.id, onText.id].sort());
    const all = [onA.id, onB.id, onAB.id, onText.id].sort();
    expect((await list(admin.token, w.documentId)).body.map((i) => i.id).sort()).toEqual(all);
    expect((await list(writer.token, w.documentId)).body.map((i) => i.id).sort()).toEqual(all);
  });

  it("refuses another process's document and issues like unknown ones (no IDOR)", async () => {
    const w = await world(s);
    const v = await world(s);
    const writerV = await person([{ componentId: v.processId, type: 'PROCESS', mode: 'ADMIN' }]);
    const writerW = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const issue = (
      await raise(writerW.token, {
        docId: w.documentId,
        type: 'TEXT',
        startOffset: 0,
        endOffset: 3,
        text: 'w',
      })
    ).body;
    const path = `/api/issues/${issue.id}`;

    expect((await list(writerV.token, w.documentId)).status).toBe(403);
    expect((await list(writerV.token, MISSING_ID)).status).toBe(403);
    expect(
      (
        await raise(writerV.token, {
          docId: w.documentId,
          type: 'TEXT',
          startOffset: 0,
          endOffset: 3,
          text: 'x',
        })
      ).status,
    ).toBe(403);
    expect((await s.send('POST', `${path}/replies`, writerV.token, { text: 'x' })).status).toBe(403);
    expect((await s.send('PUT', `${path}/status`, writerV.token, { status: 'RESOLVED' })).status).toBe(403);
    expect((await s.send('PUT', '/api/issues', writerV.token, { ...issue, status: 'RESOLVED' })).status).toBe(
      403,
    );
    expect((await s.send('DELETE', `${path}/replies/1`, writerV.token)).status).toBe(403);
    // an admin learns only that the id is unknown
    expect((await list(s.admin, MISSING_ID)).status).toBe(404);
    expect(
      (await s.send('PUT', `/api/issues/${MISSING_ID}/status`, s.admin, { status: 'RESOLVED' })).status,
    ).toBe(404);
    const after = (await list(writerW.token, w.documentId)).body;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ status: 'ACTIVE', replies: [] });
  });

  it('stores and returns markup as plain text', async () => {
    const w = await world(s);
    const writer = await person([{ componentId: w.processId, type: 'PROCESS', mode: 'WRITE' }]);
    const markup = '<script>alert(1)</script><img src=x onerror="alert(2)"> & "quotes"';
    const issue = await raise(writer.token, {
      docId: w.documentId,
      type: 'TEXT',
      startOffset: 0,
      endOffset: 3,
      text: markup,
    });
    expect(issue.body.text).toBe(markup);
    const replied = await s.send<IssueDTO>('POST', `/api/issues/${issue.body.id}/replies`, writer.token, {
      text: markup,
    });
    expect(replied.body.replies[0].text).toBe(markup);
    const listed = await list(writer.token, w.documentId);
    expect(listed.headers.get('content-type')).toMatch(/application\/json/);
    expect(listed.body[0].text).toBe(markup);
    expect(listed.body[0].replies[0].text).toBe(markup);
  });
});
