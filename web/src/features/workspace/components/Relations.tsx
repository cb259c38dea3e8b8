/**
 * Relations in the LABELING view (issue 12 section 1), everything but the state (../hooks/useRelations.ts):
 * - the arcs over the text (RelationsLayer; absent in the relation graph window, which has no text) and the
 *   relation menu (RelationMenu);
 * - the relations panel (./RelationsPanel.tsx: the graph view, the list with its search and the
 *   create/edit/cancel panel), shown once there is a graph or a draft (always in the window);
 * - the confirmations of removing a relation, the only relation of a graph (the graph goes too) or a graph;
 * - the 'cannot remove tag' modal, offered when deleting a tag that has relations, which leads to its graph
 *   in the graph view.
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { Modal } from '../../../components/Modal';
import { excerpt, unrelatedTagIds } from '../relations';
import '../relations.css';
import { RelationMenu } from './RelationMenu';
import { RelationsLayer } from './RelationsLayer';
import { RelationsPanel, type RelationsPanelProps } from './RelationsPanel';

/** Whether the relations panel is shown: standalone, or with a candidate or graphs to show. */
export const relationsPanelShown = (panel: Pick<RelationsPanelProps, 'standalone' | 'rel'>): boolean =>
  !!panel.standalone || !!panel.rel.draft || panel.rel.graphs.length > 0;

export function Relations({
  root,
  highlightUnrelated = false,
  version,
  ...panel
}: RelationsPanelProps & {
  /** the text the arcs are drawn over (absent: no arcs) */
  root?: React.RefObject<HTMLDivElement | null>;
  highlightUnrelated?: boolean;
  version?: unknown;
}) {
  const { t } = useTranslation();
  const { rel, tagText, tagsById } = panel;
  const unrelated = useMemo(
    () => (highlightUnrelated ? unrelatedTagIds(tagsById.keys(), rel.graphs) : null),
    [highlightUnrelated, tagsById, rel.graphs],
  );
  const showPanel = relationsPanelShown(panel);
  const m = rel.menu;
  const c = rel.confirm;

  return (
    <>
      {root && (
        <RelationsLayer
          root={root}
          arcs={rel.arcs}
          typesById={rel.typesById}
          unrelated={unrelated}
          version={version}
          onArcClick={rel.openArc}
        />
      )}
      {showPanel && <RelationsPanel {...panel} />}
      {m && (
        <RelationMenu
          x={m.x}
          y={m.y}
          purpose={m.target.kind === 'new' ? 'new' : 'change'}
          fromText={excerpt(tagText(m.fromId))}
          toText={excerpt(tagText(m.toId))}
          candidates={m.candidates}
          message={m.message}
          onChoose={rel.choose}
          onClose={rel.closeMenu}
        />
      )}
      {c && (
        <ConfirmModal
          danger
          title={t(
            c.kind === 'graph'
              ? 'workspace.relations.confirmGraphTitle'
              : 'workspace.relations.confirmRelationTitle',
          )}
          onConfirm={() => void rel.confirmRemoval()}
          onClose={rel.cancelConfirm}
          testId="relation-confirm"
        >
          <p className="mb-0" data-testid="relation-confirm-text" data-kind={c.kind}>
            {t(`workspace.relations.confirm.${c.kind}`)}
          </p>
        </ConfirmModal>
      )}
      {rel.blockedTagId !== null && (
        <Modal
          title={t('workspace.relations.cannotRemoveTitle')}
          onClose={rel.closeBlocked}
          testId="cannot-remove-tag"
          footer={
            <>
              <button type="button" className="btn btn-outline-secondary" onClick={rel.closeBlocked}>
                {t('global.common.close')}
              </button>
              <button
                type="button"
                className="btn btn-primary"
                onClick={rel.goToGraph}
                data-testid="cannot-remove-tag-graph"
              >
                {t('workspace.relations.goToGraph')}
              </button>
            </>
          }
        >
          <p className="mb-0">
            {t('workspace.relations.cannotRemoveBody', {
              text: excerpt(tagText(rel.blockedTagId)),
            })}
          </p>
        </Modal>
      )}
    </>
  );
}
