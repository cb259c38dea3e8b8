/** An asr document (/entity/asr-document/{id}): its utterances in list order, each with its actor and tokens. */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { processQueries } from '../../processes/api';
import { asrQueries } from '../api';
import { formatClock } from '../../speech/components/UtteranceList';

/** mm:ss of a time in ms. */

export function AsrDocumentDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const doc = useQuery(asrQueries.detail(id));
  const utterances = useQuery(asrQueries.utterances(id));
  const process = useQuery({ ...processQueries.detail(doc.data?.processId ?? 0), enabled: !!doc.data });
  /** The process actor's name, else the code (ARTIFACT, or an actor the process no longer has). */
  const actorName = (code: string) => process.data?.actors.find((a) => a.actor === code)?.name ?? code;
  // the actors' names come with the process: wait for it so that codes do not flash first
  if (doc.isPending || utterances.isPending || (doc.isSuccess && process.isPending))
    return <DelayedSpinner label={t('global.common.loading')} />;
  if (doc.isError)
    return <div className="alert alert-danger m-3">{t('soaApp.asrDocument.home.notFound')}</div>;
  return (
    <div className="container py-3" data-testid="asr-document-detail">
      <h2 className="h4">
        {t('soaApp.asrDocument.detail.title')} {doc.data.id}
      </h2>
      <dl className="row mb-3">
        <dt className="col-sm-2">{t('soaApp.asrDocument.process')}</dt>
        <dd className="col-sm-10">{process.data?.name ?? doc.data.processId}</dd>
        <dt className="col-sm-2">{t('soaApp.asrDocument.filename')}</dt>
        <dd className="col-sm-10">{doc.data.filename}</dd>
      </dl>
      <h3 className="h5">{t('soaApp.asrDocument.detail.utterances')}</h3>
      {!utterances.data?.length ? (
        <div className="alert alert-secondary" data-testid="asr-document-no-utterances">
          {t('soaApp.asrDocument.detail.noUtterances')}
        </div>
      ) : (
        <ol className="list-group list-group-numbered mb-3">
          {utterances.data.map((u) => (
            <li key={u.id} className="list-group-item d-flex gap-3" data-testid="asr-utterance">
              <span className="badge text-bg-secondary align-self-start" data-testid="asr-utterance-actor">
                {actorName(u.actor)}
              </span>
              <span className="text-body-secondary small align-self-start">
                {formatClock(u.tokens[0]?.tsStart ?? null)}
              </span>
              <span data-testid="asr-utterance-tokens">{u.tokens.map((k) => k.value).join(' ')}</span>
            </li>
          ))}
        </ol>
      )}
      <div className="d-flex gap-2">
        <Link
          to={`/entity/asr-document?processId=${doc.data.processId}`}
          className="btn btn-outline-secondary"
        >
          {t('soaApp.asrDocument.action.back')}
        </Link>
        <Link to={`/entity/asr-document/${id}/edit`} className="btn btn-primary">
          {t('soaApp.asrDocument.action.edit')}
        </Link>
      </div>
    </div>
  );
}
