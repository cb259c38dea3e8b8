/**
 * The workspace's rules over the document state (spec 2 sections 2 and 4), pure so they are unit-tested:
 * the processing mode a step gives, the editable rule, the sidebar's tabs, the step selected on load and the
 * action buttons of a step. Which actions the user may take is the API's word (`StepDTO.actions`, from
 * domain/steps.ts availableActions); this module only arranges them the way the spec lays out the buttons.
 *
 * Decisions where the spec is silent:
 * - Upload steps (HUP and the polled uploads) get no tab: nothing is done on them in the workspace.
 * - When the API selects no step (every step ACCEPTED), the last non-upload step is shown, read-only.
 * - After an action the selection stays on the step acted on, except when the user is done with a waiting
 *   step (complete, or accept of a started step): then it moves on to the API's (the next waiting step).
 */
import type { AccessMode, ActivityType } from '@domain';
import type { DocumentStateDTO, StepDTO } from '@domain/document-state-types';
import { isUploadType } from '@domain/nodes';
import type { StepAction } from '@domain/steps';

export type ProcessingMode = 'EDITING' | 'LABELING' | 'CLASSIFYING';

/** FILE_PARSER edits the text, span and lexicon steps label it, anything else classifies (read-only). */
export function processingModeOf(activityType: ActivityType): ProcessingMode {
  if (activityType === 'FILE_PARSER') return 'EDITING';
  if (activityType === 'SPAN' || activityType === 'LEXICON') return 'LABELING';
  return 'CLASSIFYING';
}

export interface EditContext {
  userId: number | null;
  /** The user's mode on the step's node (the higher of node and process mode). */
  nodeMode: AccessMode | null;
  /** The user blocking the whole document, if any. */
  documentBlockedBy: number | null;
}

/**
 * Spec 2 section 4: WAITING, a real id (> 0), and either the user works on it with no document-level block
 * (of somebody else), or the user is a node admin.
 */
export function isStepEditable(step: StepDTO | null | undefined, ctx: EditContext): boolean {
  if (!step || step.status !== 'WAITING' || !(step.id > 0) || ctx.userId === null) return false;
  if (ctx.nodeMode === 'ADMIN') return true;
  const blockedByOther = ctx.documentBlockedBy !== null && ctx.documentBlockedBy !== ctx.userId;
  return step.blockedBy?.id === ctx.userId && !blockedByOther;
}

export interface StepTab {
  activityType: ActivityType;
  steps: StepDTO[];
}

/** One tab per activity type, in walk order of its first step; upload steps have none. */
export function stepTabs(steps: readonly StepDTO[]): StepTab[] {
  const tabs: StepTab[] = [];
  for (const s of [...steps].sort((a, b) => a.order - b.order)) {
    if (isUploadType(s.nodeDTO.activityType)) continue;
    const tab = tabs.find((t) => t.activityType === s.nodeDTO.activityType);
    if (tab) tab.steps.push(s);
    else tabs.push({ activityType: s.nodeDTO.activityType, steps: [s] });
  }
  return tabs;
}

/**
 * The tab the step sidebar shows: the selected step's, so that a selection which moves on its own (to the
 * next waiting step after Complete, maybe of another type) stays in view with its buttons; else the tab the
 * user opened; else the first.
 */
export function shownStepTab(
  tabs: readonly StepTab[],
  openTab: ActivityType | null,
  selectedId: number | null,
): StepTab | undefined {
  return (
    tabs.find((tab) => tab.steps.some((s) => s.id === selectedId)) ??
    tabs.find((tab) => tab.activityType === openTab) ??
    tabs[0]
  );
}

