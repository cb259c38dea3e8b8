/**
 * Rows of key / value pairs edited as a list and stored as a map `{[key]: {value, editorState}}` (request
 * headers, JSON body fields). The rows live here so that a key being typed (or briefly empty or repeated)
 * does not reshuffle the list.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HeaderValue } from '@domain/graph-types';
import { IconPlus, IconTrash } from '../../../components/icons';
import { useNodeForm } from '../form';
import { FieldError } from './fields';

interface Row {
  key: string;
  value: string;
}

export interface KeyValueEditorProps {
  /** Error path of the map (its key errors are reported as `${field}.key`). */
  field: string;
  label: string;
  value: Record<string, HeaderValue> | null | undefined;
  onChange: (map: Record<string, HeaderValue>) => void;
  testId: string;
}

const toRows = (map: Record<string, HeaderValue> | null | undefined): Row[] =>
  Object.entries(map ?? {}).map(([key, v]) => ({ key, value: v?.value ?? '' }));

export function KeyValueEditor({ field, label, value, onChange, testId }: KeyValueEditorProps) {
  const { t } = useTranslation();
  const { readOnly, error } = useNodeForm();
  // The map rule reports empty keys once for the map; the empty rows are the ones to mark.
  const keyError = error(`${field}.key`);
  const [rows, setRows] = useState<Row[]>(() => toRows(value));

  const commit = (next: Row[]) => {
    setRows(next);
    const map: Record<string, HeaderValue> = {};
    for (const r of next) map[r.key] = { value: r.value, editorState: null };
    onChange(map);
  };
  const set = (index: number, change: Partial<Row>) =>
    commit(rows.map((r, i) => (i === index ? { ...r, ...change } : r)));

  return (
    <div className="mb-3" data-testid={testId}>
      <div className="d-flex align-items-center mb-1">
        <span className="form-label m-0 me-auto">{label}</span>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={readOnly}
          onClick={() => commit([...rows, { key: '', value: '' }])}
          data-testid={`${testId}-add`}
        >
          <IconPlus className="me-1" />
          {t('soaApp.nodePanel.request.addField')}
        </button>
      </div>
      {rows.length === 0 && (
        <div className="small text-body-secondary">{t('soaApp.nodePanel.request.noFields')}</div>
      )}
      {rows.map((r, i) => (
        <div className="kv-row" key={i} data-testid={`${testId}-row`}>
          <input
            className={`form-control form-control-sm ${keyError && r.key.trim() === '' ? 'is-invalid' : ''}`}
            value={r.key}
            disabled={readOnly}
            placeholder={t('soaApp.nodePanel.request.key')}
            aria-label={t('soaApp.nodePanel.request.key')}
            onChange={(e) => set(i, { key: e.target.value })}
            data-testid={`${testId}-key`}
          />
          <input
            className="form-control form-control-sm"
            value={r.value}
            disabled={readOnly}
            placeholder={t('soaApp.nodePanel.request.value')}
            aria-label={t('soaApp.nodePanel.request.value')}
            onChange={(e) => set(i, { value: e.target.value })}
            data-testid={`${testId}-value`}
          />
          <button
            type="button"
            className="btn btn-sm btn-outline-danger"
            disabled={readOnly}
            title={t('global.common.delete')}
            onClick={() => commit(rows.filter((_, j) => j !== i))}
          >
            <IconTrash />
            <span className="visually-hidden">{t('global.common.delete')}</span>
          </button>
        </div>
      ))}
      <FieldError field={`${field}.key`} />
    </div>
  );
}
