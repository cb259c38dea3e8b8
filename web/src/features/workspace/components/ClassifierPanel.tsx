/**
 * CLASSIFYING mode's panel (issue 11): the classifier types of the step's node (GET
 * api/node/{nodeId}/classifier-types) as toggles, on for the classes the document has at that node (GET
 * api/classifier-tags). When the step is editable a toggle saves the class (POST api/classifier-tags) or
 * removes it (DELETE api/classifier-tags/{id}); completing the step then routes the document by them.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tagCalls, tagKeys, tagQueries } from '../tagsApi';

export function ClassifierPanel({
  documentId,
  nodeId,
  editable,
}: {
  documentId: number;
  nodeId: number;
  editable: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const types = useQuery(tagQueries.classifierTypes(nodeId));
  const tags = useQuery(tagQueries.classifierTags(documentId));
  const [busy, setBusy] = useState<number | null>(null);
  const own = (tags.data ?? []).filter((x) => x.nodeId === nodeId);

  const toggle = async (typeId: number) => {
    const existing = own.find((x) => x.classifierTypeId === typeId);
    setBusy(typeId);
    try {
      if (existing) await tagCalls.unclassify(existing.id);
      else await tagCalls.classify(documentId, typeId);
    } catch {
      // The client has shown the API's message.
    } finally {
      setBusy(null);
      await queryClient.invalidateQueries({ queryKey: tagKeys.classifierTags(documentId) });
    }
  };

  return (
    <section
      className="ws-classifier"
      data-testid="classifier-panel"
      aria-label={t('workspace.classifying.title')}
    >
      <div className="d-flex align-items-baseline gap-2 mb-1">
        <strong className="small">{t('workspace.classifying.title')}</strong>
        <span className="small text-body-secondary">
          {editable ? t('workspace.classifying.hint') : t('workspace.classifying.readOnly')}
        </span>
      </div>
      {types.isPending ? (
        <span className="small text-body-secondary">{t('workspace.loading')}</span>
      ) : !types.data?.length ? (
        <span className="small text-body-secondary" data-testid="classifier-empty">
          {t('workspace.classifying.noTypes')}
        </span>
      ) : (
        <div className="d-flex flex-wrap gap-2">
          {types.data.map((type) => {
            const on = own.some((x) => x.classifierTypeId === type.id);
            return (
              <button
                key={type.id}
                type="button"
                className={`btn btn-sm ws-class${on ? ' ws-class-on' : ''}`}
                aria-pressed={on}
                disabled={!editable || busy !== null}
                onClick={() => void toggle(type.id)}
                data-testid="classifier-type"
                data-type-id={type.id}
                data-on={on}
                title={type.description ?? undefined}
              >
                <span className="ws-label-swatch" style={{ background: type.backgroundColor }} />
                {type.name}
                {on && <span aria-hidden="true"> ✓</span>}
              </button>
            );
          })}
        </div>
      )}
    </section>
  );
}
