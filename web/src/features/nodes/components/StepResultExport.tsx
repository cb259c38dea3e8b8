/**
 * The Export section of CLF, SPAN, LEXICON and LLM prompt panels (spec 3 section 5 "Export"; issue 16
 * section 2): format (JSON, CSV with its delimiter, CoNLL-2003 and JSONL where the node has them), date range
 * (default the last month, at most 31 days, not after today; UTC days as the server counts them), a Download
 * button with a spinner while the file comes; the file is saved under the name of content-disposition.
 * The rules are domain/export.ts, the ones the API applies.
 */
import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  delimiterViolation,
  EXPORT_LIMITS,
  exportFormatsOf,
  exportKindOf,
  exportRange,
  monthBefore,
  type ExportFormat,
} from '@domain/export';
import { request } from '../../../api/client';
import { filenameOf, saveBlob } from '../../labels/api';

interface ExportParams {
  format: ExportFormat;
  from: string;
  to: string;
  delimiter: string;
}

async function downloadStepResults(nodeId: number, p: ExportParams): Promise<void> {
  const res = await request<Blob>(`api/nodes/${nodeId}/export-step-result`, {
    query: {
      format: p.format,
      from: p.from,
      to: p.to,
      delimiter: p.format === 'csv' ? p.delimiter : undefined,
    },
    headers: { Accept: '*/*' },
    blob: true,
    timeoutMs: 10 * 60_000,
  });
  const filename = filenameOf(res.headers.get('content-disposition')) ?? `step-results-${nodeId}.${p.format}`;
  saveBlob(res.data, filename);
}

const todayUtc = () => new Date().toISOString().slice(0, 10);

export function StepResultExport({ nodeId, activityType }: { nodeId: number; activityType: string }) {
  const { t } = useTranslation();
  const kind = exportKindOf(activityType);
  const today = todayUtc();
  const [format, setFormat] = useState<ExportFormat>('json');
  const [delimiter, setDelimiter] = useState<string>(EXPORT_LIMITS.defaultDelimiter);
  const [from, setFrom] = useState(monthBefore(today));
  const [to, setTo] = useState(today);
  const download = useMutation({ mutationFn: (p: ExportParams) => downloadStepResults(nodeId, p) });
  if (!kind) return null;

  const range = exportRange(from, to, today);
  const rangeErrors = 'violations' in range ? range.violations : [];
  const delimiterError = format === 'csv' ? delimiterViolation(delimiter) : null;
  const invalid = rangeErrors.length > 0 || delimiterError !== null;

  return (
    <form
      className="d-flex flex-column gap-2"
      data-testid="step-result-export"
      onSubmit={(e) => {
        e.preventDefault();
        if (!invalid) download.mutate({ format, from, to, delimiter });
      }}
    >
      <p className="small text-body-secondary mb-0">{t('soaApp.nodePanel.export.help')}</p>
      <div className="row g-2">
        <div className="col-7">
          <label className="form-label small mb-1" htmlFor={`export-format-${nodeId}`}>
            {t('soaApp.nodePanel.export.format')}
          </label>
          <select
            id={`export-format-${nodeId}`}
            className="form-select form-select-sm"
            value={format}
            onChange={(e) => setFormat(e.target.value as ExportFormat)}
            data-testid="step-result-export-format"
          >
            {exportFormatsOf(kind).map((f) => (
              <option key={f} value={f}>
                {t(`soaApp.nodePanel.export.formats.${kind === 'CLF' && f === 'jsonl' ? 'jsonlClasses' : f}`)}
              </option>
            ))}
          </select>
        </div>
        {format === 'csv' && (
          <div className="col-5">
            <label className="form-label small mb-1" htmlFor={`export-delimiter-${nodeId}`}>
              {t('soaApp.nodePanel.export.delimiter')}
            </label>
            <input
              id={`export-delimiter-${nodeId}`}
              className={`form-control form-control-sm ${delimiterError ? 'is-invalid' : ''}`}
              value={delimiter}
              maxLength={2}
              onChange={(e) => setDelimiter(e.target.value)}
              data-testid="step-result-export-delimiter"
            />
            {delimiterError && <div className="invalid-feedback">{t(delimiterError.key)}</div>}
          </div>
        )}
      </div>
      <div className="row g-2">
        {(['from', 'to'] as const).map((field) => {
          const error = rangeErrors.find((v) => v.field === field);
          return (
            <div className="col-6" key={field}>
              <label className="form-label small mb-1" htmlFor={`export-${field}-${nodeId}`}>
                {t(`soaApp.nodePanel.export.${field}`)}
              </label>
              <input
                id={`export-${field}-${nodeId}`}
                type="date"
                max={today}
                className={`form-control form-control-sm ${error ? 'is-invalid' : ''}`}
                value={field === 'from' ? from : to}
                onChange={(e) => (field === 'from' ? setFrom : setTo)(e.target.value)}
                data-testid={`step-result-export-${field}`}
              />
              {error && <div className="invalid-feedback">{t(error.key)}</div>}
            </div>
          );
        })}
      </div>
      <div>
        <button
          type="submit"
          className="btn btn-sm btn-outline-primary"
          disabled={invalid || download.isPending}
          aria-busy={download.isPending}
          data-testid="step-result-export-download"
        >
          {download.isPending && (
            <span
              className="spinner-border spinner-border-sm me-1"
              role="status"
              aria-label={t('soaApp.nodePanel.export.downloading')}
              data-testid="step-result-export-spinner"
            />
          )}
          {t('soaApp.nodePanel.export.download')}
        </button>
      </div>
    </form>
  );
}
