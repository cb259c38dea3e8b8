/**
 * The inline token edit (spec 2 section 5): an input in place of the word, checked as the user types
 * (domain/transcript-edit.ts checkTokenEdit): 'Max two words allowed', 'Invalid input', 'The word cannot be
 * deleted' block the save; 'The word will be deleted' is a warning and Enter deletes the word. Enter saves
 * (two words: the second becomes a new token after it), Escape or leaving the field cancels.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkTokenEdit } from '@domain/transcript-edit';
import type { TokenDTO } from '../transcriptApi';

export function TokenEditor({
  token,
  deletionAllowed,
  onSave,
  onCancel,
}: {
  token: TokenDTO;
  deletionAllowed: boolean;
  onSave: (value: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(token.value);
  const check = checkTokenEdit(value, deletionAllowed);
  const message = check.kind === 'words' ? null : check.message;
  return (
    <span className="sp-edit" data-testid="token-editor">
      <input
        className={`form-control form-control-sm sp-edit-input${check.kind === 'error' ? ' is-invalid' : ''}${
          check.kind === 'delete' ? ' sp-edit-warn' : ''
        }`}
        autoFocus
        value={value}
        size={Math.max(4, value.length + 1)}
        aria-label={t('speech.edit.label')}
        aria-invalid={check.kind === 'error'}
        onFocus={(e) => e.target.select()}
        onChange={(e) => setValue(e.target.value)}
        onBlur={onCancel}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Escape') onCancel();
          else if (e.key === 'Enter') {
            e.preventDefault();
            if (check.kind !== 'error') onSave(value);
          }
        }}
        data-testid="token-editor-input"
      />
      {message && (
        <span
          className={`sp-edit-msg ${check.kind === 'error' ? 'text-danger' : 'text-warning-emphasis'}`}
          role={check.kind === 'error' ? 'alert' : 'status'}
          data-testid="token-editor-message"
        >
          {t(`speech.edit.${message}`)}
        </span>
      )}
    </span>
  );
}
