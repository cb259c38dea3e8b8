/**
 * LLM models management (issue 15 section 4), for system administrators: the models the LLM prompt nodes,
 * the LLM external configurations and RAG choose from. List with modalities, create and edit in a dialog
 * (name required, at most 100, unique; modalities as chips), delete after a confirmation.
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { llmModelNameRule, modalitiesRule } from '@domain/integrations';
import type { LlmModelDTO } from '@domain/integration-types';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DelayedSpinner } from '../../components/DelayedSpinner';
import { ViolationMessage, inputClass } from '../../components/FormField';
import { IconPencil, IconPlus, IconSparkle, IconTrash } from '../../components/icons';
import { Modal } from '../../components/Modal';
import { llmModelQueries, useDeleteLlmModel, useSaveLlmModel, type LlmModelInput } from './api';

const SUGGESTED_MODALITIES = ['text', 'image', 'audio'];

function ModelDialog({
  model,
  names,
  onClose,
}: {
  model: LlmModelInput;
  names: string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveLlmModel();
  const [name, setName] = useState(model.name);
  const [modalities, setModalities] = useState(model.modalities);
  const [draft, setDraft] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const nameViolation = llmModelNameRule(
    name,
    names.filter((n) => n !== model.name),
  );
  const modalitiesViolation = modalitiesRule(modalities);

  const add = (value: string) => {
    const v = value.trim();
    if (v && !modalities.includes(v)) setModalities([...modalities, v]);
    setDraft('');
  };
  const onDraftKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add(draft);
    }
  };
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitted(true);
    if (nameViolation || modalitiesViolation) return;
    save.mutate({ id: model.id, name: name.trim(), modalities }, { onSuccess: onClose });
  };

  return (
    <Modal
      title={model.id === undefined ? t('llmModels.createTitle') : t('llmModels.editTitle')}
      onClose={onClose}
      testId="llm-model-dialog"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => submit()}
            disabled={save.isPending || (submitted && !!(nameViolation || modalitiesViolation))}
            data-testid="llm-model-save"
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <form onSubmit={submit} noValidate>
        <div className="mb-3">
          <label htmlFor="llm-model-name" className="form-label">
            {t('llmModels.name')}
          </label>
          <input
            id="llm-model-name"
            className={inputClass(nameViolation, submitted)}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoFocus
            data-testid="llm-model-name"
          />
          {submitted && nameViolation && (
            <ViolationMessage violation={nameViolation} testId="llm-model-name-error" />
          )}
        </div>
        <div>
          <label htmlFor="llm-model-modality" className="form-label">
            {t('llmModels.modalities')}
          </label>
          <div className="d-flex flex-wrap gap-2 mb-2" data-testid="llm-model-modalities">
            {modalities.map((m) => (
              <span
                key={m}
                className="badge rounded-pill text-bg-light border d-inline-flex align-items-center gap-1"
              >
                {m}
                <button
                  type="button"
                  className="btn-close btn-close-sm"
                  style={{ fontSize: '0.55rem' }}
                  aria-label={t('llmModels.removeModality', { modality: m })}
                  onClick={() => setModalities(modalities.filter((x) => x !== m))}
                />
              </span>
            ))}
          </div>
          <input
            id="llm-model-modality"
            className="form-control"
            value={draft}
            placeholder={t('llmModels.modalityPlaceholder')}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onDraftKey}
            onBlur={() => add(draft)}
            data-testid="llm-model-modality"
          />
          <div className="d-flex gap-2 mt-2">
            {SUGGESTED_MODALITIES.filter((m) => !modalities.includes(m)).map((m) => (
              <button
                key={m}
                type="button"
                className="btn btn-sm btn-outline-secondary"
                onClick={() => add(m)}
                data-testid={`llm-model-suggest-${m}`}
              >
                + {m}
              </button>
            ))}
          </div>
          <div className="form-text">{t('llmModels.modalitiesHelp')}</div>
        </div>
      </form>
    </Modal>
  );
}

export function LlmModelsPage() {
  const { t } = useTranslation();
  const models = useQuery(llmModelQueries.list());
  const remove = useDeleteLlmModel();
  const [editing, setEditing] = useState<LlmModelInput | null>(null);
  const [deleting, setDeleting] = useState<LlmModelDTO | null>(null);
  const rows = [...(models.data ?? [])].sort((a, b) => a.name.localeCompare(b.name));

  return (
    <div className="container py-4" style={{ maxWidth: 960 }} data-testid="llm-models-page">
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0 me-auto d-flex align-items-center gap-2">
          <IconSparkle size={22} /> {t('llmModels.title')}
        </h1>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setEditing({ name: '', modalities: ['text'] })}
          data-testid="llm-models-create"
        >
          <IconPlus className="me-1" />
          {t('llmModels.create')}
        </button>
      </div>
      <p className="text-body-secondary">{t('llmModels.intro')}</p>
      <div className="card shadow-sm border-0">
        {models.isPending ? (
          <DelayedSpinner label={t('global.common.loading')} testId="llm-models-loading" />
        ) : rows.length === 0 ? (
          <p className="p-4 mb-0 text-body-secondary">{t('llmModels.empty')}</p>
        ) : (
          <table className="table align-middle mb-0" data-testid="llm-models-table">
            <thead>
              <tr>
                <th>{t('llmModels.name')}</th>
                <th>{t('llmModels.modalities')}</th>
                <th>
                  <span className="visually-hidden">{t('llmModels.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.id} data-testid="llm-model-row" data-name={m.name}>
                  <td className="fw-semibold">{m.name}</td>
                  <td>
                    {m.modalities.length === 0 ? (
                      <span className="text-body-secondary small">{t('llmModels.noModalities')}</span>
                    ) : (
                      m.modalities.map((x) => (
                        <span key={x} className="badge rounded-pill text-bg-light border me-1">
                          {x}
                        </span>
                      ))
                    )}
                  </td>
                  <td className="text-end text-nowrap">
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-secondary me-2"
                      onClick={() => setEditing({ id: m.id, name: m.name, modalities: [...m.modalities] })}
                      aria-label={t('llmModels.edit', { name: m.name })}
                      data-testid="llm-model-edit"
                    >
                      <IconPencil />
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-outline-danger"
                      onClick={() => setDeleting(m)}
                      aria-label={t('llmModels.delete', { name: m.name })}
                      data-testid="llm-model-delete"
                    >
                      <IconTrash />
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {editing && (
        <ModelDialog model={editing} names={rows.map((r) => r.name)} onClose={() => setEditing(null)} />
      )}
      {deleting && (
        <ConfirmModal
          danger
          title={t('llmModels.deleteTitle')}
          pending={remove.isPending}
          testId="llm-model-delete-modal"
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
        >
          {t('llmModels.deleteQuestion', { name: deleting.name })}
        </ConfirmModal>
      )}
    </div>
  );
}
