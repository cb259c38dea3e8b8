/**
 * The work of an LLM prompt step (spec 2 section 2, the work accordion's LLM prompt section): the step's
 * latest chat response (GET api/llm-chat-responses?documentId, which lists those of the nodes the user may
 * read, oldest first), with the prompt that produced it folded away below, and how many runs there were.
 * With WRITE on the node (what `POST api/llm-prompt-step/{id}/rerun` asks) the prompt can be edited and sent
 * again (the issue 11 rerun of an LLM prompt step): the answer is stored as the step's newest response.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { higherMode, modeSatisfies, nodeMode, type AccessMode } from '@domain';
import { http } from '../../../api/client';
import { errorMessages } from '../../../api/errors';
import { useSession } from '../../account/session';
import { useProcessAccessMode } from '../../processes/api';
import { workspaceKeys, workspaceQueries } from '../api';

const WRITE_ONLY: readonly AccessMode[] = ['WRITE'];

export function LlmResponse({
  documentId,
  stepId,
  nodeId,
  processId,
}: {
  documentId: number;
  stepId: number;
  nodeId: number;
  processId: number;
}) {
  const { t, i18n } = useTranslation();
  const { principal } = useSession();
  const processAccess = useProcessAccessMode(principal, processId, WRITE_ONLY);
  const canRerun = modeSatisfies(
    higherMode(principal ? nodeMode(principal, nodeId, processId) : null, processAccess.mode),
    'WRITE',
  );
  const queryClient = useQueryClient();
  const responses = useQuery(workspaceQueries.llmResponses(documentId));
  const ofStep = (responses.data ?? []).filter((r) => r.stepId === stepId);
  const latest = ofStep.at(-1);
  const [prompt, setPrompt] = useState<string | null>(null);
  const rerun = useMutation({
    mutationFn: (text: string) => http.post(`api/llm-prompt-step/${stepId}/rerun`, { prompt: text }),
    onSuccess: async () => {
      setPrompt(null);
      await queryClient.invalidateQueries({ queryKey: workspaceKeys.llmResponses(documentId) });
    },
  });

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
      {canRerun && !responses.isPending && prompt === null && (
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary mt-2"
          onClick={() => {
            rerun.reset();
            setPrompt(latest?.prompt ?? '');
          }}
          data-testid="llm-rerun-open"
        >
          {t('workspace.work.llm.rerun')}
        </button>
      )}
      {canRerun && prompt !== null && (
        <form
          className="mt-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (prompt.trim()) rerun.mutate(prompt);
          }}
        >
          <label className="form-label small mb-1" htmlFor={`llm-rerun-${stepId}`}>
            {t('workspace.work.llm.rerunPrompt')}
          </label>
          <textarea
            id={`llm-rerun-${stepId}`}
            className="form-control form-control-sm"
            rows={4}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            disabled={rerun.isPending}
            data-testid="llm-rerun-prompt"
          />
          {rerun.isError && (
            <p className="small text-danger mb-0 mt-1" role="alert" data-testid="llm-rerun-error">
              {errorMessages(t, rerun.error).join(' ')}
            </p>
          )}
          <div className="d-flex gap-2 mt-1">
            <button
              type="submit"
              className="btn btn-sm btn-primary"
              disabled={rerun.isPending || !prompt.trim()}
              data-testid="llm-rerun-send"
            >
              {rerun.isPending ? t('workspace.work.llm.rerunning') : t('workspace.work.llm.rerunSend')}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              disabled={rerun.isPending}
              onClick={() => setPrompt(null)}
            >
              {t('workspace.work.llm.rerunCancel')}
            </button>
          </div>
        </form>
      )}
    </details>
  );
}
