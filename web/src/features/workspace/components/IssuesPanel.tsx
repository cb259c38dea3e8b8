/**
 * The issues panel of the tools sidebar (spec 2 sections 2, 4 to 6, 9; issue 12 section 2): the document's
 * issues with a sorting dropdown, a text filter (from 2 characters, title and text, case-insensitive) and a
 * status filter, grouped by status; an issue's detail view (with a back button) shows its anchor highlighted
 * in the text, its status dropdown (process WRITE), its comments dated HH:mm - DD.MM.YYYY with edit and
 * delete for process admins, and the comment form for writers (Enter sends, Shift+Enter breaks the line, an
 * empty comment cannot be sent). All user text is rendered as text, never as markup.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { modeSatisfies, type AccessMode } from '@domain';
import {
  formatCommentDate,
  groupIssues,
  IssueSorts,
  IssueStatuses,
  parseStatusChange,
  type IssueDTO,
  type IssueReplyDTO,
  type IssueSort,
  type IssueStatus,
  type IssueStatusFilter,
} from '@domain/issues';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { IconArrowLeft, IconPencil, IconTrash } from '../../../components/icons';
import { issueFocus, useOpenIssueId } from '../issueFocus';
import { issueCalls, issueQueries, useIssueChange, useIssuesFollowTags } from '../issuesApi';
import { useAnchorHighlight, type OffsetRange } from '../hooks/useAnchorHighlight';
import '../issues.css';

export interface IssuesPanelProps {
  documentId: number;
  processMode: AccessMode | null;
}

export function IssuesPanel({ documentId, processMode }: IssuesPanelProps) {
  const { t } = useTranslation();
  const issues = useQuery(issueQueries.list(documentId));
  useIssuesFollowTags(documentId);
  const openId = useOpenIssueId();
  const [sort, setSort] = useState<IssueSort>('newest');
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<IssueStatusFilter>('ALL');
  const groups = useMemo(
    () => groupIssues(issues.data ?? [], { query, status, sort }),
    [issues.data, query, status, sort],
  );
  const open = openId !== null ? issues.data?.find((i) => i.id === openId) : undefined;
  // Back on the list: what others raised or changed meanwhile is fetched.
  const shownBefore = useRef(openId);
  const { refetch } = issues;
  useEffect(() => {
    if (shownBefore.current !== null && openId === null) void refetch();
    shownBefore.current = openId;
  }, [openId, refetch]);

  if (issues.isPending) return <p className="small text-body-secondary">{t('workspace.loading')}</p>;
  if (open)
    return (
      <IssueDetail
        key={open.id}
        issue={open}
        documentId={documentId}
        canWrite={modeSatisfies(processMode, 'WRITE')}
        isAdmin={modeSatisfies(processMode, 'ADMIN')}
      />
    );

  return (
    <div className="ws-issues" data-testid="issues-panel">
      <div className="d-flex gap-1 mb-2">
        <select
          className="form-select form-select-sm"
          value={sort}
          onChange={(e) => setSort(e.target.value as IssueSort)}
          aria-label={t('workspace.issues.sort.label')}
          data-testid="issues-sort"
        >
          {IssueSorts.map((s) => (
            <option key={s} value={s}>
              {t(`workspace.issues.sort.${s}`)}
            </option>
          ))}
        </select>
        <select
          className="form-select form-select-sm"
          value={status}
          onChange={(e) => setStatus(e.target.value as IssueStatusFilter)}
          aria-label={t('workspace.issues.statusFilter')}
          data-testid="issues-status-filter"
        >
          <option value="ALL">{t('workspace.issues.allStatuses')}</option>
          {IssueStatuses.map((s) => (
            <option key={s} value={s}>
              {t(`workspace.issues.status.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <input
        className="form-control form-control-sm mb-2"
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder={t('workspace.issues.filter')}
        aria-label={t('workspace.issues.filter')}
        data-testid="issues-filter"
      />
      {!issues.data?.length ? (
        <p className="small text-body-secondary" data-testid="issues-empty">
          {t('workspace.issues.none')}
        </p>
      ) : !groups.length ? (
        <p className="small text-body-secondary" data-testid="issues-no-results">
          {t('workspace.issues.noResults')}
        </p>
      ) : (
        groups.map((g) => (
          <section key={g.status} data-testid={`issues-group-${g.status}`} className="mb-2">
            <h3 className="ws-issues-group">
              {t(`workspace.issues.status.${g.status}`)} ({g.issues.length})
            </h3>
            <ul className="list-unstyled mb-0">
              {g.issues.map((i) => (
                <li key={i.id}>
                  <button
                    type="button"
                    className="ws-issue-row"
                    onClick={() => issueFocus.open(i.id)}
                    data-testid="issue-row"
                    data-issue-id={i.id}
                  >
                    <span className="ws-issue-title text-truncate">{i.title}</span>
                    <span className="ws-issue-meta">
                      <span className="badge text-bg-light border">
                        {t(`workspace.issues.type.${i.type}`)}
                      </span>
                      <span>{t('workspace.issues.comments', { count: comments(i) })}</span>
                    </span>
                    {i.text && <span className="ws-issue-text text-truncate">{i.text}</span>}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}

const comments = (i: IssueDTO) => i.replies.filter((r) => !r.automatic).length;

/** The text ranges an issue points at (its range, or its tags' spans). */
function anchorRanges(issue: IssueDTO): OffsetRange[] {
  if (issue.type === 'TEXT' && issue.startOffset !== null && issue.endOffset !== null)
    return [{ start: issue.startOffset, end: issue.endOffset }];
  return issue.tags
    .filter((g) => g.startOffset !== null && g.endOffset !== null)
    .map((g) => ({ start: g.startOffset!, end: g.endOffset! }));
}

