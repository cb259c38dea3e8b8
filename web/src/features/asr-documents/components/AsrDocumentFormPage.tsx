/**
 * Create (/entity/asr-document/new, a recording of one second of silence in the chosen process, transcribed
 * by hand in the workspace) and edit (/{id}/edit: the filename; the process cannot change) of an asr
 * document; saving returns to the list.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { documentFilenameRule, requiredRule } from '@domain';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { Field, inputClass } from '../../../components/FormField';
import { processQueries } from '../../processes/api';
import { asrQueries, useSaveAsrDocument } from '../api';

const required = requiredRule();

export function AsrDocumentFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id) || null;
  const [params] = useSearchParams();
  const existing = useQuery({ ...asrQueries.detail(id ?? 0), enabled: !!id });
  const processes = useQuery(processQueries.list());
  const save = useSaveAsrDocument();
  const [processId, setProcessId] = useState(params.get('processId') ?? '');
  const [filename, setFilename] = useState('');
  const [submitted, setSubmitted] = useState(false);
  useEffect(() => {
    if (existing.data) {
      setProcessId(String(existing.data.processId));
      setFilename(existing.data.filename);
    }
  }, [existing.data]);
  const processViolation = required(processId);
  const filenameViolation = id ? documentFilenameRule(filename) : null;
  const listPath = `/entity/asr-document${processId ? `?processId=${processId}` : ''}`;
  const back = () => navigate(listPath);

  if (id && existing.isPending) return <DelayedSpinner label={t('global.common.loading')} />;
  return (
    <div className="container py-3" style={{ maxWidth: 640 }} data-testid="asr-document-form">
      <h2 className="h4 mb-3">
        {t(id ? 'soaApp.asrDocument.home.editLabel' : 'soaApp.asrDocument.home.createLabel')}
      </h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
          if (processViolation || filenameViolation) return;
          save.mutate({ ...(id ? { id } : {}), processId: Number(processId), filename }, { onSuccess: back });
        }}
      >
        {id && (
          <Field id="asr-id" label={t('soaApp.asrDocument.id')} violation={null} show={false}>
            <input id="asr-id" className="form-control" value={id} readOnly />
          </Field>
        )}
        <Field
          id="asr-process"
          label={t('soaApp.asrDocument.process')}
          violation={processViolation}
          show={submitted}
        >
          <select
            id="asr-process"
            className={inputClass(processViolation, submitted, 'form-select')}
            value={processId}
            disabled={!!id}
            onChange={(e) => setProcessId(e.target.value)}
            data-testid="asr-document-form-process"
          >
            <option value="">{t('soaApp.asrDocument.home.chooseProcess')}</option>
            {(processes.data ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </Field>
        <Field
          id="asr-filename"
          label={t('soaApp.asrDocument.filename')}
          violation={filenameViolation}
          show={submitted}
          help={id ? undefined : t('soaApp.asrDocument.newHelp')}
        >
          <input
            id="asr-filename"
            className={inputClass(filenameViolation, submitted)}
            value={filename}
            onChange={(e) => setFilename(e.target.value)}
            placeholder="asr-document.wav"
            data-testid="asr-document-form-filename"
          />
        </Field>
        <div className="d-flex gap-2">
          <Link to={listPath} className="btn btn-outline-secondary" data-testid="asr-document-form-cancel">
            {t('global.common.cancel')}
          </Link>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={save.isPending}
            data-testid="asr-document-form-save"
          >
            {t('global.common.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
