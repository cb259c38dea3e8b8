/**
 * The expression list of the matching-rule editor: chips (duplicates, blanks and invalid regular
 * expressions highlighted, each removable) and three input modes: upload a file (split by a delimiter,
 * default comma, or by line), add single (Enter adds and keeps the input open), add many (one per line).
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MatchingType } from '@domain/label-types';
import {
  duplicatedExpressions,
  expressionListRule,
  expressionRule,
  splitExpressions,
} from '@domain/matching-rules';
import { ViolationMessage } from '../../../components/FormField';

export type InputMode = 'file' | 'single' | 'many';

export interface ExpressionListEditorProps {
  expressions: readonly string[];
  matchingType: MatchingType | null;
  onChange: (next: string[]) => void;
}

export function ExpressionListEditor({ expressions, matchingType, onChange }: ExpressionListEditorProps) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<InputMode>('single');
  const [single, setSingle] = useState('');
  const [many, setMany] = useState('');
  const [delimiter, setDelimiter] = useState(',');
  const [byLine, setByLine] = useState(false);
  const singleRef = useRef<HTMLInputElement>(null);

  const duplicates = duplicatedExpressions(expressions);
  const listViolation = expressionListRule(expressions);
  // Every expression's own refusal (invalid, unsupported by the linear-time engine, too long or complex).
  const expressionViolations = new Map(
    expressions.flatMap((e) => {
      const v = e.trim() === '' || !matchingType ? null : expressionRule(e, matchingType);
      return v ? [[e, v] as const] : [];
    }),
  );
  const firstExpressionViolation = expressionViolations.values().next().value;
  const delimiterMissing = !byLine && delimiter === '';

  const append = (items: string[]) => {
    if (items.length) onChange([...expressions, ...items]);
  };

  const addSingle = () => {
    const value = single.trim();
    if (value) append([value]);
    setSingle('');
    singleRef.current?.focus();
  };

  const onSingleKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      addSingle();
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file || delimiterMissing) return;
    append(splitExpressions(await file.text(), byLine ? 'NEWLINE' : delimiter));
  };

  const modeButton = (value: InputMode, text: string, testId: string, onClick?: () => void) => (
    <button
      type="button"
      className={`btn ${mode === value ? 'btn-secondary' : 'btn-outline-secondary'}`}
      aria-pressed={mode === value}
      onClick={onClick ?? (() => setMode(value))}
      data-testid={testId}
    >
      {text}
    </button>
  );

  return (
    <div data-testid="rule-expressions">
      <div className="d-flex align-items-center justify-content-between mb-1">
        <span className="form-label mb-0">
          {t('soaApp.labels.rules.expressions')}{' '}
          <span className="text-body-secondary small" data-testid="rule-expression-count">
            ({expressions.length})
          </span>
        </span>
        {expressions.length > 0 && (
          <button
            type="button"
            className="btn btn-link btn-sm p-0"
            onClick={() => onChange([])}
            data-testid="rule-expressions-clear"
          >
            {t('soaApp.labels.rules.clearAll')}
          </button>
        )}
      </div>
      <div className="labels-expression-list border rounded p-2 mb-1">
        {expressions.length === 0 ? (
          <span className="labels-empty">{t('soaApp.labels.rules.noExpressions')}</span>
        ) : (
          <div className="labels-chip-list">
            {expressions.map((e, i) => {
              const dup = duplicates.has(e.trim());
              const empty = e.trim() === '';
              const bad = expressionViolations.get(e);
              return (
                <span
                  key={i}
                  className={`labels-chip ${dup ? 'duplicate' : ''} ${empty || bad ? 'empty' : ''}`}
                  title={
                    dup ? t('soaApp.matchingRule.listDuplicates') : bad ? t(bad.key, bad.params) : undefined
                  }
                  data-testid="rule-expression"
                  data-duplicate={dup || undefined}
                >
                  {empty ? '\u00a0' : e}
                  <button
                    type="button"
                    className="btn-close"
                    aria-label={t('global.common.delete')}
                    onClick={() => onChange(expressions.filter((_, j) => j !== i))}
                  />
                </span>
              );
            })}
          </div>
        )}
      </div>
      {listViolation && <ViolationMessage violation={listViolation} testId="rule-expressions-error" />}
      {firstExpressionViolation && <ViolationMessage violation={firstExpressionViolation} />}

      <div
        className="btn-group btn-group-sm mt-2 mb-2"
        role="group"
        aria-label={t('soaApp.labels.rules.inputMode')}
      >
        {modeButton('file', t('soaApp.labels.rules.mode.file'), 'rule-input-file')}
        {modeButton('single', t('soaApp.labels.rules.mode.single'), 'rule-add-single', () => {
          // Already adding single entries: the button adds what is typed.
          if (mode === 'single' && single.trim()) addSingle();
          else {
            setMode('single');
            window.setTimeout(() => singleRef.current?.focus(), 0);
          }
        })}
        {modeButton('many', t('soaApp.labels.rules.mode.many'), 'rule-input-many')}
      </div>

      {mode === 'single' && (
        <div className="input-group input-group-sm">
          <input
            ref={singleRef}
            className="form-control"
            value={single}
            placeholder={t('soaApp.labels.rules.singlePlaceholder')}
            aria-label={t('soaApp.labels.rules.singlePlaceholder')}
            onChange={(e) => setSingle(e.target.value)}
            onKeyDown={onSingleKey}
            data-testid="rule-input-single"
          />
          <button
            type="button"
            className="btn btn-outline-primary"
            disabled={!single.trim()}
            onClick={addSingle}
            data-testid="rule-single-submit"
          >
            {t('soaApp.labels.rules.add')}
          </button>
        </div>
      )}

      {mode === 'many' && (
        <div>
          <textarea
            className="form-control form-control-sm mb-2"
            rows={4}
            value={many}
            placeholder={t('soaApp.labels.rules.manyPlaceholder')}
            aria-label={t('soaApp.labels.rules.manyPlaceholder')}
            onChange={(e) => setMany(e.target.value)}
            data-testid="rule-many-text"
          />
          <button
            type="button"
            className="btn btn-sm btn-outline-primary"
            disabled={!many.trim()}
            onClick={() => {
              append(splitExpressions(many, 'NEWLINE'));
              setMany('');
            }}
            data-testid="rule-many-submit"
          >
            {t('soaApp.labels.rules.add')}
          </button>
        </div>
      )}

      {mode === 'file' && (
        <div className="row g-2 align-items-end">
          <div className="col-sm-4">
            <label htmlFor="rule-delimiter" className="form-label small mb-1">
              {t('soaApp.labels.rules.delimiter')}
            </label>
            <input
              id="rule-delimiter"
              className={`form-control form-control-sm ${delimiterMissing ? 'is-invalid' : ''}`}
              value={delimiter}
              disabled={byLine}
              onChange={(e) => setDelimiter(e.target.value)}
              data-testid="rule-delimiter"
            />
          </div>
          <div className="col-sm-8">
            <div className="form-check mb-1">
              <input
                id="rule-by-line"
                type="checkbox"
                className="form-check-input"
                checked={byLine}
                onChange={(e) => setByLine(e.target.checked)}
                data-testid="rule-by-line"
              />
              <label htmlFor="rule-by-line" className="form-check-label small">
                {t('soaApp.labels.rules.useNewLine')}
              </label>
            </div>
          </div>
          {delimiterMissing && (
            <div className="col-12">
              <ViolationMessage violation={{ code: 'NotBlank', key: 'entity.validation.required' }} />
            </div>
          )}
          <div className="col-12">
            <input
              type="file"
              accept=".txt,.csv,text/plain,text/csv"
              className="form-control form-control-sm"
              disabled={delimiterMissing}
              onChange={(e) => {
                void onFile(e.target.files?.[0]);
                e.target.value = '';
              }}
              data-testid="rule-file-input"
            />
          </div>
        </div>
      )}
    </div>
  );
}
