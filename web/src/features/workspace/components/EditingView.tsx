/**
 * EDITING mode (a FILE_PARSER step): the text in a textarea and the Edit submit button, enabled only when
 * the step is editable and the text differs from the saved one. Saving uses the content update
 * (PUT api/document-content); success shows a toast, failure the 'Lack document content' modal.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessages } from '../../../api/errors';
import { toast } from '../../../components/toast';
import { useSaveContent } from '../api';

export interface EditingViewProps {
  documentId: number;
  content: { id: number; content: string } | null;
  editable: boolean;
  /** Why the text is read-only when it is: the step is not waiting, or the user has not started it. */
  step: { status: string; canStart: boolean };
  onSaveFailed: (message: string) => void;
}

export function EditingView({ documentId, content, editable, step, onSaveFailed }: EditingViewProps) {
  const { t } = useTranslation();
  const original = content?.content ?? '';
  const [draft, setDraft] = useState(original);
  const save = useSaveContent(documentId, {
    onSaved: () => toast.success(t('workspace.editing.saved')),
    onFailed: (error) => onSaveFailed(errorMessages(t, error).join(' ')),
  });
  const changed = draft !== original;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!content || !editable || !changed) return;
    save.mutate({ contentId: content.id, content: draft });
  };

  return (
    <form className="ws-editing" onSubmit={submit} data-testid="editing-view">
      <label className="visually-hidden" htmlFor="ws-editing-text">
        {t('workspace.editing.label')}
      </label>
      <textarea
        id="ws-editing-text"
        data-focus-text
        className="form-control ws-text ws-textarea"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        readOnly={!editable || !content}
        spellCheck={false}
        data-testid="editing-text"
      />
      <div className="ws-editing-footer">
        <span className="small text-body-secondary">
          {!content
            ? t('workspace.editing.noContent')
            : editable
              ? null
              : step.status !== 'WAITING'
                ? t('workspace.editing.notWaiting')
                : step.canStart
                  ? t('workspace.editing.notEditable')
                  : t('workspace.editing.readOnly')}
        </span>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={!content || !editable || !changed || save.isPending}
          data-testid="editing-submit"
        >
          {save.isPending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {t('workspace.editing.submit')}
        </button>
      </div>
    </form>
  );
}
