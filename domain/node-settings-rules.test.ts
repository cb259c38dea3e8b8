import {
  endpointRule,
  ipsRules,
  keysRule,
  llmPromptRules,
  mailReceiversRule,
  preferredFilenameRule,
  requestUrlRule,
  sendFileRules,
  sendMailRules,
  sendRequestRules,
  settingsRules,
  smtpHostRule,
  smtpPortRule,
  supportedTaggingTypesRule,
  temperatureRule,
  transferRulesRule,
  type FieldViolation,
} from './node-settings-rules';

const keys = (list: FieldViolation[]) => list.map((v) => [v.field, v.violation.key]);
const REQUIRED = 'entity.validation.required';

describe('LLM prompt', () => {
  it('needs a model and a prompt; checks referenced rows', () => {
    expect(keys(llmPromptRules({}))).toEqual([
      ['llmModel', REQUIRED],
      ['prompt', REQUIRED],
    ]);
    expect(llmPromptRules({}, { partial: true })).toEqual([]);
    expect(
      keys(
        llmPromptRules(
          { llmModel: { id: 2 }, secret: { id: 3 }, prompt: 'p' },
          { llmModelIds: [1], secretIds: [3] },
        ),
      ),
    ).toEqual([['llmModel', 'error.idnotfound']]);
  });

  it('keeps the temperature within 0..2', () => {
    expect(temperatureRule(0)).toEqual([]);
    expect(temperatureRule(2)).toEqual([]);
    expect(temperatureRule(null)).toEqual([]);
    expect(keys(temperatureRule(2.01))).toEqual([['temperature', 'entity.validation.max']]);
    expect(keys(temperatureRule(-0.01))).toEqual([['temperature', 'entity.validation.min']]);
  });
});

describe('send mail', () => {
  it('checks the SMTP host and port', () => {
    expect(smtpHostRule('smtp.example.com')).toEqual([]);
    expect(smtpHostRule('localhost')).toEqual([]);
    expect(keys(smtpHostRule('not a host'))).toEqual([['smtpHost', 'domainOrIpError']]);
    expect(keys(smtpHostRule(''))).toEqual([['smtpHost', REQUIRED]]);
    expect(smtpPortRule(587)).toEqual([]);
    expect(keys(smtpPortRule(0))).toEqual([['smtpPort', 'entity.validation.min']]);
    expect(keys(smtpPortRule(65536))).toEqual([['smtpPort', 'entity.validation.max']]);
  });

  it('needs username, subject and a non-empty template', () => {
    const ok = { smtpHost: 'smtp.test.org', smtpPort: 25, username: 'u', subject: 's', template: 't' };
    expect(sendMailRules(ok)).toEqual([]);
    expect(keys(sendMailRules({ ...ok, username: ' ', subject: null, template: '' }))).toEqual([
      ['username', REQUIRED],
      ['subject', REQUIRED],
      ['template', REQUIRED],
    ]);
  });

  it('needs an e-mail and a DO, DW or UDW type for each receiver', () => {
    expect(mailReceiversRule([{ id: null, email: 'a@b.test', type: 'UDW' }])).toEqual([]);
    expect(
      keys(
        mailReceiversRule([
          { id: null, email: 'nope', type: 'DO' },
          { id: null, email: '', type: 'XX' as never },
        ]),
      ),
    ).toEqual([
      ['mailReceivers[0].email', 'emailError'],
      ['mailReceivers[1].email', REQUIRED],
      ['mailReceivers[1].type', 'entity.validation.pattern'],
    ]);
  });
});

describe('send request', () => {
  it('accepts an http(s) URL or a leading wildcard', () => {
    expect(requestUrlRule('https://hooks.test/x')).toEqual([]);
    expect(requestUrlRule('${node.4.sendrequestresult.body}')).toEqual([]);
    expect(keys(requestUrlRule('hooks.test'))).toEqual([['url', 'urlRegexError']]);
    expect(keys(requestUrlRule(''))).toEqual([['url', REQUIRED]]);
  });

  it('needs a method, and a body type unless GET', () => {
    expect(keys(sendRequestRules({ url: 'http://a.test' }))).toEqual([['httpRequestMethod', REQUIRED]]);
    expect(sendRequestRules({ httpRequestMethod: 'GET', url: 'http://a.test' })).toEqual([]);
    expect(keys(sendRequestRules({ httpRequestMethod: 'POST', url: 'http://a.test' }))).toEqual([
      ['requestBody.bodyType', REQUIRED],
    ]);
    expect(
      sendRequestRules({
        httpRequestMethod: 'POST',
        url: 'http://a.test',
        requestBody: { bodyType: 'PLAIN_TEXT' },
      }),
    ).toEqual([]);
  });

  it('needs every header key and JSON field key', () => {
    expect(keys(keysRule('headers', { '': { value: 'x' }, Accept: { value: 'y' } }))).toEqual([
      ['headers.key', REQUIRED],
    ]);
    expect(
      keys(
        sendRequestRules({
          httpRequestMethod: 'PUT',
          url: 'http://a.test',
          requestBody: { bodyType: 'JSON', jsonBody: { ' ': { value: '1' } } },
        }),
      ),
    ).toEqual([['requestBody.jsonBody.key', REQUIRED]]);
  });
});

