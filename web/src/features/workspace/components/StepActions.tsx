/**
 * The action buttons of the selected step (spec 2 section 4), as ../model.ts stepButtons arranges the
 * actions the API allows: the main ones (Accept as a split button with Complete in its menu), then
 * Unassign and Mark as master. Cancelling the acceptance of an ACCEPTED master step is confirmed first. A
 * refusal shows its translated message (error.step.<code>) as a toast; the state is refetched either way.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StepDTO } from '@domain/document-state-types';
import type { StepAction } from '@domain/steps';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { Dropdown } from '../../../components/Dropdown';
import { toast } from '../../../components/toast';
import { useStepAction } from '../api';
import { ReplaceFileDialog } from '../../document-detail/components/ReplaceFileDialog';
import { needsCancelConfirm, stepButtons } from '../model';

export interface StepActionsProps {
  step: StepDTO;
  userId: number | null;
  documentStatus: string;
  /** The document's file name (the Replace file dialog names it). */
  filename: string;
  onDone: (action: StepAction, step: StepDTO) => void;
}

/**
 * A button's words say what it does: reopening a failed step (cancel acceptance of an ERROR step) lets
 * someone edit its result and complete it by hand.
 */
const actionLabel = (step: StepDTO, action: StepAction): string =>
  step.status === 'ERROR' && action === 'cancelAcceptance'
    ? 'workspace.steps.action.editAndComplete'
    : `workspace.steps.action.${action}`;

export function StepActions({ step, userId, documentStatus, filename, onDone }: StepActionsProps) {
  const { t } = useTranslation();
  const run = useStepAction(step.documentId, (action, acted) => {
    toast.success(t(`workspace.steps.actionDone.${action}`));
    onDone(action, acted);
  });
  const [confirming, setConfirming] = useState(false);
  const [replacing, setReplacing] = useState(false);
  // A file parser step that may be rerun may also get a new file (a process administrator's, like the rerun).
  const replaceable = step.nodeDTO.activityType === 'FILE_PARSER' && step.actions.includes('rerun');
  const buttons = stepButtons(step, userId);
  const none = buttons.primary.length === 0 && buttons.secondary.length === 0;

  const perform = (action: StepAction) => {
    run.mutate({ step, action }, { onSettled: () => setConfirming(false) });
  };
  const request = (action: StepAction) => {
    if (needsCancelConfirm(step, action)) setConfirming(true);
    else perform(action);
  };

  if (none) {
    if (step.status === 'PROCESSING') return null;
    return (
      <p className="small text-body-secondary mb-0" data-testid="step-read-only">
        {t('workspace.steps.readOnly')}
      </p>
    );
  }

  const button = (action: StepAction, kind: 'primary' | 'secondary') => (
    <button
      key={action}
      type="button"
      className={`btn btn-sm ${kind === 'primary' ? 'btn-primary' : 'btn-outline-secondary'}`}
      disabled={run.isPending}
      onClick={() => request(action)}
      data-testid={`step-action-${action}`}
    >
      {t(actionLabel(step, action))}
    </button>
  );

  return (
    <div className="ws-step-actions" data-testid="step-actions">
      {buttons.primary.map((action, i) =>
        i === 0 && buttons.acceptMenu.length > 0 ? (
          <div key={action} className="btn-group" role="group">
            {button(action, 'primary')}
            <Dropdown
              nav={false}
              align="end"
              testId="step-accept-menu"
              toggleClassName="btn btn-sm btn-primary dropdown-toggle dropdown-toggle-split"
              label={<span className="visually-hidden">{t('workspace.steps.moreActions')}</span>}
            >
              {buttons.acceptMenu.map((a) => (
                <li key={a}>
                  <button
                    type="button"
                    className="dropdown-item"
                    disabled={run.isPending}
                    onClick={() => request(a)}
                    data-testid={`step-action-${a}`}
                  >
                    {t(`workspace.steps.action.${a}`)}
                  </button>
                </li>
              ))}
            </Dropdown>
          </div>
        ) : (
          button(action, 'primary')
        ),
      )}
      {replaceable && (
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          onClick={() => setReplacing(true)}
          data-testid="step-action-replaceFile"
        >
          {t('workspace.steps.action.replaceFile')}
        </button>
      )}
      {buttons.secondary.map((action) => button(action, 'secondary'))}
      {replacing && (
        <ReplaceFileDialog
          documentId={step.documentId}
          filename={filename}
          onClose={() => setReplacing(false)}
        />
      )}
      {run.isPending && <span className="spinner-border spinner-border-sm text-primary" aria-hidden="true" />}
      {confirming && (
        <ConfirmModal
          title={t('workspace.steps.confirmCancel.title')}
          confirmLabel={t('workspace.steps.confirmCancel.confirm')}
          pending={run.isPending}
          onConfirm={() => perform('cancelAcceptance')}
          onClose={() => setConfirming(false)}
          testId="confirm-cancel-acceptance"
        >
          <p className="mb-1">{t('workspace.steps.confirmCancel.body', { name: step.nodeName })}</p>
          {documentStatus === 'DONE' && (
            <p className="mb-0 text-warning-emphasis">{t('workspace.steps.confirmCancel.documentDone')}</p>
          )}
        </ConfirmModal>
      )}
    </div>
  );
}
