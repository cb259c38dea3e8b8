/**
 * The workspace header (spec 2 section 2): file name and status, the dashboard dropdown (documents /
 * issues), the assignees menu (./AssigneesMenu.tsx), block/unblock (enabled with ADMIN on the process only),
 * 'Highlight tags without relation', 'Show hidden tokens', and the idle timer with the document's work time
 * (rules in ../workTime.ts).
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AccessMode } from '@domain';
import type { DocumentStateDTO } from '@domain/document-state-types';
import { Dropdown } from '../../../components/Dropdown';
import { IconClock, IconDashboard, IconFile, IconLock, IconUnlock } from '../../../components/icons';
import { toast } from '../../../components/toast';
import { useDocumentBlock } from '../api';
import { useWorkClock } from '../hooks/useWorkClock';
import { useWorkTimeReport } from '../hooks/useWorkTimeReport';
import { userName } from '../model';
import { AssigneesMenu } from './AssigneesMenu';
import { formatDuration } from '../workTime';
import { useStepErrorText } from '../../../components/stepErrors';

export interface WorkspaceHeaderProps {
  state: DocumentStateDTO;
  /** the selected step: the work-time reports count work on it */
  stepId: number | null;
  userId: number | null;
  processMode: AccessMode | null;
  showHidden: boolean;
  onShowHidden: (on: boolean) => void;
  /** 'Highlight tags without relation' (LABELING: outlines the tags that take part in no relation) */
  highlightUnrelated: boolean;
  onHighlightUnrelated: (on: boolean) => void;
}

export function WorkspaceHeader({
  state,
  stepId,
  userId,
  processMode,
  showHidden,
  onShowHidden,
  highlightUnrelated,
  onHighlightUnrelated,
}: WorkspaceHeaderProps) {
  const { t } = useTranslation();
  const errorText = useStepErrorText();
  const doc = state.document;
  const block = useDocumentBlock(doc.id);
  const clock = useWorkClock(doc.id);
  useWorkTimeReport(clock.clock, stepId);
  const isAdmin = processMode === 'ADMIN';
  const blocked = state.blockedBy !== null;
  const dashboard = `/entity/process/${doc.processId}/dashboard`;

  const toggleBlock = () => {
    if (userId === null) return;
    block.mutate(
      { block: !blocked, userId },
      {
        onSuccess: () =>
          toast.success(t(blocked ? 'workspace.header.unblocked' : 'workspace.header.blocked')),
      },
    );
  };

  const failed = state.steps.filter((s) => s.status === 'ERROR');
  return (
    <header className="ws-header" data-testid="workspace-header">
      <div className="ws-header-title">
        <IconFile size={18} className="text-body-secondary flex-shrink-0" />
        <h1 className="h6 mb-0 text-truncate" title={doc.filename} data-testid="workspace-filename">
          {doc.filename}
        </h1>
        <span className="text-body-secondary small">#{doc.id}</span>
        <span
          className={`badge ws-status ws-status-${doc.status.toLowerCase()}`}
          data-testid="document-status"
          data-status={doc.status}
        >
          {t(`workspace.documentStatus.${doc.status}`, { defaultValue: doc.status })}
        </span>
        {failed.length > 0 && (
          // A step in ERROR holds the document: said beside its status, the message on the tooltip.
          <span
            className="badge text-bg-danger"
            data-testid="document-error"
            title={failed
              .map((s) => `${s.nodeName}: ${s.errorMessage ? errorText(s.errorMessage) : ''}`)
              .join('\n')}
          >
            {t('workspace.status.ERROR')}
          </span>
        )}
        {state.blockedBy && (
          <span className="badge text-bg-warning ws-blocked" data-testid="document-blocked-by">
            <IconLock size={12} className="me-1" />
            {t('workspace.header.blockedBy', { name: userName(state.blockedBy) })}
          </span>
        )}
      </div>
      <div className="ws-header-tools">
        <Dropdown
          nav={false}
          align="end"
          testId="dashboard-menu"
          toggleClassName="btn btn-sm btn-outline-secondary dropdown-toggle"
          label={
            <>
              <IconDashboard className="me-1" />
              {t('workspace.header.dashboard')}
            </>
          }
        >
          <li>
            <Link className="dropdown-item" to={`${dashboard}/documents`} data-testid="dashboard-documents">
              {t('workspace.header.dashboardDocuments')}
            </Link>
          </li>
          <li>
            <Link className="dropdown-item" to={`${dashboard}/issues`} data-testid="dashboard-issues">
              {t('workspace.header.dashboardIssues')}
            </Link>
          </li>
          {isAdmin && (
            <li>
              <Link className="dropdown-item" to={`/entity/process/${doc.processId}/secrets`}>
                {t('workspace.header.secrets')}
              </Link>
            </li>
          )}
        </Dropdown>
        <AssigneesMenu state={state} userId={userId} processMode={processMode} />
        <span title={isAdmin ? undefined : t('workspace.header.blockAdminOnly')}>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary"
            disabled={!isAdmin || block.isPending || userId === null}
            onClick={toggleBlock}
            data-testid="document-block"
            data-blocked={blocked}
          >
            {blocked ? <IconUnlock className="me-1" /> : <IconLock className="me-1" />}
            {t(blocked ? 'workspace.header.unblock' : 'workspace.header.block')}
          </button>
        </span>
        <div className="form-check form-switch mb-0 ws-switch">
          <input
            className="form-check-input"
            type="checkbox"
            role="switch"
            id="ws-highlight-unrelated"
            checked={highlightUnrelated}
            onChange={(e) => onHighlightUnrelated(e.target.checked)}
            data-testid="highlight-unrelated"
          />
          <label className="form-check-label small" htmlFor="ws-highlight-unrelated">
            {t('workspace.header.highlightUnrelated')}
          </label>
        </div>
        <div className="form-check form-switch mb-0 ws-switch">
          <input
            className="form-check-input"
            type="checkbox"
            role="switch"
            id="ws-show-hidden"
            checked={showHidden}
            onChange={(e) => onShowHidden(e.target.checked)}
            data-testid="show-hidden-tokens"
          />
          <label className="form-check-label small" htmlFor="ws-show-hidden">
            {t('workspace.header.showHidden')}
          </label>
        </div>
        <span
          className={`ws-clock ${clock.idle ? 'is-idle' : ''}`}
          title={clock.idle ? t('workspace.header.idleHint') : t('workspace.header.workTime')}
          data-testid="work-clock"
          data-idle={clock.idle}
        >
          <IconClock className="me-1" />
          <span className="ws-clock-state">
            {t(clock.idle ? 'workspace.header.idle' : 'workspace.header.active')}
          </span>
          <span className="ws-clock-time">{formatDuration(clock.workedMs)}</span>
        </span>
      </div>
    </header>
  );
}
