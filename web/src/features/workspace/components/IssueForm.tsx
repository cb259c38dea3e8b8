/**
 * The small form of 'Problem z oznaczeniem' (spec 2 sections 2 and 5): a description textarea, Submit
 * (disabled while the description is empty) and Cancel, raising a TEXT issue on the selection or a TAG issue
 * on the selected tag (POST api/issues; the server computes the title); it also takes two tags or a relation
 * (../issues.ts IssueAnchor) for the relation menu. The new issue opens in the issues panel.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pointAnchor, useFloatingMenu } from '../../../components/floatingMenu';
import type { IssueInput } from '@domain/issues';
import { issueInput, type IssueAnchor } from '../issues';
import { issueFocus } from '../issueFocus';
import { issueCalls, useIssueChange } from '../issuesApi';
import '../issues.css';

/** Where the form opens and what it reports on. */
export interface IssueDraft {
  x: number;
  y: number;
  anchor: IssueAnchor;
  /** the selected text or tag text, shown as the form's subject */
  subject: string;
}

export interface IssueFormProps extends IssueDraft {
  documentId: number;
  stepId?: number | null;
  onClose: () => void;
}

export function IssueForm(props: IssueFormProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  // Escape closes it; a press outside does not (the typed description would be lost).
  const { ref, style } = useFloatingMenu<HTMLFormElement>({
    anchor: pointAnchor(props.x, props.y),
    onClose: props.onClose,
    closeOnOutsidePress: false,
  });
  const create = useIssueChange(props.documentId, (input: IssueInput) => issueCalls.create(input));
  const empty = text.trim() === '';

  const submit = () => {
    if (empty || create.isPending) return;
    create.mutate(issueInput(props.documentId, props.anchor, text, props.stepId ?? null), {
      onSuccess: (issue) => {
        props.onClose();
        issueFocus.show(issue.id);
      },
    });
  };

  return (
    <form
      ref={ref}
      className="ws-issue-form shadow"
      style={style}
      data-testid="issue-form"
      role="dialog"
      aria-label={t('workspace.issues.reportTitle')}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onKeyDown={(e) => e.stopPropagation()}
    >
      <div className="small fw-semibold">{t('workspace.issues.reportTitle')}</div>
      <div className="small text-body-secondary text-truncate mb-1" data-testid="issue-form-subject">
        “{props.subject}”
      </div>
      <textarea
        className="form-control form-control-sm"
        rows={3}
        autoFocus
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t('workspace.issues.descriptionPlaceholder')}
        aria-label={t('workspace.issues.description')}
        data-testid="issue-form-text"
      />
      <div className="d-flex justify-content-end gap-1 mt-1">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={props.onClose}
          data-testid="issue-form-cancel"
        >
          {t('workspace.issues.cancel')}
        </button>
        <button
          type="submit"
          className="btn btn-sm btn-primary"
          disabled={empty || create.isPending}
          data-testid="issue-form-submit"
        >
          {t('workspace.issues.submit')}
        </button>
      </div>
    </form>
  );
}
