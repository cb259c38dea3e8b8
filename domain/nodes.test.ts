import { ActivityTypes, type ActivityType } from './enums';
import {
  additionalSubmitsRules,
  applyCouplings,
  AUTO_STEP_STATUS_DEFAULTS,
  buildNodeDraft,
  commonDefaults,
  EDGE_WHITELIST,
  externalConfigRules,
  isUploadType,
  nodeCronRule,
  nodeNameRule,
  nodeProperties,
  nodeRules,
  normalizeAdditionalSubmits,
  trainableConfigRules,
  triggerRules,
  type NodeDraft,
} from './nodes';

const keysOf = (list: { field: string; violation: { key: string } }[]) =>
  list.map((v) => [v.field, v.violation.key]);

describe('static facts', () => {
  it('makes the five upload types sources only', () => {
    for (const t of ActivityTypes) {
      expect(EDGE_WHITELIST[t].some(isUploadType)).toBe(false);
      expect(EDGE_WHITELIST[t]).toHaveLength(10);
    }
    expect(ActivityTypes.filter(isUploadType)).toEqual([
      'HUP',
      'EMAIL_UPLOAD',
      'SFTP_UPLOAD',
      'GDU_UPLOAD',
      'IPR',
    ]);
  });

  it('defaults automatic and autoStepStatus per type', () => {
    const manual = ActivityTypes.filter((t) => !commonDefaults(t).automatic);
    expect(manual).toEqual(['CLF', 'SPAN']);
    const waiting = ActivityTypes.filter((t) => AUTO_STEP_STATUS_DEFAULTS[t] === 'WAITING');
    expect(waiting.sort()).toEqual(['CLF', 'FILE_PARSER', 'LEXICON', 'SPAN']);
    expect(commonDefaults('SEND_MAIL')).toMatchObject({
      priority: 2,
      triggerType: 'ALWAYS',
      autoStepStatus: 'ACCEPTED',
    });
  });

  it('serves the whitelists and defaults in one properties object', () => {
    const p = nodeProperties();
    expect(p.multiprocessedWhitelist).toEqual(['CLF', 'SPAN', 'LEXICON']);
    expect(p.conditionalAcceptanceWhitelist).toEqual(['CLF', 'SPAN', 'LEXICON', 'FILE_PARSER']);
    expect(p.customExternalWhitelist).toEqual(['CLF', 'SPAN']);
    expect(p.llmExternalWhitelist).toEqual(['CLF', 'SPAN']);
    expect(p.trainableWhitelist).toEqual(['CLF', 'SPAN']);
    expect(p.uploadTypes).toHaveLength(5);
    expect(p.activityTypes).toHaveLength(15);
    expect(p.defaults).toEqual({
      temperature: 1,
      priority: 2,
      triggerType: 'ALWAYS',
      supportedTaggingTypes: ['token'],
    });
    expect(p.edgeWhitelist.HUP).toContain('FILE_PARSER');
  });
});

describe('couplings', () => {
  const base = { automatic: false, requiresAcceptance: false, externalConfig: null, trainableConfig: null };
  const trainable = { model: 'm', requestPath: null, automaticTraining: false, threshold: 10 };
  const custom = { configType: 'CUSTOM' as const, model: 'm', restApiUrl: 'http://x.test' };

  it('an external config forces automatic on', () => {
    expect(applyCouplings({ ...base, activityType: 'CLF', externalConfig: custom }).automatic).toBe(true);
  });

  it('a trainable, automatic node without external config requires acceptance', () => {
    const n = applyCouplings({ ...base, activityType: 'SPAN', automatic: true, trainableConfig: trainable });
    expect(n.requiresAcceptance).toBe(true);
    expect(
      applyCouplings({ ...base, activityType: 'SPAN', trainableConfig: trainable }).requiresAcceptance,
    ).toBe(false);
    const external = applyCouplings({
      ...base,
      activityType: 'SPAN',
      externalConfig: custom,
      trainableConfig: trainable,
    });
    expect(external).toMatchObject({ automatic: true, requiresAcceptance: false });
  });

  it('clears requiresAcceptance outside the conditional-acceptance whitelist', () => {
    expect(
      applyCouplings({ ...base, activityType: 'FILE_PARSER', requiresAcceptance: true }).requiresAcceptance,
    ).toBe(true);
    expect(
      applyCouplings({ ...base, activityType: 'SEND_MAIL', requiresAcceptance: true }).requiresAcceptance,
    ).toBe(false);
  });
});

