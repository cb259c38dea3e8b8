/**
 * Why queries of this screen will be refused: the rag profile is off on the server, or the Sphere's RAG is
 * off. A Sphere administrator can turn the Sphere's RAG on here, with its text splitter
 * (`PUT api/processes/{id}/rag`; the API then indexes the Sphere's DONE documents).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { splitterQueries, useSetProcessRag } from '../../processes/api';

export function RagOffNotice({
  processId,
  profileOff,
  canEnable,
}: {
  processId: number;
  profileOff: boolean;
  canEnable: boolean;
}) {
  const { t } = useTranslation();
  const enabling = canEnable && !profileOff;
  const splitters = useQuery({ ...splitterQueries.list(), enabled: enabling });
  const enable = useSetProcessRag();
  const [splitterId, setSplitterId] = useState('');
  return (
    <div
      className="alert alert-warning d-flex flex-wrap align-items-center gap-2"
      role="status"
      data-testid="rag-off"
    >
      <span className="me-auto">{t(profileOff ? 'error.rag.profileOff' : 'error.rag.processOff')}</span>
      {enabling && (
        <>
          <select
            className="form-select form-select-sm w-auto"
            aria-label={t('soaApp.process.form.splitter')}
            value={splitterId}
            onChange={(e) => setSplitterId(e.target.value)}
            data-testid="rag-enable-splitter"
          >
            <option value="">{t('soaApp.process.form.splitterDefault')}</option>
            {(splitters.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-sm btn-warning"
            disabled={enable.isPending}
            onClick={() =>
              enable.mutate({
                id: processId,
                isRagEnabled: true,
                ragTextSplitter: splitterId ? { id: Number(splitterId) } : null,
              })
            }
            data-testid="rag-enable"
          >
            {t('soaApp.rag.home.enable')}
          </button>
        </>
      )}
    </div>
  );
}