function IssueDetail({
  issue,
  documentId,
  canWrite,
  isAdmin,
}: {
  issue: IssueDTO;
  documentId: number;
  canWrite: boolean;
  isAdmin: boolean;
}) {
  const { t } = useTranslation();
  const ranges = useMemo(() => anchorRanges(issue), [issue]);
  useAnchorHighlight(ranges);
  const status = useIssueChange(documentId, (s: IssueStatus) => issueCalls.status(issue.id, s));
  const [deleting, setDeleting] = useState<IssueReplyDTO | null>(null);
  const remove = useIssueChange(documentId, (replyId: number) => issueCalls.deleteReply(issue.id, replyId));

  return (
    <div className="ws-issue-detail" data-testid="issue-detail" data-issue-id={issue.id}>
      <button
        type="button"
        className="btn btn-sm btn-link px-0 mb-1"
        onClick={() => issueFocus.open(null)}
        data-testid="issue-back"
      >
        <IconArrowLeft /> {t('workspace.issues.back')}
      </button>
      <h3 className="h6 mb-1 text-break" data-testid="issue-title">
        {issue.title}
      </h3>
      <div className="d-flex align-items-center gap-2 mb-2 small">
        <span className="badge text-bg-light border">{t(`workspace.issues.type.${issue.type}`)}</span>
        {issue.relation && <span className="text-body-secondary">{issue.relation.relationTypeName}</span>}
        <select
          className="form-select form-select-sm ms-auto w-auto"
          value={issue.status}
          disabled={!canWrite || status.isPending}
          onChange={(e) => status.mutate(e.target.value as IssueStatus)}
          aria-label={t('workspace.issues.statusLabel')}
          title={canWrite ? undefined : t('workspace.issues.writeOnly')}
          data-testid="issue-status"
        >
          {IssueStatuses.map((s) => (
            <option key={s} value={s}>
              {t(`workspace.issues.status.${s}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="ws-comment ws-comment-first" data-testid="issue-text">
        <div className="ws-comment-head">
          <strong>{issue.userName ?? t('workspace.issues.unknownUser')}</strong>
          <span>{formatCommentDate(issue.timestamp)}</span>
        </div>
        <div className="ws-comment-text">{issue.text}</div>
      </div>
      <ul className="list-unstyled mb-2" data-testid="issue-comments">
        {issue.replies.map((r) => (
          <Reply
            key={r.id}
            reply={r}
            issueId={issue.id}
            documentId={documentId}
            isAdmin={isAdmin}
            onDelete={() => setDeleting(r)}
          />
        ))}
      </ul>
      {canWrite ? (
        <CommentForm issueId={issue.id} documentId={documentId} />
      ) : (
        <p className="small text-body-secondary" data-testid="issue-read-only">
          {t('workspace.issues.writeOnly')}
        </p>
      )}
      {deleting && (
        <ConfirmModal
          danger
          title={t('workspace.issues.deleteTitle')}
          pending={remove.isPending}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => setDeleting(null)}
          testId="issue-comment-delete"
        >
          {t('workspace.issues.deleteBody')}
        </ConfirmModal>
      )}
    </div>
  );
}

function Reply({
  reply,
  issueId,
  documentId,
  isAdmin,
  onDelete,
}: {
  reply: IssueReplyDTO;
  issueId: number;
  documentId: number;
  isAdmin: boolean;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<string | null>(null);
  const edit = useIssueChange(documentId, (text: string) => issueCalls.editReply(issueId, reply.id, text));
  const change = reply.automatic ? parseStatusChange(reply.text) : null;
  const text = change
    ? t('workspace.issues.statusChanged', {
        from: t(`workspace.issues.status.${change.from}`),
        to: t(`workspace.issues.status.${change.to}`),
      })
    : reply.text;
  return (
    <li
      className={`ws-comment${reply.automatic ? ' ws-comment-auto' : ''}`}
      data-testid="issue-comment"
      data-reply-id={reply.id}
    >
      <div className="ws-comment-head">
        <strong>{reply.userName ?? t('workspace.issues.unknownUser')}</strong>
        <span data-testid="issue-comment-date">{formatCommentDate(reply.timestamp)}</span>
        {isAdmin && editing === null && (
          <span className="ms-auto d-flex gap-1">
            <button
              type="button"
              className="btn btn-sm btn-link p-0 text-body-secondary"
              onClick={() => setEditing(reply.text)}
              aria-label={t('workspace.issues.edit')}
              title={t('workspace.issues.edit')}
              data-testid="issue-comment-edit"
            >
              <IconPencil />
            </button>
            <button
              type="button"
              className="btn btn-sm btn-link p-0 text-danger"
              onClick={onDelete}
              aria-label={t('workspace.issues.delete')}
              title={t('workspace.issues.delete')}
              data-testid="issue-comment-remove"
            >
              <IconTrash />
            </button>
          </span>
        )}
      </div>
      {editing === null ? (
        <div className="ws-comment-text" data-testid="issue-comment-text">
          {text}
        </div>
      ) : (
        <CommentBox
          value={editing}
          onChange={setEditing}
          pending={edit.isPending}
          submitLabel={t('workspace.issues.save')}
          onSubmit={() => edit.mutate(editing, { onSuccess: () => setEditing(null) })}
          onCancel={() => setEditing(null)}
          testId="issue-comment-editor"
        />
      )}
    </li>
  );
}

function CommentForm({ issueId, documentId }: { issueId: number; documentId: number }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const send = useIssueChange(documentId, (value: string) => issueCalls.reply(issueId, value));
  return (
    <CommentBox
      value={text}
      onChange={setText}
      pending={send.isPending}
      submitLabel={t('workspace.issues.send')}
      onSubmit={() => send.mutate(text, { onSuccess: () => setText('') })}
      onCancel={() => setText('')}
      placeholder={t('workspace.issues.commentPlaceholder')}
      testId="issue-comment-form"
    />
  );
}

/** A comment textarea: Enter submits, Shift+Enter adds a line; both buttons are off while it is empty. */
export function CommentBox(props: {
  value: string;
  onChange: (v: string) => void;
  onSubmit: () => void;
  onCancel: () => void;
  pending: boolean;
  submitLabel: string;
  placeholder?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const empty = props.value.trim() === '';
  return (
    <div className="ws-comment-box" data-testid={props.testId}>
      <textarea
        className="form-control form-control-sm"
        rows={2}
        value={props.value}
        placeholder={props.placeholder}
        aria-label={props.placeholder ?? props.submitLabel}
        onChange={(e) => props.onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            if (!empty && !props.pending) props.onSubmit();
          }
          e.stopPropagation();
        }}
        data-testid={`${props.testId}-text`}
      />
      <div className="d-flex justify-content-end gap-1 mt-1">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={empty || props.pending}
          onClick={props.onCancel}
          data-testid={`${props.testId}-cancel`}
        >
          {t('workspace.issues.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-primary"
          disabled={empty || props.pending}
          onClick={props.onSubmit}
          data-testid={`${props.testId}-submit`}
        >
          {props.submitLabel}
        </button>
      </div>
    </div>
  );
}