/** The step shown on load: the API's choice (first WAITING, else last DONE), else the last non-upload step. */
export function initialStepId(state: Pick<DocumentStateDTO, 'steps' | 'selectedStepId'>): number | null {
  if (state.selectedStepId !== null && state.steps.some((s) => s.id === state.selectedStepId))
    return state.selectedStepId;
  const sorted = [...state.steps].sort((a, b) => a.order - b.order);
  const work = sorted.filter((s) => !isUploadType(s.nodeDTO.activityType));
  return (work.at(-1) ?? sorted.at(-1))?.id ?? null;
}

/** The selected step: the user's choice while it exists, else the one selected on load. */
export function resolveSelectedStep(
  state: Pick<DocumentStateDTO, 'steps' | 'selectedStepId'>,
  chosenId: number | null,
): StepDTO | null {
  const chosen = chosenId === null ? undefined : state.steps.find((s) => s.id === chosenId);
  if (chosen) return chosen;
  const id = initialStepId(state);
  return state.steps.find((s) => s.id === id) ?? null;
}

/**
 * After an action the selection follows the API's choice (the next waiting step) when the user is done
 * with a waiting step (complete, or accept of a started step); after anything else it stays on the step
 * acted on (an admin accepting a done step keeps looking at it).
 */
export const followsApiAfter = (action: StepAction, statusBefore: StepDTO['status']): boolean =>
  action === 'complete' || (action === 'accept' && statusBefore === 'WAITING');

/** The buttons of a step, by status (spec 2 section 4) and limited to what the API allows the user. */
export interface StepButtons {
  /** The main action(s), in order; the first with `acceptMenu` beside it is the split button. */
  primary: StepAction[];
  /** The other of Accept / Complete, in the first main action's split menu. */
  acceptMenu: StepAction[];
  /** Assignment and master actions, shown beside the main ones. */
  secondary: StepAction[];
}

export function stepButtons(step: StepDTO, userId: number | null): StepButtons {
  const can = (a: StepAction) => step.actions.includes(a);
  const primary: StepAction[] = [];
  const acceptMenu: StepAction[] = [];
  switch (step.status) {
    case 'ACCEPTED':
      if (can('cancelAcceptance')) primary.push('cancelAcceptance');
      break;
    case 'ERROR':
      if (can('rerun')) primary.push('rerun');
      if (can('cancelAcceptance')) primary.push('cancelAcceptance');
      break;
    case 'DONE':
      if (can('accept')) primary.push('accept');
      if (can('activate')) primary.push('activate');
      break;
    case 'WAITING':
      if (step.blockedBy) {
        // The action the node's rules make next is the main one: Accept where acceptance is required (with
        // Complete beside it in the split menu), else Complete (with Accept in the split menu).
        if (step.nodeDTO.requiresAcceptance && can('accept')) {
          primary.push('accept');
          if (can('complete')) acceptMenu.push('complete');
        } else if (can('complete')) {
          primary.push('complete');
          if (can('accept')) acceptMenu.push('accept');
        } else if (can('accept')) primary.push('accept');
        // A node admin may take over a step somebody else holds.
        if (step.blockedBy.id !== userId && can('startWorking')) primary.push('startWorking');
      } else if (can('startWorking')) primary.push('startWorking');
      if (can('rerun')) primary.push('rerun');
      break;
    case 'PROCESSING':
      break;
  }
  const secondary = (['unassign', 'markMaster'] as const).filter(
    (a) => step.status !== 'PROCESSING' && can(a),
  );
  return { primary, acceptMenu, secondary };
}

/** Cancelling the acceptance of an ACCEPTED master step is confirmed first (spec 2 section 4). */
export const needsCancelConfirm = (step: StepDTO, action: StepAction): boolean =>
  action === 'cancelAcceptance' && step.status === 'ACCEPTED' && step.master;

/** A user's display name: first and last name, else the login. */
export function userName(u: { login: string; firstName: string | null; lastName: string | null }): string {
  const full = [u.firstName, u.lastName].filter(Boolean).join(' ').trim();
  return full || u.login;
}

/** The route parameter as a positive integer id, or null. */
export function parseId(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
