/**
 * Validation gaps of issue 9 (finding 10, and the save-time half of finding 3): crons Temporal cannot run,
 * colours that are not colours, megabyte free-text fields and REGEX rules the linear-time engine cannot
 * run are refused with 400 and a field error, and nothing is stored. Names are unique(): other suites share
 * the database.
 */
import {
  buildProcess,
  fieldKeys,
  insertNerTagType,
  insertNode,
  setupSuite,
  unique,
} from '../support/harness';

const MEGABYTE = 'x'.repeat(1024 * 1024);
const MAXLENGTH = 'entity.validation.maxlength';

describe('input limits', () => {
  const suite = setupSuite();
  const { knex, send, createNode } = suite;
  let process: { id: number };

  beforeAll(async () => {
    process = await buildProcess(knex);
  });

  // Counted in this suite's process only: other suites add nodes to the shared database meanwhile.
  const nodeCount = async () =>
    Number((await knex('nodes').where('process_id', process.id).count('* as n').first())!.n);

  describe('nodes', () => {
    it('refuses a cron whose fields are out of range (99 99 99 99 99 ?) when the node is saved', async () => {
      const before = await nodeCount();
      for (const cron of ['99 99 99 99 99 ?', '0 0 24 * * ?', '0 0 12 ? * 8', '0 0 12 ? * MON 2100']) {
        const res = await createNode(process.id, { activityType: 'SEND_MAIL', triggerType: 'CRON', cron });
        expect({ cron, status: res.status, keys: fieldKeys(res) }).toEqual({
          cron,
          status: 400,
          keys: [['cron', 'utils.fieldValidation.cronRegexError']],
        });
      }
      expect(await nodeCount()).toBe(before);
      const ok = await createNode(process.id, {
        activityType: 'SEND_MAIL',
        triggerType: 'CRON',
        cron: '0 30 9 ? * MON-FRI',
      });
      expect(fieldKeys(ok).filter(([field]: string[]) => field === 'cron')).toEqual([]);
    });

    it('refuses a 1 MB description, prompt or URL with the length key, and stores nothing', async () => {
      const before = await nodeCount();
      const cases: [Record<string, unknown>, string][] = [
        [{ activityType: 'CLF', description: MEGABYTE }, 'description'],
        [{ activityType: 'LLM_PROMPT', prompt: MEGABYTE }, 'prompt'],
        [
          { activityType: 'SEND_REQUEST', httpRequestMethod: 'GET', url: `https://example.com/${MEGABYTE}` },
          'url',
        ],
      ];
      for (const [json, field] of cases) {
        const res = await createNode(process.id, { name: unique('Big'), ...json });
        expect({ field, status: res.status, keys: fieldKeys(res) }).toEqual({
          field,
          status: 400,
          keys: [[field, MAXLENGTH]],
        });
      }
      expect(await nodeCount()).toBe(before);
    });

    it('refuses free-text settings over their own limits, below the body-wide cap', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ activityType: 'CLF', description: 'd'.repeat(2001) }, 'description'],
        [
          {
            activityType: 'SEND_REQUEST',
            httpRequestMethod: 'GET',
            url: `https://e.com/${'u'.repeat(2048)}`,
          },
          'url',
        ],
        [{ activityType: 'SEND_MAIL', subject: 's'.repeat(999) }, 'subject'],
      ];
      for (const [json, field] of cases) {
        const res = await createNode(process.id, json);
        expect({ field, status: res.status, keys: fieldKeys(res) }).toEqual({
          field,
          status: 400,
          keys: [[field, MAXLENGTH]],
        });
      }
    });
  });

  describe('secrets', () => {
    it('refuses a 1 MB secret value and one over the secret limit, and stores neither', async () => {
      for (const value of [MEGABYTE, 's'.repeat(10_001)]) {
        const name = unique('secret');
        const res = await send('POST', '/api/secrets', suite.admin, { name, value, processId: process.id });
        expect({ status: res.status, keys: fieldKeys(res) }).toEqual({
          status: 400,
          keys: [['value', MAXLENGTH]],
        });
        expect(await knex('secrets').where('name', name).first()).toBeUndefined();
      }
    });
  });

  describe('labels and matching rules', () => {
    let lexicon: { id: number };
    let tagTypeId: number;

    beforeAll(async () => {
      lexicon = await insertNode(knex, process.id, 'LEXICON');
      tagTypeId = (await insertNerTagType(knex, lexicon.id)).id;
    });

    const batch = (newRules: Record<string, unknown>[]) =>
      send('POST', '/api/matching-rules/batch', suite.admin, {
        nerTagTypeId: tagTypeId,
        deletedRuleIds: [],
        updatedRules: [],
        newRules,
      });
    const ruleCount = async () =>
      Number((await knex('matching_rules').where('ner_tag_type_id', tagTypeId).count('* as n').first())!.n);

    it('refuses a 1 MB rule expression, and one over the expression limit', async () => {
      const big = await batch([{ nerTagTypeId: tagTypeId, expression: MEGABYTE, matchingType: 'EXACT' }]);
      expect(big.status).toBe(400);
      expect(fieldKeys(big)).toEqual([['newRules.0.expression', MAXLENGTH]]);
      const long = await batch([
        { nerTagTypeId: tagTypeId, expression: 'e'.repeat(1001), matchingType: 'EXACT' },
      ]);
      expect(long.status).toBe(400);
      expect(fieldKeys(long).map(([, key]: string[]) => key)).toEqual([MAXLENGTH]);
      expect(await ruleCount()).toBe(0);
    });

    it('refuses a REGEX rule with a backreference or lookaround, and saves (a+)+$', async () => {
      for (const expression of ['(a)\\1', 'a(?=b)']) {
        const res = await batch([{ nerTagTypeId: tagTypeId, expression, matchingType: 'REGEX' }]);
        expect({
          expression,
          status: res.status,
          keys: fieldKeys(res).map(([, key]: string[]) => key),
        }).toEqual({
          expression,
          status: 400,
          keys: ['soaApp.matchingRule.regexUnsupported'],
        });
      }
      expect(await ruleCount()).toBe(0);
      const ok = await batch([{ nerTagTypeId: tagTypeId, expression: '(a+)+$', matchingType: 'REGEX' }]);
      expect(ok.status).toBeLessThan(300);
      expect(await ruleCount()).toBe(1);
    });

    it('refuses label colours that are not #rgb or #rrggbb', async () => {
      const clf = await insertNode(knex, process.id, 'CLF');
      const bad = await send('POST', `/api/node/${clf.id}/classifier-types`, suite.admin, {
        name: unique('Invoice'),
        backgroundColor: 'red; x',
      });
      expect({ status: bad.status, keys: fieldKeys(bad) }).toEqual({
        status: 400,
        keys: [['backgroundColor', 'soaApp.label.colorInvalid']],
      });
      const ner = await send('POST', `/api/node/${lexicon.id}/ner-tag-type`, suite.admin, {
        name: unique('Person'),
        backgroundColor: '#112233',
        textColor: 'white',
        mandatory: false,
      });
      expect({ status: ner.status, keys: fieldKeys(ner) }).toEqual({
        status: 400,
        keys: [['textColor', 'soaApp.label.colorInvalid']],
      });
      const short = await send('POST', `/api/node/${clf.id}/classifier-types`, suite.admin, {
        name: unique('Invoice'),
        backgroundColor: '#abc',
      });
      expect(short.status).toBe(201);
    });

    it('refuses a bad process tag colour', async () => {
      const res = await send('POST', '/api/process-tags', suite.admin, {
        name: unique('tag'),
        color: 'blue',
      });
      expect(res.status).toBe(400);
      expect(fieldKeys(res)).toEqual([['color', 'soaApp.processTag.colorInvalid']]);
    });
  });

  describe('characters PostgreSQL cannot store', () => {
    it('refuses a NUL byte or a lone surrogate in a process, secret or rule name with 400 and the field', async () => {
      // Counted by name and by this suite's process: other suites write to the shared database meanwhile.
      const bads = ['a\u0000b', 'a\ud800b', '\udc00'];
      const secretCount = async () =>
        Number((await knex('secrets').where('process_id', process.id).count('* as n').first())!.n);
      const secrets = await secretCount();
      for (const bad of bads) {
        const proc = await send('POST', '/api/processes', suite.admin, {
          name: bad,
          isRagEnabled: false,
          ragTextSplitter: null,
          processTags: [],
        });
        expect({ bad, status: proc.status, keys: fieldKeys(proc) }).toEqual({
          bad,
          status: 400,
          keys: [['name', 'entity.validation.pattern']],
        });
        const secret = await send('POST', '/api/secrets', suite.admin, {
          name: unique('s'),
          value: bad,
          processId: process.id,
        });
        expect({ bad, status: secret.status, keys: fieldKeys(secret) }).toEqual({
          bad,
          status: 400,
          keys: [['value', 'entity.validation.pattern']],
        });
      }
      const lexicon = await insertNode(knex, process.id, 'LEXICON');
      const tagTypeId = (await insertNerTagType(knex, lexicon.id)).id;
      const rule = await send('POST', '/api/matching-rules/batch', suite.admin, {
        nerTagTypeId: tagTypeId,
        deletedRuleIds: [],
        updatedRules: [],
        newRules: [{ nerTagTypeId: tagTypeId, expression: 'x\u0000', matchingType: 'EXACT' }],
      });
      expect(rule.status).toBe(400);
      expect(fieldKeys(rule)).toEqual([['newRules.0.expression', 'entity.validation.pattern']]);
      // A name PostgreSQL cannot store could not be looked up either: no process was named like the
      // parts around the bad character, and this process gained no secret.
      expect(await knex('processes').whereIn('name', ['ab', 'a', '']).select('id')).toEqual([]);
      expect(await secretCount()).toBe(secrets);
    });
  });
});
