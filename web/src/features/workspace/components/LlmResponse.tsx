/**
 * The work of an LLM prompt step (spec 2 section 2, the work accordion's LLM prompt section): the step's
 * latest chat response (GET api/llm-chat-responses?documentId, which lists those of the nodes the user may
 * read, oldest first), with the prompt that produced it folded away below, and how many runs there were.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { workspaceQueries } from '../api';

export function LlmResponse({ documentId, stepId }: { documentId: number; stepId: number }) {
  const { t, i18n } = useTranslation();
  const responses = useQuery(workspaceQueries.llmResponses(documentId));
  const ofStep = (responses.data ?? []).filter((r) => r.stepId === stepId);
  const latest = ofStep.at(-1);

  return (
    <details className="ws-work" open data-testid="llm-response">
      <summary className="ws-work-title">{t('workspace.work.llm.title')}</summary>
      {responses.isPending ? (
        <p className="small text-body-secondary mb-0">{t('workspace.work.loading')}</p>
      ) : responses.isError ? (
        <p className="small text-danger mb-0">{t('workspace.work.failed')}</p>
      ) : !latest ? (
        <p className="small text-body-secondary mb-0" data-testid="llm-response-empty">
          {t('workspace.work.llm.none')}
        </p>
      ) : (
        <>
          <p className="small text-body-secondary mb-1">
            {t('workspace.work.llm.answered', {
              date: new Date(latest.createdDate).toLocaleString(i18n.language),
              count: ofStep.length,
            })}
          </p>
          <div className="ws-work-text" data-testid="llm-response-text">
            {latest.response}
          </div>
          <details className="mt-1">
            <summary className="small">{t('workspace.work.llm.prompt')}</summary>
            <div className="ws-work-text small" data-testid="llm-response-prompt">
              {latest.prompt}
            </div>
          </details>
        </>
      )}
    </details>
  );
}
