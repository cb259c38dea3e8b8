/**
 * The dry run beside the predicate editor (issue 29 section 3): while a predicate is drafted (once it could
 * be saved), how many of the process's last 1,000 documents would take each branch leaving the edge's
 * from-node with their current tags, and the first few of each (`POST api/edges/{id}/predicate-dry-run`).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { EdgeDTO } from '@domain/graph-types';
import { errorMessages } from '../../../api/errors';
import { useDebounced } from '../../../components/hooks';
import { predicateQueries } from '../api';
import { canSave, toInput, type PredicateDraft } from '../predicateDraft';

export function PredicateDryRun({
  edge,
  draft,
  nodeName,
}: {
  edge: EdgeDTO;
  draft: PredicateDraft;
  nodeName: (id: number) => string;
}) {
  const { t } = useTranslation();
  const input = useDebounced(canSave(draft) ? toInput(draft, edge.id) : null, 300);
  const run = useQuery({
    ...predicateQueries.dryRun(edge.id, input ?? { edgeId: edge.id, predicateType: 'COMPLEX' }),
    enabled: input !== null,
  });
  if (input === null) return null;
  return (
    <section
      className="graph-predicate-dry-run small border-top pt-2 mt-2"
      aria-label={t('soaApp.graph.predicate.dryRun.title')}
      aria-busy={run.isFetching}
    >
      <div className="fw-semibold">{t('soaApp.graph.predicate.dryRun.title')}</div>
      {run.isError ? (
        <p className="text-danger mb-0" role="alert">
          {errorMessages(t, run.error).join(' ')}
        </p>
      ) : !run.data ? (
        <p className="text-body-secondary mb-0">{t('global.common.loading')}</p>
      ) : (
        <>
          <p className="text-body-secondary mb-1">
            {t('soaApp.graph.predicate.dryRun.evaluated', { count: run.data.evaluated })}
          </p>
          <ul className="list-unstyled mb-0">
            {run.data.branches.map((b) => (
              <li key={b.edgeId ?? 'none'} className={b.edgeId === edge.id ? 'fw-semibold' : undefined}>
                {b.toNodeId === null
                  ? t('soaApp.graph.predicate.dryRun.none', { count: b.count })
                  : t(
                      b.edgeId === edge.id
                        ? 'soaApp.graph.predicate.dryRun.thisBranch'
                        : 'soaApp.graph.predicate.dryRun.branch',
                      {
                        node: nodeName(b.toNodeId),
                        count: b.count,
                      },
                    )}
                {b.documents.length > 0 && (
                  <span className="fw-normal text-body-secondary">
                    {' '}
                    (
                    {b.documents.map((d, i) => (
                      <span key={d.id}>
                        {i > 0 && ', '}
                        <Link to={`/entity/process/${edge.processId}/documents/${d.id}`}>{d.name}</Link>
                      </span>
                    ))}
                    {b.count > b.documents.length && ', …'})
                  </span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