describe('buildNodeDraft', () => {
  it('fills the defaults of a new node of each type', () => {
    const span = buildNodeDraft('SPAN', { name: ' Entities ', processId: 1 });
    expect(span).toMatchObject({
      name: 'Entities',
      automatic: false,
      autoStepStatus: 'WAITING',
      priority: 2,
      triggerType: 'ALWAYS',
      supportedTaggingTypes: ['token'],
      obligatory: false,
    });
    expect(span).not.toHaveProperty('prompt');
    expect(buildNodeDraft('LLM_PROMPT', { name: 'L' })).toMatchObject({ temperature: 1, automatic: true });
    expect(buildNodeDraft('HUP', { name: 'U' }).endpoint).toMatch(/^[a-z0-9]{16}$/);
  });

  it('never lets the client set the obligatory flag, and keeps the obligatory endpoint', () => {
    expect(buildNodeDraft('HUP', { name: 'U', obligatory: true }).obligatory).toBe(false);
    const stored = { ...buildNodeDraft('HUP', { name: 'Upload' }), obligatory: true, endpoint: 'keep-me' };
    const next = buildNodeDraft('HUP', { endpoint: 'other', active: false, obligatory: false }, stored);
    expect(next).toMatchObject({ obligatory: true, endpoint: 'keep-me', active: true });
  });

  it('merges the input over the stored node and keeps the type', () => {
    const stored = buildNodeDraft('CLF', { name: 'Classes', processId: 3, priority: 4 });
    const next = buildNodeDraft('CLF', { description: 'd', activityType: 'SPAN' }, stored);
    expect(next).toMatchObject({
      name: 'Classes',
      priority: 4,
      description: 'd',
      activityType: 'CLF',
      processId: 3,
    });
  });

  it('normalizes cron, trigger, threshold and additional submits', () => {
    const mail = buildNodeDraft('SEND_MAIL', { name: 'M', cron: '  ', triggerType: 'CRON', threshold: 3 });
    expect(mail).toMatchObject({ cron: null, triggerType: 'CRON', threshold: null });
    const clf = buildNodeDraft('CLF', {
      name: 'C',
      triggerType: 'THRESHOLD',
      threshold: 4,
      additionalNodeSubmits: [
        { docId: null, submits: 0 },
        { docId: 7, submits: 0 },
        { docId: null, submits: 2 },
      ],
    });
    expect(clf).toMatchObject({ triggerType: 'ALWAYS', threshold: null });
    expect(clf.additionalNodeSubmits).toEqual([
      { docId: 7, submits: 0 },
      { docId: null, submits: 2 },
    ]);
  });

  it('applies the couplings', () => {
    const n = buildNodeDraft('CLF', {
      name: 'C',
      automatic: false,
      externalConfig: { configType: 'LLM', llmModel: { id: 1 }, secret: null },
    });
    expect(n.automatic).toBe(true);
  });
});

