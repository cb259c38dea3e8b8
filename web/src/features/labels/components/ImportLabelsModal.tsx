/**
 * Import labels from a JSON file (one .json file, dropped or chosen). The file is parsed and validated in the
 * browser with the shared schema (domain/label-import-schema.ts): unparsable JSON or schema errors disable
 * the upload, and schema errors are listed in a collapsible 'Validation Failed' block. While no file is
 * chosen an example of the format is shown. The server's own 'Validation Failed' answer is shown the same way.
 */
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportResult, ImportValidationError, LabelImportFile } from '@domain/label-types';
import { LABEL_IMPORT_EXAMPLE, validateLabelImport } from '@domain/label-import-schema';
import { isHttpError } from '../../../api/client';
import { errorMessages } from '../../../api/errors';
import { Modal } from '../../../components/Modal';
import { toast } from '../../../components/toast';
import { useImportLabels } from '../api';
import { ImportErrorList } from './ImportErrorList';

export interface ImportLabelsModalProps {
  nodeId: number;
  onClose: () => void;
  onImported: (result: ImportResult) => void;
}

type Parsed =
  | { state: 'none' }
  | { state: 'wrongType'; name: string }
  | { state: 'unparsable'; name: string }
  | { state: 'invalid'; name: string; errors: ImportValidationError[] }
  | { state: 'valid'; name: string; file: LabelImportFile };

const EXAMPLE_TEXT = JSON.stringify(LABEL_IMPORT_EXAMPLE, null, 2);

function serverValidationErrors(error: unknown): ImportValidationError[] | null {
  if (!isHttpError(error) || error.status !== 400) return null;
  const body = error.body as { message?: string; errors?: unknown } | null;
  return body && Array.isArray(body.errors) ? (body.errors as ImportValidationError[]) : null;
}

export function ImportLabelsModal({ nodeId, onClose, onImported }: ImportLabelsModalProps) {
  const { t } = useTranslation();
  const upload = useImportLabels(nodeId);
  const inputRef = useRef<HTMLInputElement>(null);
  const [parsed, setParsed] = useState<Parsed>({ state: 'none' });
  const [dragging, setDragging] = useState(false);

  const readFile = async (file: File) => {
    upload.reset();
    if (!/\.json$/i.test(file.name)) {
      setParsed({ state: 'wrongType', name: file.name });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(await file.text()) as unknown;
    } catch {
      setParsed({ state: 'unparsable', name: file.name });
      return;
    }
    const errors = validateLabelImport(value);
    setParsed(
      errors.length
        ? { state: 'invalid', name: file.name, errors }
        : { state: 'valid', name: file.name, file: value as LabelImportFile },
    );
  };

  const onFiles = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    // One file only: the first one counts.
    void readFile(files[0]);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    onFiles(e.dataTransfer.files);
  };

  const submit = () => {
    if (parsed.state !== 'valid') return;
    upload.mutate(parsed.file, {
      onSuccess: (result) => onImported(result),
      onError: (error) => {
        if (serverValidationErrors(error)) return; // listed in the modal
        for (const text of errorMessages(t, error)) toast.error(text);
      },
    });
  };

  const serverErrors = serverValidationErrors(upload.error);
  const errors = serverErrors ?? (parsed.state === 'invalid' ? parsed.errors : null);
  const fileName = parsed.state === 'none' ? null : parsed.name;

  return (
    <Modal
      title={t('soaApp.labels.import.title')}
      onClose={onClose}
      size="lg"
      testId="labels-import-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={parsed.state !== 'valid' || !!serverErrors || upload.isPending}
            onClick={submit}
            data-testid="import-submit"
          >
            {upload.isPending && (
              <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
            )}
            {t('soaApp.labels.import.upload')}
          </button>
        </>
      }
    >
      <div
        className={`labels-drop mb-3 ${dragging ? 'active' : ''}`}
        role="button"
        tabIndex={0}
        onClick={() => inputRef.current?.click()}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            inputRef.current?.click();
          }
        }}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="import-drop"
      >
        <div className="fw-medium">{t('soaApp.labels.import.drop')}</div>
        <div className="small text-body-secondary">{t('soaApp.labels.import.dropHelp')}</div>
        {fileName && (
          <div className="mt-2 small" data-testid="import-file-name">
            {t('soaApp.labels.import.chosen', { name: fileName })}
          </div>
        )}
        <input
          ref={inputRef}
          type="file"
          accept=".json,application/json"
          className="d-none"
          onClick={(e) => e.stopPropagation()}
          onChange={(e) => {
            onFiles(e.target.files);
            e.target.value = '';
          }}
          data-testid="import-file-input"
        />
      </div>

      {parsed.state === 'wrongType' && (
        <div className="alert alert-danger py-2" data-testid="import-wrong-type">
          {t('soaApp.labels.import.wrongType')}
        </div>
      )}
      {parsed.state === 'unparsable' && (
        <div className="alert alert-danger py-2" data-testid="import-unparsable">
          {t('soaApp.labels.import.unparsable')}
        </div>
      )}
      {parsed.state === 'valid' && !serverErrors && (
        <div className="alert alert-success py-2" data-testid="import-valid">
          {t('soaApp.labels.import.valid', { n: parsed.file.data.length })}
        </div>
      )}
      {errors && errors.length > 0 && <ImportErrorList errors={errors} />}

      {parsed.state === 'none' && (
        <div data-testid="import-example">
          <div className="small text-body-secondary mb-1">{t('soaApp.labels.import.example')}</div>
          <pre className="labels-pre">{EXAMPLE_TEXT}</pre>
        </div>
      )}
    </Modal>
  );
}
