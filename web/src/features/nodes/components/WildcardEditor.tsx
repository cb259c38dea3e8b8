/**
 * A template editor: a plain textarea (or a single-line input for file names) plus the wildcards available
 * in its context, inserted at the caret on click. Availability comes from domain/wildcards.ts.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Violation } from '@domain';
import type { Wildcard } from '@domain/wildcards';
import { ViolationMessage, inputClass } from '../../../components/FormField';
import './wildcard-editor.css';

export interface WildcardEditorProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  wildcards: readonly Wildcard[];
  violation?: Violation | null;
  disabled?: boolean;
  rows?: number;
  /** A single-line field (Enter is blocked). */
  singleLine?: boolean;
  /** Pasting is blocked (file names). */
  noPaste?: boolean;
  /** Keeps only the allowed characters of a typed text (file names). */
  accept?: (text: string) => string;
  testId?: string;
  placeholder?: string;
  /** The list of wildcards starts unfolded (the RAG template modal). */
  wildcardsOpen?: boolean;
}

/** What a wildcard stands for, in the user's language: names of nodes and labels, never their ids. */
export function wildcardName(t: TFunction, w: Wildcard): string {
  if (w.source)
    return t(`soaApp.nodePanel.wildcards.node.${w.source.kind}`, {
      node: w.source.nodeName,
      label: w.source.labelName ?? '',
      defaultValue: w.label,
    });
  const key = w.value.replace(/^\$\{|\}$/g, '').replace(/\./g, '_');
  return t(`soaApp.nodePanel.wildcards.names.${key}`, { defaultValue: w.label });
}

export function WildcardEditor({
  id,
  label,
  value,
  onChange,
  wildcards,
  violation = null,
  disabled,
  rows = 5,
  singleLine,
  noPaste,
  accept,
  testId,
  placeholder,
  wildcardsOpen = false,
}: WildcardEditorProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const [open, setOpen] = useState(wildcardsOpen);
  const show = !!violation;

  const insert = (token: string) => {
    const el = ref.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    const next = value.slice(0, start) + token + value.slice(end);
    onChange(next);
    window.requestAnimationFrame(() => {
      if (!el) return;
      el.focus();
      el.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const change = (text: string) => onChange(accept ? accept(text) : text);

  const common = {
    id,
    ref,
    value,
    disabled,
    placeholder,
    className: `${inputClass(violation, show)} template-editor`,
    'data-testid': testId,
  };

  return (
    <div className="mb-3">
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {singleLine ? (
        <input
          {...common}
          autoComplete="off"
          onChange={(e) => change(e.target.value)}
          onPaste={noPaste ? (e) => e.preventDefault() : undefined}
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
        />
      ) : (
        <textarea
          {...common}
          rows={rows}
          onChange={(e) => change(e.target.value)}
          onPaste={noPaste ? (e) => e.preventDefault() : undefined}
        />
      )}
      {show && violation && <ViolationMessage violation={violation} testId={`${id}-error`} />}
      {wildcards.length > 0 && (
        <div className="mt-1">
          <button
            type="button"
            className="btn btn-link btn-sm p-0 text-decoration-none small"
            aria-expanded={open}
            onClick={() => setOpen((o) => !o)}
            data-testid="wildcards-toggle"
          >
            {t('soaApp.nodePanel.wildcards.toggle', { count: wildcards.length })} {open ? '▴' : '▾'}
          </button>
          {open && (
            <div className="wildcard-list" aria-label={t('soaApp.nodePanel.wildcards.title')}>
              {wildcards.map((w) => (
                <button
                  key={w.value}
                  type="button"
                  className="wildcard-chip"
                  title={w.value}
                  disabled={disabled}
                  onClick={() => insert(w.value)}
                  data-testid="wildcard"
                  data-wildcard={w.value}
                >
                  {wildcardName(t, w)}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
