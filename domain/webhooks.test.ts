import {
  mayRetry,
  retryDelayMs,
  transitionEvents,
  webhookEventsRule,
  webhookSecretRule,
  webhookUrlRule,
  type TransitionFacts,
} from './webhooks';

const key = (v: { key: string } | null) => v?.key ?? null;

const facts = (over: Partial<TransitionFacts>): TransitionFacts => ({
  processId: 1,
  documentId: 2,
  created: false,
  documentStatusBefore: 'WAITING',
  documentStatus: 'WAITING',
  stepsBefore: [],
  createdSteps: [],
  changes: [],
  nodes: [
    { id: 10, name: 'Upload', activityType: 'HUP' },
    { id: 11, name: 'Classify', activityType: 'CLF' },
    { id: 12, name: 'Send', activityType: 'IPS' },
  ],
  who: null,
  at: new Date('2026-01-02T03:04:05.000Z'),
  ...over,
});

describe('webhook subscription rules', () => {
  it('requires an http(s) URL without credentials', () => {
    expect(key(webhookUrlRule(''))).toBe('entity.validation.required');
    expect(key(webhookUrlRule('ftp://x.test/'))).toBe('webhooks.validation.url');
    expect(key(webhookUrlRule('not a url'))).toBe('webhooks.validation.url');
    expect(key(webhookUrlRule('https://u:p@x.test/'))).toBe('webhooks.validation.urlCredentials');
    expect(webhookUrlRule('https://x.test/hook?a=1')).toBeNull();
  });

  it('requires known events', () => {
    expect(key(webhookEventsRule([]))).toBe('webhooks.validation.events');
    expect(webhookEventsRule(['document.exploded', 'document.done'])).toMatchObject({
      key: 'webhooks.validation.unknownEvent',
      params: { events: 'document.exploded' },
    });
    expect(webhookEventsRule(['document.done', 'send.failed'])).toBeNull();
  });

  it('accepts absent secrets and whsec_ + base64 of 24..64 bytes', () => {
    expect(webhookSecretRule(undefined)).toBeNull();
    expect(webhookSecretRule('whsec_' + Buffer.alloc(32).toString('base64'))).toBeNull();
    expect(key(webhookSecretRule('whsec_' + Buffer.alloc(8).toString('base64')))).toBe(
      'webhooks.validation.secret',
    );
    expect(key(webhookSecretRule('secret'))).toBe('webhooks.validation.secret');
  });
});

describe('transitionEvents', () => {
  it('reports a document start: created, then each created step', () => {
    const events = transitionEvents(
      facts({
        created: true,
        createdSteps: [{ id: 5, nodeId: 10, order: 0, status: 'ACCEPTED', master: true }],
      }),
    );
    expect(events.map((e) => e.type)).toEqual(['document.created', 'step.status_changed']);
    expect(events[1].data).toEqual({
      processId: 1,
      documentId: 2,
      stepId: 5,
      nodeId: 10,
      nodeName: 'Upload',
      status: 'ACCEPTED',
      previousStatus: null,
      who: null,
    });
    expect(events[0].timestamp).toBe('2026-01-02T03:04:05.000Z');
  });

  it('reports status changes with who, then DONE of the document; unchanged statuses report nothing', () => {
    const events = transitionEvents(
      facts({
        stepsBefore: [
          { id: 5, nodeId: 11, status: 'WAITING' },
          { id: 6, nodeId: 11, status: 'WAITING' },
        ],
        changes: [
          { id: 5, status: 'DONE', errorMessage: null },
          { id: 6, status: 'WAITING', errorMessage: null },
        ],
        documentStatus: 'DONE',
        who: 7,
      }),
    );
    expect(events.map((e) => [e.type, e.data.stepId])).toEqual([
      ['step.status_changed', 5],
      ['document.done', undefined],
    ]);
    expect(events[0].data.who).toEqual({ userId: 7 });
    expect(transitionEvents(facts({ documentStatusBefore: 'DONE', documentStatus: 'DONE' }))).toEqual([]);
  });

  it('adds step.error, and send.delivered / send.failed for inter-process sends leaving PROCESSING', () => {
    const failed = transitionEvents(
      facts({
        stepsBefore: [{ id: 5, nodeId: 12, status: 'PROCESSING' }],
        changes: [{ id: 5, status: 'ERROR', errorMessage: 'no receiver' }],
      }),
    );
    expect(failed.map((e) => e.type)).toEqual(['step.status_changed', 'step.error', 'send.failed']);
    expect(failed[2].data.errorMessage).toBe('no receiver');
    const sent = transitionEvents(
      facts({
        stepsBefore: [{ id: 5, nodeId: 12, status: 'PROCESSING' }],
        changes: [{ id: 5, status: 'ACCEPTED', errorMessage: null }],
      }),
    );
    expect(sent.map((e) => e.type)).toEqual(['step.status_changed', 'send.delivered']);
    const clfError = transitionEvents(
      facts({
        stepsBefore: [{ id: 5, nodeId: 11, status: 'PROCESSING' }],
        changes: [{ id: 5, status: 'ERROR', errorMessage: 'x' }],
      }),
    );
    expect(clfError.map((e) => e.type)).toEqual(['step.status_changed', 'step.error']);
  });
});

describe('retries', () => {
  it('wait 5 s doubling up to an hour', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([5000, 10000, 20000, 40000]);
    expect(retryDelayMs(30)).toBe(3600 * 1000);
  });

  it('stop when the next attempt would start after the window', () => {
    const first = new Date(0);
    const window = 24 * 3600 * 1000;
    expect(mayRetry(first, new Date(1000), 1, window)).toBe(true);
    expect(mayRetry(first, new Date(window - 1000), 5, window)).toBe(false);
  });
});
