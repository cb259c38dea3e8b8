/**
 * The step sidebar (spec 2 sections 2 and 4): one tab per activity type (a multi-step tab lists its steps
 * in a tooltip), then the steps of the open tab in two groups, to do and done. A click selects a step (and
 * with it the workspace's mode); the selected step shows its error, if any, its work (the chat response of
 * an LLM prompt step) and its action buttons.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActivityType } from '@domain';
import type { DocumentStateDTO, StepDTO } from '@domain/document-state-types';
import type { StepAction } from '@domain/steps';
import { IconLock, IconStar } from '../../../components/icons';
import { shownStepTab, stepTabs, userName } from '../model';
import { WorkAccordion } from './WorkAccordion';
import { StepActions } from './StepActions';
import { useStepErrorText } from '../../../components/stepErrors';

export interface StepSidebarProps {
  state: DocumentStateDTO;
  selected: StepDTO | null;
  userId: number | null;
  onSelect: (stepId: number) => void;
  onActionDone: (action: StepAction, step: StepDTO) => void;
}

export function StepSidebar({ state, selected, userId, onSelect, onActionDone }: StepSidebarProps) {
  const { t } = useTranslation();
  const tabs = stepTabs(state.steps);
  const [openTab, setOpenTab] = useState<ActivityType | null>(null);
  const current = shownStepTab(tabs, openTab, selected?.id ?? null);

  /** Opening a tab selects its node's active step (the API's per-node rule), else its first step. */
  const openTabOf = (activityType: ActivityType) => {
    setOpenTab(activityType);
    const tab = tabs.find((x) => x.activityType === activityType);
    if (!tab || tab.steps.some((s) => s.id === selected?.id)) return;
    const node = state.documentStepsInformation.find((n) => n.nodeDTO.activityType === activityType);
    onSelect(node?.activeStepId ?? tab.steps[0].id);
  };

  // The open tab's steps as the API brackets them (to do: WAITING, PROCESSING, ERROR; done: DONE, ACCEPTED).
  const bracket = (brackets: DocumentStateDTO['doneStepsInformation']) =>
    brackets.find((b) => b.activityType === current?.activityType)?.steps ?? [];
  const groups = current
    ? [
        { key: 'todo', steps: bracket(state.waitingStepsBracketsInformation) },
        { key: 'done', steps: bracket(state.doneStepsInformation) },
      ].filter((g) => g.steps.length > 0)
    : [];

  return (
    <aside className="ws-steps" data-testid="step-sidebar" aria-label={t('workspace.steps.title')}>
      <div className="ws-panel-title">{t('workspace.steps.title')}</div>
      {tabs.length === 0 ? (
        <p className="text-body-secondary small p-3 mb-0">{t('workspace.steps.empty')}</p>
      ) : (
        <>
          <div className="ws-tabs" role="tablist" aria-label={t('workspace.steps.tabs')}>
            {tabs.map((tab) => {
              const active = tab.activityType === current?.activityType;
              const multi = tab.steps.length > 1;
              return (
                <button
                  key={tab.activityType}
                  type="button"
                  role="tab"
                  aria-selected={active}
                  className={`ws-tab ${active ? 'active' : ''} ${multi ? 'multi' : ''}`}
                  onClick={() => openTabOf(tab.activityType)}
                  data-testid="step-tab"
                  data-activity-type={tab.activityType}
                >
                  {t(`workspace.activity.${tab.activityType}`)}
                  {multi && <span className="badge rounded-pill ws-tab-count">{tab.steps.length}</span>}
                  {multi && (
                    <span className="ws-tooltip" role="tooltip" data-testid="step-tab-tooltip">
                      <span className="ws-tooltip-title">
                        {t('workspace.steps.multiStep', { count: tab.steps.length })}
                      </span>
                      {tab.steps.map((s) => (
                        <span key={s.id} className="d-block">
                          {s.nodeName} · {t(`workspace.status.${s.status}`)}
                        </span>
                      ))}
                    </span>
                  )}
                </button>
              );
            })}
          </div>
          <div className="ws-step-list" role="tabpanel">
            {groups.map((g) => (
              <section key={g.key} className="ws-step-group" data-testid={`step-group-${g.key}`}>
                <h2 className="ws-step-group-title">{t(`workspace.steps.${g.key}`)}</h2>
                {g.steps.map((s) => (
                  <StepRow
                    key={s.id}
                    step={s}
                    selected={s.id === selected?.id}
                    onSelect={() => onSelect(s.id)}
                    userId={userId}
                    documentStatus={state.document.status}
                    filename={state.document.filename}
                    processId={state.document.processId}
                    onActionDone={onActionDone}
                  />
                ))}
              </section>
            ))}
          </div>
        </>
      )}
    </aside>
  );
}

function StepRow({
  step,
  selected,
  onSelect,
  userId,
  documentStatus,
  filename,
  processId,
  onActionDone,
}: {
  step: StepDTO;
  selected: boolean;
  onSelect: () => void;
  userId: number | null;
  documentStatus: string;
  filename: string;
  processId: number;
  onActionDone: (action: StepAction, step: StepDTO) => void;
}) {
  const { t } = useTranslation();
  const errorText = useStepErrorText();
  return (
    <div
      className={`ws-step ${selected ? 'selected' : ''}`}
      data-testid="step-row"
      data-step-id={step.id}
      data-status={step.status}
      data-selected={selected}
    >
      <button type="button" className="ws-step-select" onClick={onSelect} aria-pressed={selected}>
        <span className="ws-step-line">
          <span className="ws-step-name text-truncate">{step.nodeName}</span>
          {step.master && (
            <span className="ws-step-master" title={t('workspace.steps.master')} data-testid="step-master">
              <IconStar size={13} />
            </span>
          )}
          <span
            className={`badge ws-status ws-status-${step.status.toLowerCase()}`}
            data-testid="step-status"
            title={step.status === 'ERROR' && step.errorMessage ? errorText(step.errorMessage) : undefined}
          >
            {t(`workspace.status.${step.status}`)}
          </span>
        </span>
        <span className="ws-step-meta">
          {step.blockedBy ? (
            <>
              <IconLock size={11} className="me-1" />
              {t('workspace.steps.assignedTo', { name: userName(step.blockedBy) })}
            </>
          ) : (
            t('workspace.steps.unassigned')
          )}
          {step.rejected && (
            <span className="badge text-bg-warning ms-2">{t('workspace.steps.rejected')}</span>
          )}
        </span>
      </button>
      {selected && (
        <div className="ws-step-detail">
          {step.status === 'ERROR' && step.errorMessage && (
            <div className="alert alert-danger small py-2 px-2 mb-2" data-testid="step-error">
              <strong>{t('workspace.steps.errorMessage')}: </strong>
              {errorText(step.errorMessage)}
            </div>
          )}
          <WorkAccordion step={step} processId={processId} onDone={onActionDone} />
          <StepActions
            step={step}
            userId={userId}
            documentStatus={documentStatus}
            filename={filename}
            onDone={onActionDone}
          />
        </div>
      )}
    </div>
  );
}
