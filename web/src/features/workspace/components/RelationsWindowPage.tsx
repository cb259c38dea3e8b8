/**
 * The relation graph in a window of its own (opened 800x600 from the relations panel; spec 2 sections 2
 * and 9): /entity/process/{processId}/document/{documentId}/relations?step={stepId}&graph={graphId}. The
 * document's relations as that step sees them: the graph view (the graph asked for first), the relation list
 * with its search and the create/edit/cancel panel, with the workspace's rules (the same hook), and the
 * confirmations. Kept in step with the workspace that opened it (hooks/useRelationsChannel): a save here
 * refetches there and the other way round, and a tag's card chosen here is selected in the workspace's text.
 * A recording's window (AUDIOFILE) shows its token and time-span tags by their words (the transcript).
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import type { DocumentStateDTO } from '@domain/document-state-types';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { workspaceQueries } from '../api';
import { useRelations } from '../hooks/useRelations';
import { useRelationsChannel } from '../hooks/useRelationsChannel';
import { useStepAccess } from '../hooks/useStepAccess';
import { transcriptQueries } from '../../speech/transcriptApi';
import { transcriptTagTexts } from '../../speech/transcript';
import { parseId, resolveSelectedStep } from '../model';
import { spanTexts } from '../relations';
import { tagQueries } from '../tagsApi';
import { Relations } from './Relations';
import '../workspace.css';

export function RelationsWindowPage() {
  const { t } = useTranslation();
  const params = useParams();
  const [search] = useSearchParams();
  const documentId = parseId(params.documentId) ?? 0;
  const stepId = parseId(search.get('step') ?? undefined);
  const graphId = parseId(search.get('graph') ?? undefined);
  const state = useQuery({ ...workspaceQueries.state(documentId), enabled: documentId > 0 });
  if (state.isPending)
    return (
      <div className="ws-center">
        <DelayedSpinner label={t('workspace.loading')} testId="relations-window-loading" />
      </div>
    );
  if (!state.data)
    return (
      <p className="alert alert-danger m-3" data-testid="workspace-not-found">
        {t('workspace.notFound')}
      </p>
    );
  return <RelationsWindow state={state.data} stepId={stepId} graphId={graphId} />;
}

function RelationsWindow({
  state,
  stepId,
  graphId,
}: {
  state: DocumentStateDTO;
  stepId: number | null;
  graphId: number | null;
}) {
  const { t } = useTranslation();
  const documentId = state.document.id;
  const step = resolveSelectedStep(state, stepId);
  const { editable } = useStepAccess(state, step);
  const audio = state.document.documentType === 'AUDIOFILE';
  const document = useQuery({ ...workspaceQueries.document(documentId), enabled: !audio });
  const utterances = useQuery({ ...transcriptQueries.utterances(documentId), enabled: audio });
  const tagsQuery = useQuery(tagQueries.ner(documentId));
  const tagsById = useMemo(
    () =>
      new Map(
        (tagsQuery.data ?? [])
          .filter((x) =>
            audio
              ? x.type !== 'SPAN_TAG'
              : x.type === 'SPAN_TAG' && x.startOffset !== null && x.endOffset !== null,
          )
          .map((x) => [x.id, x]),
      ),
    [tagsQuery.data, audio],
  );
  const text = document.data?.content?.content ?? '';
  const tagText = useMemo(
    () =>
      audio ? transcriptTagTexts(utterances.data ?? [], [...tagsById.values()]) : spanTexts(text, tagsById),
    [audio, utterances.data, text, tagsById],
  );
  const rel = useRelations({ documentId, nodeId: step?.nodeId ?? 0, editable });
  const [selectedTagId, setSelectedTagId] = useState<number | null>(null);
  const announce = useRelationsChannel(documentId);
  const onSelectTag = useCallback(
    (tagId: number) => {
      setSelectedTagId(tagId);
      announce({ kind: 'selectTag', tagId });
    },
    [announce],
  );
  return (
    <div
      className="ws-relations-window"
      data-testid="relations-window"
      data-document-id={documentId}
      data-editable={editable}
    >
      <h1 className="visually-hidden">{t('workspace.relations.view.windowTitle')}</h1>
      {(audio ? utterances.isPending : document.isPending) || tagsQuery.isPending ? (
        <DelayedSpinner label={t('workspace.loading')} testId="relations-window-loading" />
      ) : (
        <Relations
          rel={rel}
          tagText={tagText}
          tagsById={tagsById}
          selectedTagId={selectedTagId}
          onSelectTag={onSelectTag}
          standalone
          initialChoice={graphId}
        />
      )}
    </div>
  );
}
