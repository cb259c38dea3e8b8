/**
 * Matching rules API: the node's rules, one rule's update and the editor's batch (one transaction, ids
 * owned by the request's tag type). Other suites share the database: nodes live in this suite's processes.
 */
import type { MatchingRuleDTO } from '../../domain/label-types';
import {
  buildProcess,
  buildUser,
  fieldKeys,
  insertNerTagType,
  insertNode,
  MISSING_ID,
  setupSuite,
} from '../support/harness';

describe('matching rules API', () => {
  const suite = setupSuite();
  const { knex, get, send, signIn, userWith } = suite;
  let process: { id: number };
  let reader: string;
  let processAdmin: string;

  const batch = (token: string | undefined, json: Record<string, unknown>) =>
    send('POST', '/api/matching-rules/batch', token, {
      deletedRuleIds: [],
      updatedRules: [],
      newRules: [],
      ...json,
    });

  const buildNode = (activityType = 'LEXICON') => insertNode(knex, process.id, activityType);
  const buildTagType = (nodeId: number, name?: string) => insertNerTagType(knex, nodeId, name);
  const buildRule = async (
    tagTypeId: number,
    expression: string,
    matchingType = 'EXACT',
    tolerance = null,
  ) => {
    const [r] = await knex('matching_rules')
      .insert({ ner_tag_type_id: tagTypeId, expression, matching_type: matchingType, tolerance })
      .returning('*');
    return r as { id: number };
  };
  const rulesOf = async (nodeId: number) =>
    ((await get(`/api/matching-rules?nodeId=${nodeId}`, suite.admin)).body as MatchingRuleDTO[]).map((r) => [
      r.nerTagTypeId,
      r.expression,
      r.matchingType,
      r.tolerance,
    ]);

  beforeAll(async () => {
    process = await buildProcess(knex);
    reader = await userWith(process.id, 'READ');
    processAdmin = await userWith(process.id, 'ADMIN');
  });

  describe('GET /api/matching-rules', () => {
    it('lists the rules of every tag type of the node with their tag type id', async () => {
      const node = await buildNode();
      const a = await buildTagType(node.id);
      const b = await buildTagType(node.id);
      const r1 = await buildRule(a.id, 'alpha');
      const r2 = await buildRule(b.id, 'beta', 'FUZZY', 2 as never);
      const res = await get(`/api/matching-rules?nodeId=${node.id}`, reader);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: r1.id, nerTagTypeId: a.id, expression: 'alpha', matchingType: 'EXACT', tolerance: null },
        { id: r2.id, nerTagTypeId: b.id, expression: 'beta', matchingType: 'FUZZY', tolerance: 2 },
      ]);
    });

    it('needs a token (401), READ on the node (403), a known node (404) and a numeric id (400)', async () => {
      const node = await buildNode();
      expect((await get(`/api/matching-rules?nodeId=${node.id}`)).status).toBe(401);
      const stranger = await signIn(await buildUser(knex));
      expect((await get(`/api/matching-rules?nodeId=${node.id}`, stranger)).status).toBe(403);
      expect((await get(`/api/matching-rules?nodeId=${MISSING_ID}`, suite.admin)).status).toBe(404);
      expect((await get('/api/matching-rules?nodeId=x', suite.admin)).status).toBe(400);
      expect((await get('/api/matching-rules', suite.admin)).status).toBe(400);
    });
  });

  describe('PUT /api/matching-rules', () => {
    it('updates one rule (alert), clearing the tolerance when the type is not FUZZY', async () => {
      const node = await buildNode();
      const t = await buildTagType(node.id);
      const rule = await buildRule(t.id, 'x');
      const res = await send('PUT', '/api/matching-rules', processAdmin, {
        id: rule.id,
        nerTagTypeId: t.id,
        expression: ' y ',
        matchingType: 'REGEX',
        tolerance: 2,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.matchingRule.updated');
      expect(res.body).toEqual({
        id: rule.id,
        nerTagTypeId: t.id,
        expression: 'y',
        matchingType: 'REGEX',
        tolerance: null,
      });
    });

    it('moves a rule to another tag type of the same node only', async () => {
      const node = await buildNode();
      const [a, b] = [await buildTagType(node.id), await buildTagType(node.id)];
      const rule = await buildRule(a.id, 'x');
      const body = { id: rule.id, expression: 'x', matchingType: 'EXACT' };
      const moved = await send('PUT', '/api/matching-rules', suite.admin, { ...body, nerTagTypeId: b.id });
      expect(moved.body.nerTagTypeId).toBe(b.id);
      const foreign = await buildTagType((await buildNode()).id);
      const refused = await send('PUT', '/api/matching-rules', suite.admin, {
        ...body,
        nerTagTypeId: foreign.id,
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('error.idinvalid');
    });

    it('reports the expression and tolerance rules', async () => {
      const node = await buildNode();
      const t = await buildTagType(node.id);
      const rule = await buildRule(t.id, 'x');
      const put = (json: Record<string, unknown>) =>
        send('PUT', '/api/matching-rules', suite.admin, { id: rule.id, ...json });
      expect(fieldKeys(await put({ expression: '', matchingType: 'EXACT' }))).toEqual([
        ['expression', 'entity.validation.required'],
      ]);
      expect(fieldKeys(await put({ expression: '(a', matchingType: 'REGEX' }))).toEqual([
        ['expression', 'soaApp.matchingRule.regexInvalid'],
      ]);
      expect(fieldKeys(await put({ expression: 'a', matchingType: 'FUZZY' }))).toEqual([
        ['tolerance', 'entity.validation.required'],
      ]);
      expect(fieldKeys(await put({ expression: 'a', matchingType: 'FUZZY', tolerance: 4 }))).toEqual([
        ['tolerance', 'soaApp.matchingRule.toleranceRange'],
      ]);
      const badType = await put({ expression: 'a', matchingType: 'SOUNDEX' });
      expect(badType.status).toBe(400);
      expect(fieldKeys(badType)[0][0]).toBe('matchingType');
    });

    it('needs a token (401), ADMIN on the process (403) and a known rule (404)', async () => {
      const node = await buildNode();
      const t = await buildTagType(node.id);
      const rule = await buildRule(t.id, 'x');
      const body = { id: rule.id, expression: 'y', matchingType: 'EXACT' };
      expect((await send('PUT', '/api/matching-rules', undefined, body)).status).toBe(401);
      expect((await send('PUT', '/api/matching-rules', reader, body)).status).toBe(403);
      expect(
        (await send('PUT', '/api/matching-rules', suite.admin, { ...body, id: MISSING_ID })).status,
      ).toBe(404);
    });
  });

  describe('POST /api/matching-rules/batch', () => {
    it('deletes, updates and creates in one call and answers with the node’s rules', async () => {
      const node = await buildNode();
      const t = await buildTagType(node.id);
      const gone = await buildRule(t.id, 'gone', 'FUZZY', 1 as never);
      const kept = await buildRule(t.id, 'kept', 'FUZZY', 1 as never);
      const res = await batch(processAdmin, {
        nerTagTypeId: t.id,
        deletedRuleIds: [gone.id],
        updatedRules: [
          { id: kept.id, nerTagTypeId: t.id, expression: 'kept', matchingType: 'FUZZY', tolerance: 3 },
        ],
        newRules: [
          { nerTagTypeId: t.id, expression: 'fresh', matchingType: 'FUZZY', tolerance: 3 },
          { expression: 'fresh', matchingType: 'EXACT', tolerance: 3 },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.matchingRule.updated');
      const expected = [
        [t.id, 'kept', 'FUZZY', 3],
        [t.id, 'fresh', 'FUZZY', 3],
        [t.id, 'fresh', 'EXACT', null],
      ];
      expect(
        res.body.map((r: MatchingRuleDTO) => [r.nerTagTypeId, r.expression, r.matchingType, r.tolerance]),
      ).toEqual(expected);
      expect(await rulesOf(node.id)).toEqual(expected);
    });

    it('deletes a whole group with deletions only', async () => {
      const node = await buildNode();
      const t = await buildTagType(node.id);
      const a = await buildRule(t.id, 'a');
      const b = await buildRule(t.id, 'b');
      const res = await batch(suite.admin, { nerTagTypeId: t.id, deletedRuleIds: [a.id, b.id] });
      expect(res.status).toBe(200);
      expect(await rulesOf(node.id)).toEqual([]);
    });

    it('checks the expression list: empty, empty values, duplicates', async () => {
      const node = await buildNode();
      const t = await buildTagType(node.id);
      const empty = await batch(suite.admin, { nerTagTypeId: t.id });
      expect(fieldKeys(empty)).toEqual([['expressions', 'soaApp.matchingRule.listEmpty']]);
      const blank = await batch(suite.admin, {
        nerTagTypeId: t.id,
        newRules: [
          { expression: 'a', matchingType: 'EXACT' },
          { expression: ' ', matchingType: 'EXACT' },
        ],
      });
      expect(fieldKeys(blank)).toEqual([
        ['newRules.1.expression', 'entity.validation.required'],
        ['expressions', 'soaApp.matchingRule.listEmptyValues'],
      ]);
      const kept = await buildRule(t.id, 'a');
      const dup = await batch(suite.admin, {
        nerTagTypeId: t.id,
        updatedRules: [{ id: kept.id, expression: 'a', matchingType: 'EXACT' }],
        newRules: [{ expression: 'a ', matchingType: 'EXACT' }],
      });
      expect(fieldKeys(dup)).toEqual([['expressions', 'soaApp.matchingRule.listDuplicates']]);
      expect(await rulesOf(node.id)).toEqual([[t.id, 'a', 'EXACT', null]]);
    });

    it('reports each rule’s fields under its place in the batch', async () => {
      const node = await buildNode();
      const t = await buildTagType(node.id);
      const rule = await buildRule(t.id, 'x');
      const res = await batch(suite.admin, {
        nerTagTypeId: t.id,
        updatedRules: [{ id: rule.id, expression: '[', matchingType: 'REGEX' }],
        newRules: [{ expression: 'y', matchingType: 'FUZZY', tolerance: 0 }],
      });
      expect(fieldKeys(res)).toEqual([
        ['updatedRules.0.expression', 'soaApp.matchingRule.regexInvalid'],
        ['newRules.0.tolerance', 'soaApp.matchingRule.toleranceRange'],
      ]);
    });

    it('refuses ids of another tag type and changes nothing (400 error.idinvalid)', async () => {
      const node = await buildNode();
      const [mine, other] = [await buildTagType(node.id), await buildTagType(node.id)];
      const own = await buildRule(mine.id, 'own');
      const foreign = await buildRule(other.id, 'foreign');
      const viaDelete = await batch(suite.admin, {
        nerTagTypeId: mine.id,
        deletedRuleIds: [own.id, foreign.id],
        newRules: [{ expression: 'new', matchingType: 'EXACT' }],
      });
      expect(viaDelete.status).toBe(400);
      expect(viaDelete.body.message).toBe('error.idinvalid');
      const viaUpdate = await batch(suite.admin, {
        nerTagTypeId: mine.id,
        updatedRules: [{ id: foreign.id, expression: 'x', matchingType: 'EXACT' }],
      });
      expect(viaUpdate.body.message).toBe('error.idinvalid');
      const unknown = await batch(suite.admin, { nerTagTypeId: mine.id, deletedRuleIds: [MISSING_ID] });
      expect(unknown.body.message).toBe('error.idinvalid');
      const elsewhere = await buildTagType((await buildNode()).id);
      const crossNode = await batch(suite.admin, {
        nerTagTypeId: mine.id,
        newRules: [{ nerTagTypeId: elsewhere.id, expression: 'x', matchingType: 'EXACT' }],
      });
      expect(crossNode.body.message).toBe('error.idinvalid');
      expect(await rulesOf(node.id)).toEqual([
        [mine.id, 'own', 'EXACT', null],
        [other.id, 'foreign', 'EXACT', null],
      ]);
    });

    it('needs a token (401), ADMIN on the process (403) and a known tag type (404)', async () => {
      const node = await buildNode();
      const t = await buildTagType(node.id);
      const body = { nerTagTypeId: t.id, newRules: [{ expression: 'x', matchingType: 'EXACT' }] };
      expect((await batch(undefined, body)).status).toBe(401);
      expect((await batch(reader, body)).status).toBe(403);
      const nodeAdmin = await signIn(
        await buildUser(knex, { authorities: [{ componentId: node.id, type: 'NODE', mode: 'ADMIN' }] }),
      );
      expect((await batch(nodeAdmin, body)).status).toBe(403);
      expect((await batch(suite.admin, { ...body, nerTagTypeId: MISSING_ID })).status).toBe(404);
      expect(await rulesOf(node.id)).toEqual([]);
    });
  });
});
