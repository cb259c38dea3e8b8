/**
 * The Agreement section of CLF, SPAN and LEXICON panels (issue 31 section 2; docs/api-agreement.md): a date
 * range, then `GET api/nodes/{id}/agreement` as tables: the overall figures, the annotator pairs as a heat map
 * of Cohen's kappa, the per-label span F1 and unitizing alpha, the documents with the lowest agreement first
 * (each opens in the workspace), and a CSV download of the figures. Process administrators only (the route's
 * access).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { agreementCsv, type AgreementReport } from '@domain/agreement-report';
import { monthBefore } from '@domain/export';
import { request } from '../../../api/client';
import { saveBlob } from '../../labels/api';

type Answer = AgreementReport & {
  nodeId: number;
  from: string;
  to: string;
  users: { id: number; login: string }[];
};

const todayUtc = () => new Date().toISOString().slice(0, 10);
const fmt = (v: number | null | undefined) => (v === null || v === undefined ? null : v.toFixed(3));

/** Red (disagreement) to green (agreement) for a figure in [-1, 1]. */
function heat(v: number | null): string {
  if (v === null) return 'transparent';
  const x = Math.max(0, Math.min(1, (v + 1) / 2));
  return `hsl(${Math.round(x * 120)}, 70%, 80%)`;
}

