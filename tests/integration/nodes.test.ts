/**
 * Nodes API: list / read / previous nodes, creation with defaults and couplings, the whole-node update with
 * the type-specific rules, coordinates, deletion (obligatory node, cohesion), node properties and whitelists,
 * and the obligatory Upload node of a new process. Other suites share the database: names are unique().
 */
import type { NodeDTO } from '../../domain/graph-types';
import { buildProcess, buildUser, fieldKeys, MISSING_ID, setupSuite, unique } from '../support/harness';

describe('nodes API', () => {
  const suite = setupSuite();
  const { knex, get, send, signIn, createNode, node, edge, userWith } = suite;
  const put = (dto: Record<string, unknown>, token = suite.admin) => send('PUT', '/api/nodes', token, dto);

  describe('the obligatory Upload node', () => {
    it('is created with every new process: HUP "Upload" at (0, 0), obligatory, active, random endpoint', async () => {
      const [tag] = await knex('process_tags').where({ predefined: true }).orderBy('id').limit(1);
      const res = await send('POST', '/api/processes', suite.admin, {
        name: unique('With upload'),
        isRagEnabled: false,
        processTags: [{ id: tag.id }],
        ragTextSplitter: null,
      });
      expect(res.status).toBe(201);
      const nodes = await get(`/api/nodes?processId=${res.body.id}`, suite.admin);
      expect(nodes.status).toBe(200);
      expect(nodes.body).toHaveLength(1);
      expect(nodes.body[0]).toMatchObject({
        name: 'Upload',
        activityType: 'HUP',
        x: 0,
        y: 0,
        obligatory: true,
        active: true,
        automatic: true,
        autoStepStatus: 'ACCEPTED',
        accessMode: 'ADMIN',
      });
      expect(nodes.body[0].endpoint).toMatch(/^[a-z0-9]{16}$/);
    });

    it('exists in the seeded demo process', async () => {
      const demo = await knex('processes').where({ name: 'Demo Sphere' }).first();
      const upload = await knex('nodes').where({ process_id: demo.id, obligatory: true });
      expect(upload.map((n: { name: string; activity_type: string }) => [n.name, n.activity_type])).toEqual([
        ['Upload', 'HUP'],
      ]);
    });

    it('cannot be deleted (400 app error) and keeps its endpoint and type on update', async () => {
      const [tag] = await knex('process_tags').where({ predefined: true }).orderBy('id').limit(1);
      const process = await send('POST', '/api/processes', suite.admin, {
        name: unique('Obligatory'),
        processTags: [{ id: tag.id }],
      });
      const [upload] = (await get(`/api/nodes?processId=${process.body.id}`, suite.admin)).body as NodeDTO[];
      const del = await send('DELETE', `/api/nodes/${upload.id}`, suite.admin);
      expect(del.status).toBe(400);
      expect(del.body.message).toBe('soaApp.node.obligatoryNodeDeletion');
      expect(del.headers.get('x-soaapp-error')).toBe('soaApp.node.obligatoryNodeDeletion');

      const updated = await put({ ...upload, name: 'Inbox', endpoint: 'changed', obligatory: false });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'Inbox', endpoint: upload.endpoint, obligatory: true });
      const retyped = await put({ ...upload, activityType: 'CLF' });
      expect(retyped.status).toBe(400);
      expect(fieldKeys(retyped)).toEqual([['activityType', 'soaApp.node.activityTypeImmutable']]);
    });
  });

  describe('static facts', () => {
    it('serves node properties and the five whitelists to a signed-in user, 401 otherwise', async () => {
      const user = await signIn(await buildUser(knex));
      const props = await get('/api/node-properties', user);
      expect(props.status).toBe(200);
      expect(props.body.uploadTypes).toEqual(['HUP', 'EMAIL_UPLOAD', 'SFTP_UPLOAD', 'GDU_UPLOAD', 'IPR']);
      expect(props.body.autoStepStatusDefaults.CLF).toBe('WAITING');
      expect(props.body.edgeWhitelist.CLF).not.toContain('HUP');
      const lists: [string, string[]][] = [
        ['multiprocessed-nodes-whitelist', ['CLF', 'SPAN', 'LEXICON']],
        ['nodes-with-conditional-acceptance-whitelist', ['CLF', 'SPAN', 'LEXICON', 'FILE_PARSER']],
        ['custom-external-nodes-whitelist', ['CLF', 'SPAN']],
        ['llm-external-nodes-whitelist', ['CLF', 'SPAN']],
        ['trainable-nodes-whitelist', ['CLF', 'SPAN']],
      ];
      for (const [path, expected] of lists) {
        const res = await get(`/api/nodes/${path}`, user);
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 200, body: expected });
      }
      expect((await get('/api/node-properties')).status).toBe(401);
      expect((await get('/api/nodes/trainable-nodes-whitelist')).status).toBe(401);
    });
  });

  describe('reading', () => {
    it('lists the nodes of a process for READ, with the caller mode; 403 without; 401 anonymous', async () => {
      const process = await buildProcess(knex);
      const a = await node(process.id, 'FILE_PARSER');
      const b = await node(process.id, 'CLF');
      const reader = await userWith(process.id, 'READ');
      const res = await get(`/api/nodes?processId=${process.id}`, reader);
      expect(res.status).toBe(200);
      expect(res.body.map((n: NodeDTO) => [n.id, n.accessMode])).toEqual([
        [a.id, 'READ'],
        [b.id, 'READ'],
      ]);
      expect(
        (await get(`/api/nodes?processId=${process.id}`, await signIn(await buildUser(knex)))).status,
      ).toBe(403);
      expect((await get(`/api/nodes?processId=${process.id}`)).status).toBe(401);
      expect((await get(`/api/nodes?processId=abc`, suite.admin)).status).toBe(400);
    });

    it('reads one node with READ on the node alone (node mode), 403 without, 404 when missing', async () => {
      const process = await buildProcess(knex);
      const n = await node(process.id, 'SPAN');
      const nodeReader = await signIn(
        await buildUser(knex, { authorities: [{ componentId: n.id, type: 'NODE', mode: 'WRITE' }] }),
      );
      const res = await get(`/api/nodes/${n.id}`, nodeReader);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: n.id, accessMode: 'WRITE', supportedTaggingTypes: ['token'] });
      expect((await get(`/api/nodes/${n.id}`, await signIn(await buildUser(knex)))).status).toBe(403);
      expect((await get(`/api/nodes/${MISSING_ID}`, suite.admin)).status).toBe(404);
      expect((await get(`/api/nodes/${n.id}`)).status).toBe(401);
    });

    it('fetches nodes by ids, refusing one the caller cannot read or that does not exist', async () => {
      const p1 = await buildProcess(knex);
      const p2 = await buildProcess(knex);
      const a = await node(p1.id, 'CLF');
      const b = await node(p1.id, 'LEXICON');
      const c = await node(p2.id, 'LEXICON');
      const reader = await userWith(p1.id, 'READ');
      const ok = await send('POST', '/api/nodes/fetch-by-ids', reader, { nodeIds: [b.id, a.id] });
      expect(ok.status).toBe(200);
      expect(ok.body.map((n: NodeDTO) => n.id)).toEqual([a.id, b.id]);
      const refused = await send('POST', '/api/nodes/fetch-by-ids', reader, { nodeIds: [a.id, c.id] });
      expect(refused.status).toBe(403);
      // An id that exists nowhere answers like one of another process (issue 25 finding 6: no existence oracle);
      // the administrator, who reads every node, gets the nodes that exist.
      const unknown = await send('POST', '/api/nodes/fetch-by-ids', reader, { nodeIds: [a.id, MISSING_ID] });
      expect(unknown.status).toBe(403);
      const admin = await send('POST', '/api/nodes/fetch-by-ids', suite.admin, {
        nodeIds: [a.id, MISSING_ID],
      });
      expect([admin.status, admin.body.map((n: NodeDTO) => n.id)]).toEqual([200, [a.id]]);
    });

    it('gives all ancestors as previous nodes, and lists the SPAN nodes of a process', async () => {
      const process = await buildProcess(knex);
      const up = await node(process.id, 'EMAIL_UPLOAD');
      const parser = await node(process.id, 'FILE_PARSER');
      const span = await node(process.id, 'SPAN');
      const mail = await node(process.id, 'SEND_MAIL');
      await edge(up.id, parser.id);
      await edge(parser.id, span.id);
      await edge(span.id, mail.id);
      const res = await get(`/api/nodes/${mail.id}/previousNodes`, suite.admin);
      expect(res.status).toBe(200);
      expect(res.body.map((n: NodeDTO) => n.id)).toEqual([up.id, parser.id, span.id]);
      const spans = await get(`/api/span-nodes?processId=${process.id}`, suite.admin);
      expect(spans.body.map((n: NodeDTO) => n.id)).toEqual([span.id]);
      expect(
        (await get(`/api/span-nodes?processId=${process.id}`, await signIn(await buildUser(knex)))).status,
      ).toBe(403);
    });
  });

  describe('POST /api/nodes', () => {
    it('creates a node with the type defaults (201 and an alert)', async () => {
      const process = await buildProcess(knex);
      const name = unique('Entities');
      const res = await createNode(process.id, { activityType: 'SPAN', name, x: 300, y: -50 });
      expect(res.status).toBe(201);
      expect(res.headers.get('x-soaapp-alert')).toBe('soaApp.node.created');
      expect(res.body).toMatchObject({
        name,
        processId: process.id,
        activityType: 'SPAN',
        x: 300,
        y: -50,
        automatic: false,
        autoStepStatus: 'WAITING',
        priority: 2,
        triggerType: 'ALWAYS',
        requiresAcceptance: false,
        obligatory: false,
        supportedTaggingTypes: ['token'],
        additionalNodeSubmits: [],
        externalConfig: null,
        trainableConfig: null,
        accessMode: 'ADMIN',
      });
      expect(res.body).not.toHaveProperty('prompt');
      const llm = await node(process.id, 'LLM_PROMPT');
      expect(llm).toMatchObject({
        temperature: 1,
        automatic: true,
        autoStepStatus: 'ACCEPTED',
        llmModel: null,
      });
    });

    it('applies the couplings: external config forces automatic, trainable + automatic requires acceptance', async () => {
      const process = await buildProcess(knex);
      const external = await node(process.id, 'CLF', {
        automatic: false,
        externalConfig: { configType: 'CUSTOM', model: 'm', restApiUrl: 'https://model.example.com/run' },
      });
      expect(external.automatic).toBe(true);
      const trainable = await node(process.id, 'SPAN', {
        automatic: true,
        requiresAcceptance: false,
        trainableConfig: { model: 'bert', requestPath: null, automaticTraining: false, threshold: 10 },
      });
      expect(trainable.requiresAcceptance).toBe(true);
    });

    it('reports each name rule with its key', async () => {
      const process = await buildProcess(knex);
      const taken = await node(process.id, 'CLF', { name: 'Classifier One' });
      const cases: [unknown, string][] = [
        ['', 'entity.validation.required'],
        ['bad!name', 'textRegexError'],
        ['a'.repeat(101), 'entity.validation.maxlength'],
        [` ${taken.name.toUpperCase()} `, 'soaApp.node.nameUniquenessError'],
      ];
      for (const [name, key] of cases) {
        const res = await createNode(process.id, { activityType: 'LEXICON', name });
        expect({ name, status: res.status, keys: fieldKeys(res) }).toEqual({
          name,
          status: 400,
          keys: [['name', key]],
        });
      }
      const elsewhere = await buildProcess(knex);
      expect((await createNode(elsewhere.id, { activityType: 'CLF', name: 'Classifier One' })).status).toBe(
        201,
      );
    });

    it('reports cron, trigger, whitelist, endpoint and range rules', async () => {
      const process = await buildProcess(knex);
      const expectKeys = async (json: Record<string, unknown>, keys: string[][]) => {
        const res = await createNode(process.id, json);
        expect({ json, status: res.status, keys: fieldKeys(res) }).toEqual({ json, status: 400, keys });
      };
      await expectKeys({ activityType: 'GDU_UPLOAD', cron: '* * *' }, [
        ['cron', 'utils.fieldValidation.cronRegexError'],
      ]);
      await expectKeys({ activityType: 'SEND_MAIL', triggerType: 'CRON' }, [
        ['cron', 'entity.validation.required'],
      ]);
      await expectKeys({ activityType: 'SEND_MAIL', triggerType: 'THRESHOLD', threshold: 0 }, [
        ['threshold', 'entity.validation.min'],
      ]);
      await expectKeys(
        { activityType: 'FILE_PARSER', additionalNodeSubmits: [{ docId: null, submits: 1 }] },
        [['additionalNodeSubmits', 'soaApp.node.settingNotAllowed']],
      );
      await expectKeys({ activityType: 'CLF', additionalNodeSubmits: [{ docId: null, submits: 6 }] }, [
        ['additionalNodeSubmits[0].submits', 'entity.validation.max'],
      ]);
      await expectKeys(
        {
          activityType: 'LEXICON',
          externalConfig: { configType: 'CUSTOM', restApiUrl: 'https://x.example.com' },
        },
        [['externalConfig', 'soaApp.node.settingNotAllowed']],
      );
      await expectKeys(
        { activityType: 'CLF', externalConfig: { configType: 'CUSTOM', restApiUrl: 'nope' } },
        [['externalConfig.restApiUrl', 'urlRegexError']],
      );
      await expectKeys(
        { activityType: 'SPAN', externalConfig: { configType: 'LLM', llmModel: { id: MISSING_ID } } },
        [['externalConfig.llmModel', 'error.idnotfound']],
      );
      await expectKeys(
        { activityType: 'LEXICON', trainableConfig: { model: 'm', automaticTraining: false, threshold: 10 } },
        [['trainableConfig', 'soaApp.node.settingNotAllowed']],
      );
      await expectKeys({ activityType: 'CLF', trainableConfig: { model: 'm', threshold: 5 } }, [
        ['trainableConfig.threshold', 'entity.validation.min'],
      ]);
      await expectKeys({ activityType: 'LLM_PROMPT', temperature: 2.5 }, [
        ['temperature', 'entity.validation.max'],
      ]);
      await expectKeys({ activityType: 'CLF', priority: 5 }, [['priority', 'entity.validation.max']]);
      await expectKeys({ activityType: 'HUP', endpoint: 'x' }, [['endpoint', 'textLengthError']]);
      await node(process.id, 'HUP', { endpoint: 'shared-endpoint' });
      await expectKeys({ activityType: 'HUP', endpoint: 'Shared-Endpoint' }, [
        ['endpoint', 'soaApp.httpUploadNode.uniqWarning'],
      ]);
    });

    it('rejects a body of the wrong shape with field errors', async () => {
      const process = await buildProcess(knex);
      const res = await createNode(process.id, { activityType: 'NOPE' });
      expect(res.status).toBe(400);
      expect(fieldKeys(res).map(([f]: string[]) => f)).toEqual(['activityType']);
    });

    it('needs ADMIN on the process (403 for READ and WRITE, 401 anonymous, 404 missing process)', async () => {
      const process = await buildProcess(knex);
      for (const mode of ['READ', 'WRITE'] as const) {
        expect(
          (await createNode(process.id, { activityType: 'CLF' }, await userWith(process.id, mode))).status,
        ).toBe(403);
      }
      expect(
        (await send('POST', '/api/nodes', undefined, { processId: process.id, activityType: 'CLF' })).status,
      ).toBe(401);
      expect(
        (await createNode(process.id, { activityType: 'CLF' }, await userWith(process.id, 'ADMIN'))).status,
      ).toBe(201);
      expect((await createNode(MISSING_ID, { activityType: 'CLF' })).status).toBe(404);
    });
  });

  describe('PUT /api/nodes', () => {
    it('saves a send-mail node; each setting rule has its key; negative receiver ids become new rows', async () => {
      const process = await buildProcess(knex);
      const mail = await node(process.id, 'SEND_MAIL');
      const incomplete = await put({ ...mail });
      expect(incomplete.status).toBe(400);
      expect(fieldKeys(incomplete)).toEqual([
        ['smtpHost', 'entity.validation.required'],
        ['smtpPort', 'entity.validation.required'],
        ['username', 'entity.validation.required'],
        ['subject', 'entity.validation.required'],
        ['template', 'entity.validation.required'],
      ]);
      const wrong = await put({
        ...mail,
        smtpHost: 'bad host',
        smtpPort: 70000,
        username: 'u',
        subject: 's',
        template: 'Hello',
        mailReceivers: [{ id: -3, email: 'nope', type: 'DO' }],
      });
      expect(fieldKeys(wrong)).toEqual([
        ['smtpHost', 'domainOrIpError'],
        ['smtpPort', 'entity.validation.max'],
        ['mailReceivers[0].email', 'emailError'],
      ]);
      const ok = await put({
        ...mail,
        description: 'notify',
        smtpHost: 'smtp.example.com',
        smtpPort: 587,
        username: 'robot',
        subject: 'Done',
        template: 'Hello ${process.name}',
        templateEditorState: '{"root":1}',
        triggerType: 'THRESHOLD',
        threshold: 3,
        mailReceivers: [{ id: -3, email: 'boss@example.com', type: 'UDW' }],
      });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-soaapp-alert')).toBe('soaApp.node.updated');
      expect(ok.body).toMatchObject({
        description: 'notify',
        smtpPort: 587,
        triggerType: 'THRESHOLD',
        threshold: 3,
        templateEditorState: '{"root":1}',
        mailReceivers: [{ id: null, email: 'boss@example.com', type: 'UDW' }],
      });
      expect((await get(`/api/nodes/${mail.id}`, suite.admin)).body).toEqual(ok.body);
    });

    it('saves an LLM prompt node with a seeded model and a secret of the process', async () => {
      const process = await buildProcess(knex);
      const llm = await node(process.id, 'LLM_PROMPT');
      const model = await knex('llm_models').orderBy('id').first();
      const [secret] = await knex('secrets')
        .insert({ process_id: process.id, name: unique('key'), value: 'sk-test' })
        .returning('*');
      const other = await buildProcess(knex);
      const [foreign] = await knex('secrets')
        .insert({ process_id: other.id, name: unique('key'), value: 'sk-other' })
        .returning('*');
      const missing = await put({ ...llm, prompt: '' });
      expect(fieldKeys(missing)).toEqual([
        ['llmModel', 'entity.validation.required'],
        ['prompt', 'entity.validation.required'],
      ]);
      const foreignSecret = await put({
        ...llm,
        llmModel: { id: model.id },
        secret: { id: foreign.id },
        prompt: 'p',
      });
      expect(fieldKeys(foreignSecret)).toEqual([['secret', 'error.idnotfound']]);
      const ok = await put({
        ...llm,
        llmModel: { id: model.id },
        secret: { id: secret.id },
        prompt: 'Summarise ${document.content}',
        temperature: 0.25,
        attachFile: true,
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        llmModel: { id: model.id },
        secret: { id: secret.id },
        temperature: 0.25,
      });
      expect(JSON.stringify(ok.body)).not.toContain('sk-test');
    });

    it('checks a send-request node: method, URL (http(s) or a wildcard), body type, header keys', async () => {
      const process = await buildProcess(knex);
      const req = await node(process.id, 'SEND_REQUEST');
      const bad = await put({
        ...req,
        httpRequestMethod: 'POST',
        url: 'example.com',
        headers: { '': { value: 'x' } },
      });
      expect(fieldKeys(bad)).toEqual([
        ['url', 'urlRegexError'],
        ['headers.key', 'entity.validation.required'],
        ['requestBody.bodyType', 'entity.validation.required'],
      ]);
      const ok = await put({
        ...req,
        httpRequestMethod: 'POST',
        url: '${process.name}',
        headers: { Accept: { value: 'application/json', editorState: null } },
        requestBody: { bodyType: 'JSON', jsonBody: { id: { value: '${document.id}' } } },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.requestBody).toMatchObject({
        bodyType: 'JSON',
        jsonBody: { id: { value: '${document.id}' } },
      });
    });

    it('checks cloud-drive and SFTP senders: file name, content, the node’s own connection', async () => {
      const process = await buildProcess(knex);
      const drive = await node(process.id, 'SEND_TO_GOOGLE_DRIVE');
      const badName = await put({ ...drive, preferredFilename: 'a/b.txt', fileContent: 'c' });
      expect(fieldKeys(badName)).toEqual([['preferredFilename', 'entity.validation.pattern']]);
      const driveOk = await put({ ...drive, preferredFilename: 'doc ${util.date}.txt', fileContent: 'c' });
      expect(driveOk.status).toBe(200);

      const sftp = await node(process.id, 'SEND_TO_SFTP');
      const other = await node(process.id, 'SEND_TO_SFTP');
      const [own] = await knex('sftp_connections')
        .insert({ node_id: sftp.id, name: 'own', address: 'sftp.example.com' })
        .returning('*');
      const [foreign] = await knex('sftp_connections')
        .insert({ node_id: other.id, name: 'foreign', address: 'sftp.example.com' })
        .returning('*');
      const base = { ...sftp, preferredFilename: 'out.txt', fileContent: '${document.content}' };
      expect(fieldKeys(await put(base))).toEqual([['sftpConnection', 'entity.validation.required']]);
      expect(fieldKeys(await put({ ...base, sftpConnection: { id: foreign.id } }))).toEqual([
        ['sftpConnection', 'error.idnotfound'],
      ]);
      const ok = await put({ ...base, sftpConnection: { id: own.id } });
      expect(ok.status).toBe(200);
      expect(ok.body.sftpConnection).toEqual({ id: own.id });
    });

    it('checks an IPS node: payload, document name, and IPR receivers the caller can read', async () => {
      const process = await buildProcess(knex);
      const ips = await node(process.id, 'IPS');
      const target = await buildProcess(knex);
      const ipr = await node(target.id, 'IPR');
      const notIpr = await node(target.id, 'CLF');
      const missing = await put({ ...ips });
      expect(fieldKeys(missing)).toEqual([
        ['payload', 'entity.validation.required'],
        ['preferredDocName', 'entity.validation.required'],
      ]);
      const wrong = await put({
        ...ips,
        payload: 'p',
        preferredDocName: 'd',
        receivers: [{ id: notIpr.id }],
      });
      expect(fieldKeys(wrong)).toEqual([['receivers[0]', 'error.idnotfound']]);
      const ok = await put({ ...ips, payload: 'p', preferredDocName: 'd', receivers: [{ id: ipr.id }] });
      expect(ok.status).toBe(200);
      expect(ok.body.receivers).toEqual([{ id: ipr.id, name: ipr.name, processId: target.id }]);
    });

    it('keeps a non-obligatory HUP endpoint unique and well-formed', async () => {
      const process = await buildProcess(knex);
      const a = await node(process.id, 'HUP', { endpoint: 'first-endpoint' });
      const b = await node(process.id, 'HUP');
      expect(fieldKeys(await put({ ...b, endpoint: 'FIRST-endpoint' }))).toEqual([
        ['endpoint', 'soaApp.httpUploadNode.uniqWarning'],
      ]);
      expect(fieldKeys(await put({ ...b, endpoint: 'has space' }))).toEqual([
        ['endpoint', 'identifierError'],
      ]);
      expect(fieldKeys(await put({ ...b, endpoint: '' }))).toEqual([
        ['endpoint', 'entity.validation.required'],
      ]);
      const ok = await put({ ...b, endpoint: 'second_endpoint', active: false });
      expect(ok.body).toMatchObject({ endpoint: 'second_endpoint', active: false });
      expect((await put({ ...a, description: 'same endpoint again' })).status).toBe(200);
    });

    it('stores SFTP upload transfer rules in their table: insert, update, delete', async () => {
      const process = await buildProcess(knex);
      const up = await node(process.id, 'SFTP_UPLOAD');
      const [src, dst] = await knex('sftp_connections')
        .insert([
          { node_id: up.id, name: 'src', address: 'a.example.com' },
          { node_id: up.id, name: 'dst', address: 'b.example.com' },
        ])
        .returning('*');
      const created = await put({
        ...up,
        sftpTransferRules: [
          { id: -17, name: 'copy', sourceId: src.id, targetId: dst.id, deleteAfterTransfer: true },
          { id: -18, name: 'keep', sourceId: dst.id, targetId: null, deleteAfterTransfer: false },
        ],
      });
      expect(created.status).toBe(200);
      const rules = created.body.sftpTransferRules;
      expect(rules.map((r: { name: string; id: number }) => [r.name, r.id > 0])).toEqual([
        ['copy', true],
        ['keep', true],
      ]);
      const updated = await put({ ...created.body, sftpTransferRules: [{ ...rules[0], name: 'copied' }] });
      expect(updated.body.sftpTransferRules).toEqual([{ ...rules[0], name: 'copied' }]);
      expect(await knex('sftp_transfer_rules').where('node_id', up.id).count('* as n')).toEqual([{ n: 1 }]);
      const bad = await put({
        ...created.body,
        sftpTransferRules: [{ id: MISSING_ID, name: 'x', sourceId: MISSING_ID, targetId: null }],
      });
      expect(fieldKeys(bad)).toEqual([
        ['sftpTransferRules[0].id', 'error.idnotfound'],
        ['sftpTransferRules[0].sourceId', 'error.idnotfound'],
      ]);
    });

    it('reports a taken name, needs ADMIN (403 for READ), and 404 for a missing node', async () => {
      const process = await buildProcess(knex);
      const a = await node(process.id, 'CLF');
      const b = await node(process.id, 'CLF');
      expect(fieldKeys(await put({ ...b, name: a.name.toLowerCase() }))).toEqual([
        ['name', 'soaApp.node.nameUniquenessError'],
      ]);
      expect((await put({ ...a, mandatory: true }, await userWith(process.id, 'READ'))).status).toBe(403);
      expect((await put({ ...a, id: MISSING_ID })).status).toBe(404);
      expect((await put({ ...a })).body.name).toBe(a.name);
    });
  });

  describe('coordinates', () => {
    it('saves one node’s and many nodes’ coordinates for ADMIN only', async () => {
      const process = await buildProcess(knex);
      const a = await node(process.id, 'CLF');
      const b = await node(process.id, 'SPAN');
      const one = await send('PUT', `/api/nodes/${a.id}/coordinates`, suite.admin, { x: 12.5, y: -40 });
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ id: a.id, x: 12.5, y: -40 });
      const many = await send('PUT', '/api/nodes/coordinates', suite.admin, [
        { id: a.id, x: 1, y: 2 },
        { id: b.id, x: 3, y: 4 },
      ]);
      expect(many.status).toBe(200);
      const listed = (await get(`/api/nodes?processId=${process.id}`, suite.admin)).body as NodeDTO[];
      expect(listed.map((n) => [n.id, n.x, n.y])).toEqual([
        [a.id, 1, 2],
        [b.id, 3, 4],
      ]);
      const reader = await userWith(process.id, 'READ');
      expect((await send('PUT', `/api/nodes/${a.id}/coordinates`, reader, { x: 0, y: 0 })).status).toBe(403);
      expect((await send('PUT', '/api/nodes/coordinates', reader, [{ id: a.id, x: 0, y: 0 }])).status).toBe(
        403,
      );
      expect(
        (await send('PUT', '/api/nodes/coordinates', suite.admin, [{ id: MISSING_ID, x: 0, y: 0 }])).status,
      ).toBe(404);
    });
  });

  describe('DELETE /api/nodes/:id', () => {
    it('deletes a leaf (204 and an alert) but not a node whose removal splits the graph (422)', async () => {
      const process = await buildProcess(knex);
      const up = await node(process.id, 'EMAIL_UPLOAD');
      const parser = await node(process.id, 'FILE_PARSER');
      const mid = await node(process.id, 'CLF');
      const span = await node(process.id, 'SPAN');
      const leaf = await node(process.id, 'SEND_MAIL');
      await edge(up.id, parser.id);
      await edge(parser.id, mid.id);
      await edge(mid.id, span.id);
      await edge(span.id, leaf.id);
      const split = await send('DELETE', `/api/nodes/${mid.id}`, suite.admin);
      expect(split.status).toBe(422);
      expect(split.body.key).toBe('error.graph.noCohesive');
      expect((await send('DELETE', `/api/nodes/${leaf.id}`, await userWith(process.id, 'READ'))).status).toBe(
        403,
      );
      const ok = await send('DELETE', `/api/nodes/${leaf.id}`, suite.admin);
      expect(ok.status).toBe(204);
      expect(ok.headers.get('x-soaapp-alert')).toBe('soaApp.node.deleted');
      expect((await get(`/api/nodes/${leaf.id}`, suite.admin)).status).toBe(404);
      expect(await knex('edges').where('to_id', leaf.id)).toEqual([]);
      expect((await send('DELETE', `/api/nodes/${MISSING_ID}`, suite.admin)).status).toBe(404);
      expect((await send('DELETE', `/api/nodes/${mid.id}`, undefined)).status).toBe(401);
    });
  });
});
