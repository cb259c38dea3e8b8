/**
 * The RAG query screen (/entity/process/{processId}/rag; spec 3 "RAG", section 5 "RAG query"): the query, the
 * LLM model (required), the process's secret (clearable; inactive ones disabled), topK (clamped 1..10, empty
 * becomes 1), the similarity threshold (clamped 0..1 on the 0.05 grid) and the temperature (0..2, min/max
 * messages); the answer below, errors in a danger alert, the matched documents in a side panel. With ADMIN
 * on the process a Programmer options button opens the template modal.
 *
 * Every reader of the process picks among its secrets: GET api/secrets lists names and active flags (never
 * the values) with READ on the process.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { modeSatisfies, type AccessMode, type Violation } from '@domain';
import { SETTINGS_LIMITS } from '@domain/node-settings';
import { ragQueryViolations } from '@domain/rag';
import { RAG_SIMILARITY, RAG_TOP_K } from '@domain/rag-types';
import { Field, inputClass } from '../../../components/FormField';
import { IconArrowLeft, IconSparkle } from '../../../components/icons';
import { useSession } from '../../account/session';
import { llmModelQueries } from '../../llm-models/api';
import { processQueries, useProcessAccessMode } from '../../processes/api';
import { secretQueries } from '../../secrets/api';
import { managementQueries, profileFlags } from '../../shell/api';
import { useRagQuery } from '../api';
import { INITIAL_RAG_FORM, ragQueryOf, ragSimilarity, ragTopK, type RagForm } from '../form';
import { RagOffNotice } from './RagOffNotice';
import { RagAnswer, RagMatchedDocuments } from './RagResults';
import { RagTemplateModal } from './RagTemplateModal';
import '../rag.css';

const ADMIN_ONLY: readonly AccessMode[] = ['ADMIN'];
const TEMPERATURE = SETTINGS_LIMITS.temperature;

export function RagPage() {
  const { t } = useTranslation();
  const processId = Number(useParams().processId);
  const { principal } = useSession();
  const isAdmin = modeSatisfies(useProcessAccessMode(principal, processId, ADMIN_ONLY).mode, 'ADMIN');
  const process = useQuery(processQueries.detail(processId));
  const { data: info } = useQuery(managementQueries.info());
  const models = useQuery(llmModelQueries.list());
  const secrets = useQuery(secretQueries.list(processId));
  const rag = useRagQuery();
  const [form, setForm] = useState<RagForm>(INITIAL_RAG_FORM);
  const [modelTouched, setModelTouched] = useState(false);
  const [templateOpen, setTemplateOpen] = useState(false);

  const patch = (p: Partial<RagForm>) => setForm((f) => ({ ...f, ...p }));
  const query = ragQueryOf(form, processId);
  const violations = ragQueryViolations({ ...query, llmModel: form.llmModelId ? query.llmModel : null });
  const violation = (field: string) => violations.find((v) => v.field === field)?.violation ?? null;
  const invalid = violations.length > 0 || form.query.trim() === '';
  const profileOff = !!info && !profileFlags(info).rag;
  const ragOff = !!process.data && (!process.data.isRagEnabled || profileOff);

  const submit = () => {
    if (invalid || rag.isPending) return;
    patch({ topK: String(query.topK), similarityThreshold: String(query.similarityThreshold) });
    rag.mutate(query);
  };

  return (
    <div className="container-xxl py-4 page" data-testid="rag-page">
      <div className="page-header d-flex flex-wrap align-items-center gap-3 mb-3">
        <Link to="/entity/process" className="btn btn-outline-secondary btn-sm" data-testid="rag-back">
          <IconArrowLeft className="me-1" />
          {t('global.common.back')}
        </Link>
        <div className="me-auto">
          <h1 className="h3 mb-0">{t('soaApp.rag.home.title')}</h1>
          <p className="text-body-secondary mb-0 small" data-testid="rag-process-name">
            {process.data ? process.data.name : '\u00a0'}
          </p>
        </div>
        {isAdmin && (
          <button
            type="button"
            className="btn btn-outline-primary"
            onClick={() => setTemplateOpen(true)}
            data-testid="rag-programmer-options"
          >
            {t('soaApp.rag.home.programmerOptions')}
          </button>
        )}
      </div>

      {ragOff && <RagOffNotice processId={processId} profileOff={profileOff} canEnable={isAdmin} />}

      <div className="row g-4">
        <div className="col-lg-8">
          <form
            className="card shadow-sm border-0 mb-4"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
            data-testid="rag-form"
          >
            <div className="card-body">
              <Field id="rag-query" label={t('soaApp.rag.field.query')} violation={null} show={false}>
                <textarea
                  id="rag-query"
                  className="form-control"
                  rows={4}
                  value={form.query}
                  placeholder={t('soaApp.rag.field.queryPlaceholder')}
                  onChange={(e) => patch({ query: e.target.value })}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                      e.preventDefault();
                      submit();
                    }
                  }}
                  data-testid="rag-query"
                />
              </Field>
              <div className="row g-3">
                <Field
                  id="rag-llm-model"
                  className="col-md-6 mb-3"
                  label={t('soaApp.rag.field.llmModel')}
                  violation={violation('llmModel')}
                  show={modelTouched}
                >
                  <select
                    id="rag-llm-model"
                    className={inputClass(violation('llmModel'), modelTouched, 'form-select')}
                    value={form.llmModelId}
                    onChange={(e) => {
                      setModelTouched(true);
                      patch({ llmModelId: e.target.value });
                    }}
                    onBlur={() => setModelTouched(true)}
                    data-testid="rag-llm-model"
                  >
                    <option value="">{t('soaApp.rag.field.choose')}</option>
                    {(models.data ?? []).map((m) => (
                      <option key={m.id} value={m.id}>
                        {m.name}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field
                  id="rag-secret"
                  className="col-md-6 mb-3"
                  label={t('soaApp.rag.field.secret')}
                  violation={null}
                  show={false}
                >
                  <select
                    id="rag-secret"
                    className="form-select"
                    value={form.secretId}
                    onChange={(e) => patch({ secretId: e.target.value })}
                    data-testid="rag-secret"
                  >
                    <option value="">{t('soaApp.rag.field.noSecret')}</option>
                    {(secrets.data ?? []).map((s) => (
                      <option key={s.id} value={s.id} disabled={!s.active}>
                        {s.active ? s.name : t('soaApp.rag.field.inactiveSecret', { name: s.name })}
                      </option>
                    ))}
                  </select>
                </Field>
              </div>
              <div className="row g-3">
                <NumberField
                  id="rag-top-k"
                  label={t('soaApp.rag.field.topK')}
                  value={form.topK}
                  limits={{ ...RAG_TOP_K, step: 1 }}
                  onChange={(topK) => patch({ topK })}
                  onBlur={() => patch({ topK: String(ragTopK(form.topK)) })}
                />
                <NumberField
                  id="rag-similarity"
                  label={t('soaApp.rag.field.similarityThreshold')}
                  value={form.similarityThreshold}
                  limits={RAG_SIMILARITY}
                  onChange={(similarityThreshold) => patch({ similarityThreshold })}
                  onBlur={() =>
                    patch({ similarityThreshold: String(ragSimilarity(form.similarityThreshold)) })
                  }
                />
                <NumberField
                  id="rag-temperature"
                  label={t('soaApp.rag.field.temperature')}
                  value={form.temperature}
                  limits={{ ...TEMPERATURE, step: 0.01 }}
                  violation={violation('temperature')}
                  onChange={(temperature) => patch({ temperature })}
                />
              </div>
            </div>
            <div className="card-footer bg-transparent d-flex align-items-center gap-3">
              <button
                type="submit"
                className="btn btn-primary"
                disabled={invalid || rag.isPending}
                data-testid="rag-submit"
              >
                {rag.isPending ? (
                  <span
                    className="spinner-border spinner-border-sm me-2"
                    aria-hidden="true"
                    data-testid="rag-spinner"
                  />
                ) : (
                  <IconSparkle className="me-1" />
                )}
                {t('soaApp.rag.home.submit')}
              </button>
              <span className="small text-body-secondary">{t('soaApp.rag.home.submitHint')}</span>
            </div>
          </form>
          <RagAnswer mutation={rag} />
        </div>
        <div className="col-lg-4">
          <RagMatchedDocuments
            processId={processId}
            query={rag.variables?.query ?? ''}
            response={rag.data ?? null}
            pending={rag.isPending}
          />
        </div>
      </div>

      {templateOpen && <RagTemplateModal processId={processId} onClose={() => setTemplateOpen(false)} />}
    </div>
  );
}

function NumberField({
  id,
  label,
  value,
  limits,
  violation = null,
  onChange,
  onBlur,
}: {
  id: string;
  label: string;
  value: string;
  limits: { min: number; max: number; step: number };
  violation?: Violation | null;
  onChange: (value: string) => void;
  onBlur?: () => void;
}) {
  return (
    <Field id={id} className="col-sm-4 mb-0" label={label} violation={violation} show>
      <input
        id={id}
        type="number"
        className={inputClass(violation, true)}
        min={limits.min}
        max={limits.max}
        step={limits.step}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        data-testid={id}
      />
    </Field>
  );
}