export function AgreementSection({ nodeId, processId }: { nodeId: number; processId: number }) {
  const { t } = useTranslation();
  const today = todayUtc();
  const [from, setFrom] = useState(monthBefore(today));
  const [to, setTo] = useState(today);
  const [asked, setAsked] = useState<{ from: string; to: string } | null>(null);
  const answer = useQuery({
    queryKey: ['nodes', nodeId, 'agreement', asked],
    queryFn: async () =>
      (await request<Answer>(`api/nodes/${nodeId}/agreement`, { query: { ...asked! }, timeoutMs: 60_000 }))
        .data,
    enabled: asked !== null,
  });
  const none = t('soaApp.nodePanel.agreement.none');
  const show = (v: number | null | undefined) => fmt(v) ?? none;
  const r = answer.data;
  const login = (id: number) => r?.users.find((u) => u.id === id)?.login ?? String(id);

  return (
    <div className="d-flex flex-column gap-2" data-testid="agreement">
      <p className="small text-body-secondary mb-0">{t('soaApp.nodePanel.agreement.help')}</p>
      <form
        className="row g-2 align-items-end"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked({ from, to });
        }}
      >
        {(['from', 'to'] as const).map((field) => (
          <div className="col-4" key={field}>
            <label className="form-label small mb-1" htmlFor={`agreement-${field}-${nodeId}`}>
              {t(`soaApp.nodePanel.agreement.${field}`)}
            </label>
            <input
              id={`agreement-${field}-${nodeId}`}
              type="date"
              className="form-control form-control-sm"
              value={field === 'from' ? from : to}
              onChange={(e) => (field === 'from' ? setFrom : setTo)(e.target.value)}
            />
          </div>
        ))}
        <div className="col-4">
          <button type="submit" className="btn btn-sm btn-outline-primary" aria-busy={answer.isFetching}>
            {answer.isFetching
              ? t('soaApp.nodePanel.agreement.loading')
              : t('soaApp.nodePanel.agreement.show')}
          </button>
        </div>
      </form>
      {r && (
        <>
          <table className="table table-sm mb-1">
            <caption className="caption-top small fw-semibold text-body">
              {t('soaApp.nodePanel.agreement.overall')}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t('soaApp.nodePanel.agreement.measure')}</th>
                <th scope="col">{t('soaApp.nodePanel.agreement.value')}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">{t('soaApp.nodePanel.agreement.documents')}</th>
                <td>{r.documents}</td>
              </tr>
              <tr>
                <th scope="row">{t('soaApp.nodePanel.agreement.leftOut')}</th>
                <td>{r.leftOut}</td>
              </tr>
              {r.cohenKappa && (
                <>
                  <tr>
                    <th scope="row">{t('soaApp.nodePanel.agreement.fleiss')}</th>
                    <td>{show(r.fleissKappa)}</td>
                  </tr>
                  <tr>
                    <th scope="row">{t('soaApp.nodePanel.agreement.alpha')}</th>
                    <td>{show(r.krippendorffAlpha)}</td>
                  </tr>
                </>
              )}
            </tbody>
          </table>
          {r.documents === 0 && <p className="small mb-0">{t('soaApp.nodePanel.agreement.noData')}</p>}
          {r.cohenKappa && r.cohenKappa.length > 0 && <PairHeatMap answer={r} login={login} show={show} />}
          {r.spanF1 && r.spanF1.length > 0 && (
            <table className="table table-sm mb-1">
              <caption className="caption-top small fw-semibold text-body">
                {t('soaApp.nodePanel.agreement.labels')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('soaApp.nodePanel.agreement.label')}</th>
                  <th scope="col">{t('soaApp.nodePanel.agreement.exact')}</th>
                  <th scope="col">{t('soaApp.nodePanel.agreement.overlap')}</th>
                  <th scope="col">{t('soaApp.nodePanel.agreement.unitizing')}</th>
                </tr>
              </thead>
              <tbody>
                {r.spanF1.map((f) => (
                  <tr key={f.label}>
                    <th scope="row">{f.label}</th>
                    <td>{show(f.exact)}</td>
                    <td>{show(f.overlap)}</td>
                    <td>{show(r.unitizingAlpha?.find((u) => u.label === f.label)?.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {r.lowest.length > 0 && (
            <table className="table table-sm mb-1">
              <caption className="caption-top small fw-semibold text-body">
                {t('soaApp.nodePanel.agreement.lowest')}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t('soaApp.nodePanel.agreement.document')}</th>
                  <th scope="col">{t('soaApp.nodePanel.agreement.docAgreement')}</th>
                </tr>
              </thead>
              <tbody>
                {r.lowest.map((d) => (
                  <tr key={d.documentId}>
                    <td>
                      <Link
                        to={`/entity/process/${processId}/document/${d.documentId}`}
                        aria-label={t('soaApp.nodePanel.agreement.open', { name: d.filename })}
                      >
                        {d.filename}
                      </Link>
                    </td>
                    <td>{show(d.value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              onClick={() =>
                saveBlob(
                  new Blob([agreementCsv(r, login)], { type: 'text/csv' }),
                  `agreement-node-${nodeId}-${r.from}_${r.to}.csv`,
                )
              }
            >
              {t('soaApp.nodePanel.agreement.csv')}
            </button>
          </div>
        </>
      )}
    </div>
  );
}

/** Cohen's kappa of every pair of annotators as a square table coloured by the figure. */
function PairHeatMap({
  answer,
  login,
  show,
}: {
  answer: Answer;
  login: (id: number) => string;
  show: (v: number | null | undefined) => string;
}) {
  const { t } = useTranslation();
  const ids = answer.users.map((u) => u.id);
  const kappa = (a: number, b: number) =>
    answer.cohenKappa?.find((k) => (k.userA === a && k.userB === b) || (k.userA === b && k.userB === a));
  return (
    <table className="table table-sm table-bordered mb-1 text-center">
      <caption className="caption-top small fw-semibold text-body">
        {t('soaApp.nodePanel.agreement.heatmap')}
      </caption>
      <thead>
        <tr>
          <td />
          {ids.map((id) => (
            <th scope="col" key={id}>
              {login(id)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {ids.map((a) => (
          <tr key={a}>
            <th scope="row">{login(a)}</th>
            {ids.map((b) => {
              const k = a === b ? undefined : kappa(a, b);
              return (
                <td
                  key={b}
                  style={{ background: heat(k?.value ?? null) }}
                  title={k ? `${t('soaApp.nodePanel.agreement.pairDocuments')}: ${k.documents}` : undefined}
                >
                  {a === b ? '' : k ? show(k.value) : ''}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