describe('node rules', () => {
  it('requires a name of at most 100 characters in the text pattern', () => {
    expect(nodeNameRule('')?.key).toBe('entity.validation.required');
    expect(nodeNameRule('   ')?.key).toBe('entity.validation.required');
    expect(nodeNameRule('a'.repeat(101))?.key).toBe('entity.validation.maxlength');
    expect(nodeNameRule('a'.repeat(100))).toBeNull();
    expect(nodeNameRule('bad!name')?.key).toBe('textRegexError');
  });

  it('wants a name unique in the process ignoring case and spaces', () => {
    expect(nodeNameRule('Parser', [' parser '])?.key).toBe('soaApp.node.nameUniquenessError');
    expect(nodeNameRule('Parser', ['Parser 2'])).toBeNull();
  });

  it('checks an optional cron of six or seven fields', () => {
    expect(nodeCronRule(null)).toBeNull();
    expect(nodeCronRule('  ')).toBeNull();
    expect(nodeCronRule('0 0 12 * * MON-FRI')).toBeNull();
    expect(nodeCronRule('0 0 12 * * ? 2030')).toBeNull();
    expect(nodeCronRule('* * * * *')?.key).toBe('utils.fieldValidation.cronRegexError');
  });

  it('needs a cron for CRON and a threshold >= 1 for THRESHOLD', () => {
    expect(keysOf(triggerRules({ triggerType: 'CRON', cron: null, threshold: null }))).toEqual([
      ['cron', 'entity.validation.required'],
    ]);
    expect(keysOf(triggerRules({ triggerType: 'THRESHOLD', cron: null, threshold: null }))).toEqual([
      ['threshold', 'entity.validation.required'],
    ]);
    expect(keysOf(triggerRules({ triggerType: 'THRESHOLD', cron: null, threshold: 0 }))).toEqual([
      ['threshold', 'entity.validation.min'],
    ]);
    expect(triggerRules({ triggerType: 'THRESHOLD', cron: null, threshold: 1 })).toEqual([]);
    expect(triggerRules({ triggerType: 'ALWAYS', cron: null, threshold: null })).toEqual([]);
  });

  it('allows additional submits 0..5 on multiprocessed types only', () => {
    expect(additionalSubmitsRules('CLF', [{ docId: null, submits: 5 }])).toEqual([]);
    expect(keysOf(additionalSubmitsRules('CLF', [{ docId: null, submits: 6 }]))).toEqual([
      ['additionalNodeSubmits[0].submits', 'entity.validation.max'],
    ]);
    expect(keysOf(additionalSubmitsRules('LEXICON', [{ docId: 1, submits: 1.5 }]))).toEqual([
      ['additionalNodeSubmits[0].submits', 'entity.validation.pattern'],
    ]);
    expect(keysOf(additionalSubmitsRules('FILE_PARSER', [{ docId: null, submits: 1 }]))).toEqual([
      ['additionalNodeSubmits', 'soaApp.node.settingNotAllowed'],
    ]);
    expect(normalizeAdditionalSubmits([{ docId: null, submits: 0 }])).toEqual([]);
  });

  it('allows external configs on their whitelists with a URL or a model', () => {
    const custom = (restApiUrl: string | null) => ({
      configType: 'CUSTOM' as const,
      model: null,
      restApiUrl,
    });
    expect(externalConfigRules('CLF', custom('https://model.test/run'))).toEqual([]);
    expect(keysOf(externalConfigRules('CLF', custom('')))).toEqual([
      ['externalConfig.restApiUrl', 'entity.validation.required'],
    ]);
    expect(keysOf(externalConfigRules('CLF', custom('ftp://x')))).toEqual([
      ['externalConfig.restApiUrl', 'urlRegexError'],
    ]);
    expect(keysOf(externalConfigRules('LEXICON', custom('https://x.test')))).toEqual([
      ['externalConfig', 'soaApp.node.settingNotAllowed'],
    ]);
    const llm = { configType: 'LLM' as const, llmModel: null, secret: null };
    expect(keysOf(externalConfigRules('SPAN', llm))).toEqual([
      ['externalConfig.llmModel', 'entity.validation.required'],
    ]);
    expect(
      keysOf(
        externalConfigRules(
          'SPAN',
          { ...llm, llmModel: { id: 9 }, secret: { id: 4 } },
          { llmModelIds: [9], secretIds: [] },
        ),
      ),
    ).toEqual([['externalConfig.secret', 'error.idnotfound']]);
    expect(keysOf(externalConfigRules('FILE_PARSER', { ...llm, llmModel: { id: 1 } }))).toEqual([
      ['externalConfig', 'soaApp.node.settingNotAllowed'],
    ]);
  });

  it('allows trainable configs on their whitelist with threshold >= 10 and a request path when training', () => {
    const cfg = { model: 'bert', requestPath: null, automaticTraining: false, threshold: 10 };
    expect(trainableConfigRules('SPAN', cfg)).toEqual([]);
    expect(keysOf(trainableConfigRules('SPAN', { ...cfg, threshold: 9 }))).toEqual([
      ['trainableConfig.threshold', 'entity.validation.min'],
    ]);
    expect(keysOf(trainableConfigRules('SPAN', { ...cfg, automaticTraining: true }))).toEqual([
      ['trainableConfig.requestPath', 'entity.validation.required'],
    ]);
    expect(
      keysOf(trainableConfigRules('SPAN', { ...cfg, automaticTraining: true, requestPath: 'nope' })),
    ).toEqual([['trainableConfig.requestPath', 'urlRegexError']]);
    expect(keysOf(trainableConfigRules('LEXICON', cfg))).toEqual([
      ['trainableConfig', 'soaApp.node.settingNotAllowed'],
    ]);
  });

  it('runs the common and the type rules together', () => {
    const draft: NodeDraft = buildNodeDraft('SEND_MAIL', { name: '', priority: 7 });
    expect(keysOf(nodeRules(draft, { partial: true }))).toEqual([
      ['name', 'entity.validation.required'],
      ['priority', 'entity.validation.max'],
    ]);
    expect(keysOf(nodeRules(draft)).map(([f]) => f)).toEqual([
      'name',
      'priority',
      'smtpHost',
      'smtpPort',
      'username',
      'subject',
      'template',
    ]);
  });

  it('accepts a fresh node of every type under the lenient creation check', () => {
    for (const t of ActivityTypes as readonly ActivityType[]) {
      expect({ t, v: nodeRules(buildNodeDraft(t, { name: `Node ${t}` }), { partial: true }) }).toEqual({
        t,
        v: [],
      });
    }
  });
});
