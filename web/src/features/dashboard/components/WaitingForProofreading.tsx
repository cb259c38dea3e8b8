/**
 * The dashboard's notice of documents held at file parsers (issue 29 section 2): "waiting for proofreading at
 * <node>" with the count per parser node (`GET api/processes/{id}/waiting-for-proofreading`), so a new
 * administrator sees why no document reaches the next nodes; "Show them" filters the list to those steps.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { http } from '../../../api/client';

interface HeldAtParser {
  nodeId: number;
  nodeName: string;
  count: number;
  capped: boolean;
}

export function WaitingForProofreading({
  processId,
  onShow,
}: {
  processId: number;
  onShow: (nodeId: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const held = useQuery({
    queryKey: ['waiting-for-proofreading', processId],
    queryFn: ({ signal }) =>
      http.get<HeldAtParser[]>(`api/processes/${processId}/waiting-for-proofreading`, {
        signal,
        silent: true,
      }),
    refetchInterval: 30_000,
  });
  if (!held.data?.length) return null;
  return (
    <section
      className="alert alert-info m-3 mb-0 py-2 small"
      aria-label={t('dashboard.proofreading.title')}
      data-testid="waiting-for-proofreading"
    >
      <ul className="list-unstyled mb-1">
        {held.data.map((h) => (
          <li key={h.nodeId} className="d-flex flex-wrap align-items-center gap-2">
            <span>
              {t('dashboard.proofreading.waiting', {
                node: h.nodeName,
                n: `${h.capped ? '> ' : ''}${h.count.toLocaleString(i18n.language)}`,
              })}
            </span>
            <button type="button" className="btn btn-link btn-sm p-0" onClick={() => onShow(h.nodeId)}>
              {t('dashboard.proofreading.show', { node: h.nodeName })}
            </button>
          </li>
        ))}
      </ul>
      <div className="text-body-secondary">{t('dashboard.proofreading.why')}</div>
    </section>
  );
}
