import type { StepDTO } from '@domain/document-state-types';
import type { ActivityType } from '@domain';
import type { StepAction, StepStatus } from '@domain/steps';
import {
  followsApiAfter,
  initialStepId,
  isStepEditable,
  needsCancelConfirm,
  parseId,
  processingModeOf,
  resolveSelectedStep,
  shownStepTab,
  stepButtons,
  stepTabs,
} from './model';

const user = (id: number) => ({ id, login: `u${id}`, firstName: null, lastName: null, email: '' });

function step(
  id: number,
  activityType: ActivityType,
  status: StepStatus,
  opts: {
    order?: number;
    blockedBy?: number;
    master?: boolean;
    actions?: StepAction[];
    requiresAcceptance?: boolean;
  } = {},
): StepDTO {
  return {
    id,
    documentId: 1,
    status,
    master: opts.master ?? false,
    rejected: false,
    blockedBy: opts.blockedBy === undefined ? null : user(opts.blockedBy),
    userId: opts.blockedBy ?? null,
    order: opts.order ?? id,
    nodeId: id * 10,
    nodeName: `node ${id}`,
    nodeDTO: {
      id: id * 10,
      name: `node ${id}`,
      activityType,
      requiresAcceptance: opts.requiresAcceptance ?? false,
      priority: 2,
      automatic: false,
    },
    errorMessage: null,
    lastModifiedDate: null,
    actions: opts.actions ?? [],
    editable: false,
  };
}

describe('processing mode', () => {
  it('edits for a file parser, labels for span and lexicon, classifies for anything else', () => {
    expect(processingModeOf('FILE_PARSER')).toBe('EDITING');
    expect(processingModeOf('SPAN')).toBe('LABELING');
    expect(processingModeOf('LEXICON')).toBe('LABELING');
    expect(processingModeOf('CLF')).toBe('CLASSIFYING');
    expect(processingModeOf('LLM_PROMPT')).toBe('CLASSIFYING');
  });
});

describe('editable rule', () => {
  const ctx = { userId: 7, nodeMode: 'WRITE' as const, documentBlockedBy: null };

  it('is editable for the user working on a waiting step', () => {
    expect(isStepEditable(step(1, 'CLF', 'WAITING', { blockedBy: 7 }), ctx)).toBe(true);
  });

  it('is not editable for a writer who has not started, or while somebody else blocks the document', () => {
    expect(isStepEditable(step(1, 'CLF', 'WAITING'), ctx)).toBe(false);
    expect(isStepEditable(step(1, 'CLF', 'WAITING', { blockedBy: 8 }), ctx)).toBe(false);
    expect(
      isStepEditable(step(1, 'CLF', 'WAITING', { blockedBy: 7 }), { ...ctx, documentBlockedBy: 9 }),
    ).toBe(false);
    expect(
      isStepEditable(step(1, 'CLF', 'WAITING', { blockedBy: 7 }), { ...ctx, documentBlockedBy: 7 }),
    ).toBe(true);
  });

  it('is editable for a node admin on any waiting step, never on a step that is not waiting', () => {
    const admin = { ...ctx, nodeMode: 'ADMIN' as const, documentBlockedBy: 9 };
    expect(isStepEditable(step(1, 'CLF', 'WAITING'), admin)).toBe(true);
    expect(isStepEditable(step(1, 'CLF', 'DONE', { blockedBy: 7 }), admin)).toBe(false);
    expect(isStepEditable(step(0, 'CLF', 'WAITING', { blockedBy: 7 }), admin)).toBe(false);
    expect(isStepEditable(null, admin)).toBe(false);
  });
});

describe('tabs and selection', () => {
  const steps = [
    step(1, 'HUP', 'ACCEPTED', { order: 0 }),
    step(2, 'FILE_PARSER', 'DONE', { order: 1 }),
    step(3, 'CLF', 'WAITING', { order: 2 }),
    step(4, 'CLF', 'WAITING', { order: 3 }),
    step(5, 'SPAN', 'ACCEPTED', { order: 4 }),
  ];

  it('gives one tab per activity type in walk order, without the upload step', () => {
    expect(stepTabs(steps).map((t) => [t.activityType, t.steps.map((s) => s.id)])).toEqual([
      ['FILE_PARSER', [2]],
      ['CLF', [3, 4]],
      ['SPAN', [5]],
    ]);
  });

  it("shows the selected step's tab, even when the user opened another one before the selection moved", () => {
    const tabs = stepTabs(steps);
    const shown = (open: ActivityType | null, selectedId: number | null) =>
      shownStepTab(tabs, open, selectedId)?.activityType;
    // The user opened the CLF tab, completed its step, and the selection moved on to the SPAN step.
    expect(shown('CLF', 5)).toBe('SPAN');
    expect(shown('CLF', 4)).toBe('CLF');
    expect(shown(null, 2)).toBe('FILE_PARSER');
    // Nothing selected in a tab (the upload step, or none): the tab opened, else the first.
    expect(shown('SPAN', 1)).toBe('SPAN');
    expect(shown(null, null)).toBe('FILE_PARSER');
    expect(shownStepTab([], 'CLF', 3)).toBeUndefined();
  });

  it("selects the API's step, else the last non-upload step", () => {
    expect(initialStepId({ steps, selectedStepId: 3 })).toBe(3);
    expect(initialStepId({ steps, selectedStepId: null })).toBe(5);
    expect(initialStepId({ steps: [steps[0]], selectedStepId: null })).toBe(1);
    expect(initialStepId({ steps: [], selectedStepId: null })).toBeNull();
  });

  it("keeps the user's choice while the step exists", () => {
    expect(resolveSelectedStep({ steps, selectedStepId: 3 }, 5)?.id).toBe(5);
    expect(resolveSelectedStep({ steps, selectedStepId: 3 }, 99)?.id).toBe(3);
    expect(resolveSelectedStep({ steps, selectedStepId: 3 }, null)?.id).toBe(3);
  });
});

