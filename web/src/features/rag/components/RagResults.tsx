/**
 * What a RAG query answered: the LLM's response (or the failure, in a danger alert with the details of the
 * response), and the side panel of matched documents, each chunk (its passage where the query's words meet,
 * ../passage.ts) with its score and a link into the workspace at its place (`?start=&end=`, which the text workspace scrolls to and highlights).
 */
import type { UseMutationResult } from '@tanstack/react-query';
import { Fragment, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { RagQuery, RagResponse } from '@domain/rag-types';
import { errorDetailOf, errorMessages } from '../../../api/errors';
import { IconFile } from '../../../components/icons';
import { rangeSearch } from '../../workspace/textRange';
import { passageParts, queryTerms } from '../passage';

export function RagAnswer({ mutation }: { mutation: UseMutationResult<RagResponse, Error, RagQuery> }) {
  const { t } = useTranslation();
  const messages = mutation.isError ? errorMessages(t, mutation.error) : [];
  const detail = mutation.isError ? errorDetailOf(mutation.error) : null;
  return (
    <section className="card shadow-sm border-0" aria-live="polite" data-testid="rag-response-area">
      <div className="card-header bg-transparent fw-semibold">{t('soaApp.rag.response.title')}</div>
      <div className="card-body">
        {mutation.isError ? (
          <div className="alert alert-danger mb-0" role="alert" data-testid="rag-error">
            {messages.map((m) => (
              <div key={m}>{m}</div>
            ))}
            {detail && !messages.includes(detail) && <div className="small mt-1">{detail}</div>}
          </div>
        ) : mutation.isPending ? (
          <p className="text-body-secondary mb-0">{t('soaApp.rag.response.pending')}</p>
        ) : mutation.data ? (
          <div className="rag-answer" data-testid="rag-response">
            {mutation.data.llmResponse}
          </div>
        ) : (
          <p className="text-body-secondary mb-0" data-testid="rag-response-empty">
            {t('soaApp.rag.response.empty')}
          </p>
        )}
      </div>
    </section>
  );
}

export function RagMatchedDocuments({
  processId,
  query,
  response,
  pending,
}: {
  processId: number;
  /** The query that was answered (its words are marked in the passages). */
  query: string;
  response: RagResponse | null;
  pending: boolean;
}) {
  const { t } = useTranslation();
  const terms = useMemo(() => queryTerms(query), [query]);
  const documents = response?.matchedDocuments ?? [];
  return (
    <aside className="card shadow-sm border-0 rag-matches" data-testid="rag-matches">
      <div className="card-header bg-transparent fw-semibold d-flex align-items-center">
        <span className="me-auto">{t('soaApp.rag.matches.title')}</span>
        {response && <span className="badge text-bg-light">{documents.length}</span>}
      </div>
      {!response || pending ? (
        <div className="card-body text-body-secondary small">
          {t(pending ? 'soaApp.rag.response.pending' : 'soaApp.rag.matches.before')}
        </div>
      ) : documents.length === 0 ? (
        <div className="card-body text-body-secondary small" data-testid="rag-matches-empty">
          {t('soaApp.rag.matches.none')}
        </div>
      ) : (
        <ul className="list-group list-group-flush">
          {documents.map((d) => (
            <li key={d.docId} className="list-group-item" data-testid="rag-match" data-document-id={d.docId}>
              <div className="d-flex align-items-center gap-2 mb-2">
                <IconFile className="text-body-secondary flex-shrink-0" />
                <Link
                  to={`/entity/process/${processId}/document/${d.docId}`}
                  className="fw-medium text-truncate"
                  title={d.filename}
                  data-testid="rag-match-filename"
                >
                  {d.filename}
                </Link>
              </div>
              {d.chunks.map((c) => (
                <Link
                  key={c.id}
                  to={`/entity/process/${processId}/document/${d.docId}${rangeSearch({
                    start: c.startOffset,
                    end: c.endOffset,
                  })}`}
                  className="rag-chunk"
                  title={t('soaApp.rag.matches.open')}
                  data-testid="rag-chunk"
                  data-start={c.startOffset}
                  data-end={c.endOffset}
                >
                  <span className="rag-chunk-text" data-testid="rag-chunk-text">
                    {passageParts(c.text, terms).map((p, i) =>
                      p.mark ? <mark key={i}>{p.text}</mark> : <Fragment key={i}>{p.text}</Fragment>,
                    )}
                  </span>
                  <span className="rag-chunk-meta">
                    <span className="badge text-bg-primary" data-testid="rag-chunk-score">
                      {t('soaApp.rag.matches.score', { score: c.score.toFixed(2) })}
                    </span>
                    <span className="text-body-secondary">
                      {t('soaApp.rag.matches.place', { start: c.startOffset, end: c.endOffset })}
                    </span>
                  </span>
                </Link>
              ))}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