describe('send to cloud drive / SFTP', () => {
  it('restricts the preferred file name to one line of allowed characters', () => {
    expect(preferredFilenameRule('report ${util.date} (v1).txt')).toEqual([]);
    expect(keys(preferredFilenameRule('a/b.txt'))).toEqual([
      ['preferredFilename', 'entity.validation.pattern'],
    ]);
    expect(keys(preferredFilenameRule('a\nb'))).toEqual([['preferredFilename', 'entity.validation.pattern']]);
    expect(keys(preferredFilenameRule(''))).toEqual([['preferredFilename', REQUIRED]]);
  });

  it('needs file content, and an SFTP connection of the node for SFTP', () => {
    expect(keys(sendFileRules('SEND_TO_GOOGLE_DRIVE', { preferredFilename: 'f' }))).toEqual([
      ['fileContent', REQUIRED],
    ]);
    const s = { preferredFilename: 'f', fileContent: 'c' };
    expect(keys(sendFileRules('SEND_TO_SFTP', s))).toEqual([['sftpConnection', REQUIRED]]);
    expect(
      keys(sendFileRules('SEND_TO_SFTP', { ...s, sftpConnection: { id: 4 } }, { sftpConnectionIds: [5] })),
    ).toEqual([['sftpConnection', 'error.idnotfound']]);
    expect(
      sendFileRules('SEND_TO_SFTP', { ...s, sftpConnection: { id: 5 } }, { sftpConnectionIds: [5] }),
    ).toEqual([]);
  });
});

describe('inter-process sender', () => {
  it('needs payload and document name; receivers must be known IPR nodes', () => {
    expect(keys(ipsRules({}))).toEqual([
      ['payload', REQUIRED],
      ['preferredDocName', REQUIRED],
    ]);
    expect(
      keys(
        ipsRules(
          { payload: 'p', preferredDocName: 'd', receivers: [{ id: 1 }, { id: 2 }] },
          { iprNodeIds: [1] },
        ),
      ),
    ).toEqual([['receivers[1]', 'error.idnotfound']]);
  });
});

describe('HTTP upload endpoint', () => {
  it('is required, 3..64 of [A-Za-z0-9_-] and unique in the process', () => {
    expect(endpointRule('my-endpoint_1')).toEqual([]);
    expect(keys(endpointRule(''))).toEqual([['endpoint', REQUIRED]]);
    expect(keys(endpointRule('ab'))).toEqual([['endpoint', 'textLengthError']]);
    expect(keys(endpointRule('a'.repeat(65)))).toEqual([['endpoint', 'textLengthError']]);
    expect(keys(endpointRule('with space'))).toEqual([['endpoint', 'identifierError']]);
    expect(keys(endpointRule('Inbox', { otherEndpoints: ['inbox'] }))).toEqual([
      ['endpoint', 'soaApp.httpUploadNode.uniqWarning'],
    ]);
  });

  it('is not checked on the obligatory node', () => {
    expect(settingsRules('HUP', { endpoint: '' }, { obligatory: true })).toEqual([]);
    expect(keys(settingsRules('HUP', { endpoint: '' }))).toEqual([['endpoint', REQUIRED]]);
  });
});

describe('span tagging types', () => {
  it('needs at least one of token, timespan, text', () => {
    expect(supportedTaggingTypesRule(['token', 'text'])).toEqual([]);
    expect(keys(supportedTaggingTypesRule([]))).toEqual([['supportedTaggingTypes', REQUIRED]]);
    expect(keys(supportedTaggingTypesRule(['word']))).toEqual([
      ['supportedTaggingTypes', 'entity.validation.pattern'],
    ]);
  });
});

describe('SFTP upload transfer rules', () => {
  const rule = { id: null, name: 'copy', sourceId: 1, targetId: 2, deleteAfterTransfer: true };
  it('needs source and target among the node connections and a known id', () => {
    const ctx = { sftpConnectionIds: [1, 2], storedRuleIds: [7] };
    expect(transferRulesRule([rule, { ...rule, id: 7, targetId: null }], ctx)).toEqual([]);
    expect(
      keys(transferRulesRule([{ ...rule, id: 8, sourceId: 3, targetId: 4, name: 'n'.repeat(101) }], ctx)),
    ).toEqual([
      ['sftpTransferRules[0].id', 'error.idnotfound'],
      ['sftpTransferRules[0].sourceId', 'error.idnotfound'],
      ['sftpTransferRules[0].targetId', 'error.idnotfound'],
      ['sftpTransferRules[0].name', 'entity.validation.maxlength'],
    ]);
  });
});