describe('action buttons', () => {
  it('offers Start working on a free waiting step', () => {
    const b = stepButtons(step(1, 'CLF', 'WAITING', { actions: ['startWorking'] }), 7);
    expect(b).toEqual({ primary: ['startWorking'], acceptMenu: [], secondary: [] });
  });

  it('offers a writer only Complete on a started step', () => {
    const b = stepButtons(
      step(1, 'CLF', 'WAITING', { blockedBy: 7, actions: ['startWorking', 'complete', 'unassign'] }),
      7,
    );
    expect(b).toEqual({ primary: ['complete'], acceptMenu: [], secondary: ['unassign'] });
  });

  it('offers Accept with Complete in its split menu where the node requires acceptance', () => {
    const b = stepButtons(
      step(1, 'CLF', 'WAITING', {
        blockedBy: 8,
        actions: ['startWorking', 'complete', 'accept', 'unassign', 'markMaster'],
        requiresAcceptance: true,
      }),
      7,
    );
    expect(b).toEqual({
      primary: ['accept', 'startWorking'],
      acceptMenu: ['complete'],
      secondary: ['unassign', 'markMaster'],
    });
  });

  it('makes Complete the main action where no acceptance is required, Accept in its split menu', () => {
    const b = stepButtons(
      step(1, 'CLF', 'WAITING', { blockedBy: 7, actions: ['complete', 'accept', 'unassign'] }),
      7,
    );
    expect(b).toEqual({ primary: ['complete'], acceptMenu: ['accept'], secondary: ['unassign'] });
  });

  it('offers Accept and Activate on a done step, Cancel acceptance on an accepted one', () => {
    expect(stepButtons(step(1, 'CLF', 'DONE', { actions: ['accept', 'activate'] }), 7).primary).toEqual([
      'accept',
      'activate',
    ]);
    expect(stepButtons(step(1, 'CLF', 'DONE', { actions: ['activate'] }), 7).primary).toEqual(['activate']);
    expect(stepButtons(step(1, 'CLF', 'ACCEPTED', { actions: ['cancelAcceptance'] }), 7).primary).toEqual([
      'cancelAcceptance',
    ]);
  });

  it('offers rerun and reopening of a failed step, nothing while processing, nothing without actions', () => {
    expect(
      stepButtons(step(1, 'FILE_PARSER', 'ERROR', { actions: ['rerun', 'cancelAcceptance'] }), 7).primary,
    ).toEqual(['rerun', 'cancelAcceptance']);
    expect(stepButtons(step(1, 'CLF', 'PROCESSING', { actions: ['markMaster'] }), 7)).toEqual({
      primary: [],
      acceptMenu: [],
      secondary: [],
    });
    expect(stepButtons(step(1, 'CLF', 'WAITING', { blockedBy: 7 }), 7)).toEqual({
      primary: [],
      acceptMenu: [],
      secondary: [],
    });
  });

  it('confirms only the cancelled acceptance of an accepted master step', () => {
    expect(needsCancelConfirm(step(1, 'CLF', 'ACCEPTED', { master: true }), 'cancelAcceptance')).toBe(true);
    expect(needsCancelConfirm(step(1, 'CLF', 'ACCEPTED'), 'cancelAcceptance')).toBe(false);
    expect(needsCancelConfirm(step(1, 'CLF', 'ERROR', { master: true }), 'cancelAcceptance')).toBe(false);
    expect(needsCancelConfirm(step(1, 'CLF', 'ACCEPTED', { master: true }), 'activate')).toBe(false);
  });
});

describe('selection after an action', () => {
  it('moves on after completing or accepting a waiting step, stays after anything else', () => {
    expect(followsApiAfter('complete', 'WAITING')).toBe(true);
    expect(followsApiAfter('accept', 'WAITING')).toBe(true);
    expect(followsApiAfter('accept', 'DONE')).toBe(false);
    expect(followsApiAfter('startWorking', 'WAITING')).toBe(false);
    expect(followsApiAfter('cancelAcceptance', 'ACCEPTED')).toBe(false);
  });
});

describe('route ids', () => {
  it('accepts positive integers only', () => {
    expect(parseId('12')).toBe(12);
    expect(parseId(undefined)).toBeNull();
    expect(parseId('0')).toBeNull();
    expect(parseId('1e3')).toBeNull();
    expect(parseId('-1')).toBeNull();
    expect(parseId('99999999999999999999')).toBeNull();
  });
});
