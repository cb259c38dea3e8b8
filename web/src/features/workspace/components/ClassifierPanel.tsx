/**
 * CLASSIFYING mode's panel (issue 11): the classifier types of the step's node (GET
 * api/node/{nodeId}/classifier-types) as toggles, on for the classes the document has at that node (GET
 * api/classifier-tags). When the step is editable a toggle saves the class (POST api/classifier-tags) or
 * removes it (DELETE api/classifier-tags/{id}); completing the step then routes the document by them.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { shortcutSequence, shortcutText } from '@domain/label-shortcuts';
import { useLabelHotkeys, type StepLabels } from '../hooks/useLabelHotkeys';
import { HotkeyLegend, Keys } from './HotkeyLegend';
import { useTranslation } from 'react-i18next';
import { tagCalls, tagKeys, tagQueries } from '../tagsApi';

export function ClassifierPanel({
  documentId,
  nodeId,
  editable,
  hotkeys,
}: {
  documentId: number;
  nodeId: number;
  editable: boolean;
  /** The node's classifier types with keys: typing them toggles the class (label hotkeys). */
  hotkeys: StepLabels;
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

  const latestToggle = useRef(toggle);
  latestToggle.current = toggle;
  const pending = useLabelHotkeys(hotkeys.labels, editable && busy === null, (label) => {
    void latestToggle.current(label.id);
  });
  const keysOf = new Map(hotkeys.labels.map((l) => [l.id, l]));

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
      {editable && <HotkeyLegend labels={hotkeys.labels} conflicts={hotkeys.conflicts} pending={pending} />}
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
                {keysOf.has(type.id) && (
                  <span
                    className={`ms-1${hotkeys.conflicts.has(type.id) ? ' text-decoration-line-through' : ''}`}
                    aria-label={t('workspace.hotkeys.keysOf', { keys: shortcutText(type) })}
                    data-testid="classifier-keys"
                  >
                    <Keys keys={shortcutSequence(type)} />
                  </span>
                )}
              </button>
            );
          })}
        </div>
      )}
    </section>
  );
}
