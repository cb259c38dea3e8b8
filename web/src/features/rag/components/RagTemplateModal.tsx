/**
 * The RAG template modal (spec 3 "RAG template modal", section 5): the process's template (its own or the
 * default) in a plain editor with the RAG wildcards offered; Save is enabled only when the template is valid
 * (both the RAG input and the RAG documents wildcards) and changed; Reset to default deletes the process's own
 * template (enabled only when it has one).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ragTemplateRule } from '@domain/rag';
import { availableWildcards } from '@domain/wildcards';
import { Modal } from '../../../components/Modal';
import { plainEditorState } from '../../nodes/components/TemplateField';
import { WildcardEditor } from '../../nodes/components/WildcardEditor';
import { ragQueries, useResetRagTemplate, useSaveRagTemplate } from '../api';

const WILDCARDS = availableWildcards({ context: 'rag' });

export function RagTemplateModal({ processId, onClose }: { processId: number; onClose: () => void }) {
  const { t } = useTranslation();
  const loaded = useQuery(ragQueries.template(processId));
  const save = useSaveRagTemplate(processId);
  const reset = useResetRagTemplate(processId);
  // The text being edited; null: the loaded template as it is.
  const [draft, setDraft] = useState<string | null>(null);
  const stored = loaded.data;
  const text = draft ?? stored?.template ?? '';
  const violation = ragTemplateRule(text);
  const changed = !!stored && text !== stored.template;
  const busy = save.isPending || reset.isPending;

  const onSave = () => {
    if (!stored || violation || !changed) return;
    save.mutate(
      { ...stored, template: text, templateEditorState: plainEditorState(text), active: true },
      { onSuccess: onClose },
    );
  };
  const onReset = () => {
    if (stored?.id == null) return;
    reset.mutate(stored.id, { onSuccess: () => setDraft(null) });
  };

  return (
    <Modal
      title={t('soaApp.ragTemplate.creatorModal.title')}
      onClose={onClose}
      size="lg"
      testId="rag-template-modal"
      closeTestId="rag-template-close"
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline-danger me-auto"
            disabled={busy || stored?.id == null}
            onClick={onReset}
            data-testid="rag-template-reset"
          >
            {t('soaApp.ragTemplate.creatorModal.reset')}
          </button>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || !!violation || !changed}
            onClick={onSave}
            data-testid="rag-template-save"
          >
            {save.isPending && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <p className="small text-body-secondary">{t('soaApp.ragTemplate.creatorModal.help')}</p>
      {loaded.isPending ? (
        <div className="text-center p-4">
          <div
            className="spinner-border text-primary"
            role="status"
            aria-label={t('global.common.loading')}
          />
        </div>
      ) : loaded.isError ? (
        <div className="alert alert-danger mb-0">{t('soaApp.ragTemplate.creatorModal.loadError')}</div>
      ) : (
        <>
          {stored && (
            <p className="small mb-2" data-testid="rag-template-kind">
              <span className={`badge ${stored.id == null ? 'text-bg-secondary' : 'text-bg-info'}`}>
                {t(
                  stored.id == null
                    ? 'soaApp.ragTemplate.creatorModal.isDefault'
                    : 'soaApp.ragTemplate.creatorModal.isCustom',
                )}
              </span>
            </p>
          )}
          <WildcardEditor
            id="rag-template"
            label={t('soaApp.ragTemplate.creatorModal.template')}
            value={text}
            onChange={setDraft}
            wildcards={WILDCARDS}
            violation={violation}
            disabled={busy}
            rows={12}
            wildcardsOpen
            testId="rag-template-text"
          />
        </>
      )}
    </Modal>
  );
}
