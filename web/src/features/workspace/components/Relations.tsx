/**
 * Relations in the LABELING view (issue 12 section 1), everything but the state (../hooks/useRelations.ts):
 * - the arcs over the text (RelationsLayer) and the relation menu (RelationMenu);
 * - the relations panel beside the text, shown once there is a graph or a draft: the draft's relations
 *   (held until saved; each removable), the translated validation message above the buttons, Create (a new
 *   graph) or Edit (an existing graph), enabled only when the API says the draft is valid and the step is
 *   editable, and Cancel; then the saved graphs, each relation removable and each graph deletable after a
 *   confirmation (removing the only relation of a saved graph warns that the graph goes too). READ sees the
 *   controls disabled;
 * - the 'cannot remove tag' modal, offered when deleting a tag that has relations, which leads to its graph;
 * - for process writers (`onReportIssue`), a 'report a problem' icon on every relation, saved or a candidate,
 *   which opens the issue form on a RELATION issue (fromId, toId, relationTypeId).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagDTO } from '@domain/tags';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { IconComment } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import type { RelationsController } from '../hooks/useRelations';
import type { IssueDraft } from './IssueForm';
import { relationMessageKey } from '../hooks/useRelations';
import { relationMatches, unrelatedTagIds } from '../relations';
import '../relations.css';
import { RelationMenu } from './RelationMenu';
import { RelationsLayer } from './RelationsLayer';

const excerpt = (text: string, tag: NerTagDTO | undefined) => {
  if (!tag || tag.startOffset === null || tag.endOffset === null) return '?';
  const s = text.slice(tag.startOffset, tag.endOffset);
  return s.length > 24 ? `${s.slice(0, 23)}…` : s;
};

type RelationLike = { fromId: number; toId: number; relationTypeId: number };

export function Relations({
  rel,
  root,
  text,
  tagsById,
  highlightUnrelated,
  version,
  onReportIssue,
}: {
  rel: RelationsController;
  root: React.RefObject<HTMLDivElement | null>;
  text: string;
  tagsById: ReadonlyMap<number, NerTagDTO>;
  highlightUnrelated: boolean;
  version: unknown;
  /** process WRITE: raise a RELATION issue on a relation (absent: no icon) */
  onReportIssue?: (draft: IssueDraft) => void;
}) {
  const { t } = useTranslation();
  const panelRef = useRef<HTMLDivElement>(null);
  const unrelated = useMemo(
    () => (highlightUnrelated ? unrelatedTagIds(tagsById.keys(), rel.graphs) : null),
    [highlightUnrelated, tagsById, rel.graphs],
  );
  const [search, setSearch] = useState('');
  // Built once per text, tags, types and language, so that the list of the saved graphs (up to thousands of
  // rows) is not drawn again at each render of the labelling view (scrolling redraws it).
  const typesById = rel.typesById;
  const { typeName, tagText, pair, reportButton } = useMemo(() => {
    const typeName = (id: number) => typesById.get(id)?.name ?? `#${id}`;
    const tagText = (id: number) => {
      const tag = tagsById.get(id);
      return tag && tag.startOffset !== null
        ? text.slice(tag.startOffset, tag.endOffset ?? tag.startOffset)
        : '';
    };
    const typeColor = (id: number) => typesById.get(id)?.color ?? '#6c757d';
    const pair = (fromId: number, toId: number, typeId: number) => (
      <>
        <span className="ws-rel-tag">“{excerpt(text, tagsById.get(fromId))}”</span>
        <span className="ws-rel-type" style={{ borderColor: typeColor(typeId), color: typeColor(typeId) }}>
          {typeName(typeId)}
        </span>
        <span className="ws-rel-tag">“{excerpt(text, tagsById.get(toId))}”</span>
      </>
    );

    const reportButton = (r: RelationLike) =>
      onReportIssue && (
        <button
          type="button"
          className="btn btn-sm btn-link text-body-secondary p-0"
          title={t('workspace.issues.reportRelation')}
          aria-label={t('workspace.issues.reportRelation')}
          onClick={(e) => {
            const box = e.currentTarget.getBoundingClientRect();
            onReportIssue({
              x: box.left,
              y: box.bottom + 4,
              anchor: { relation: { fromId: r.fromId, toId: r.toId, relationTypeId: r.relationTypeId } },
              subject: `${tagText(r.fromId)} → ${tagText(r.toId)} (${typeName(r.relationTypeId)})`,
            });
          }}
          data-testid="relation-report-issue"
        >
          <IconComment />
        </button>
      );
    return { typeName, tagText, pair, reportButton };
  }, [text, tagsById, typesById, onReportIssue, t]);

  useEffect(() => {
    if (rel.focusGraphId === null) return;
    panelRef.current
      ?.querySelector(`[data-graph-id="${rel.focusGraphId}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [rel.focusGraphId]);

  const { graphs, focusGraphId, canEditGraph, askRemoveGraph, askRemoveRelation } = rel;
  const graphList = useMemo(
    () =>
      graphs.map((g, gi) => (
        <section
          key={g.id}
          className={`ws-rel-graph${focusGraphId === g.id ? ' is-focused' : ''}`}
          data-testid="relation-graph"
          data-graph-id={g.id}
        >
          <div className="d-flex align-items-center small fw-semibold">
            {t('workspace.relations.graph', { n: gi + 1, count: g.relations.length })}
            <button
              type="button"
              className="btn btn-sm btn-link text-danger p-0 ms-auto"
              disabled={!canEditGraph(g.id)}
              onClick={() => askRemoveGraph(g.id)}
              data-testid="relation-graph-delete"
            >
              {t('workspace.relations.deleteGraph')}
            </button>
          </div>
          <ul className="list-unstyled mb-0">
            {g.relations
              .filter((r) =>
                relationMatches(search, [typeName(r.relationTypeId), tagText(r.fromId), tagText(r.toId)]),
              )
              .map((r) => (
                <li key={r.id} className="ws-rel-row" data-testid="relation-row" data-relation-id={r.id}>
                  {pair(r.fromId, r.toId, r.relationTypeId)}
                  <span className="ms-auto" />
                  {reportButton(r)}
                  <button
                    type="button"
                    className="btn btn-sm btn-link text-danger p-0"
                    disabled={!canEditGraph(g.id)}
                    onClick={() => askRemoveRelation(g.id, r.id)}
                    data-testid="relation-remove"
                    title={t('workspace.relations.removeRelation')}
                  >
                    ×
                  </button>
                </li>
              ))}
          </ul>
        </section>
      )),
    [
      graphs,
      search,
      focusGraphId,
      canEditGraph,
      askRemoveGraph,
      askRemoveRelation,
      typeName,
      tagText,
      pair,
      reportButton,
      t,
    ],
  );

  const draft = rel.draft;
  const showPanel = !!draft || rel.graphs.length > 0;
  const m = rel.menu;
  const c = rel.confirm;

  return (
    <>
      <RelationsLayer
        root={root}
        arcs={rel.arcs}
        typesById={rel.typesById}
        unrelated={unrelated}
        version={version}
        onArcClick={rel.openArc}
      />
      {showPanel && (
        <aside className="ws-relations" ref={panelRef} data-testid="relations-panel">
          <h2 className="h6 mb-1">{t('workspace.relations.title')}</h2>
          {rel.graphs.length > 0 && (
            <input
              type="search"
              className="form-control form-control-sm"
              placeholder={t('workspace.relations.search')}
              aria-label={t('workspace.relations.search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              data-testid="relation-search"
            />
          )}
          {draft && (
            <section
              className="ws-rel-draft"
              data-testid="relation-draft"
              data-graph-id={draft.graphId ?? ''}
            >
              <div className="small fw-semibold">
                {t(
                  draft.graphId === null ? 'workspace.relations.draftNew' : 'workspace.relations.draftEdit',
                  {
                    id: draft.graphId,
                  },
                )}
              </div>
              <ul className="list-unstyled mb-1">
                {draft.relations.map((r, i) => (
                  <li key={i} className="ws-rel-row" data-testid="draft-relation">
                    {pair(r.fromId, r.toId, r.relationTypeId)}
                    <span className="ms-auto" />
                    {reportButton(r)}
                    <button
                      type="button"
                      className="btn btn-sm btn-link text-danger p-0"
                      onClick={() => rel.removeDraftRelation(i)}
                      disabled={!rel.editable}
                      data-testid="draft-relation-remove"
                      title={t('workspace.relations.removeRelation')}
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ul>
              <div
                className={`small mb-1 ${rel.validation?.valid ? 'text-success' : 'text-danger'}`}
                data-testid="relation-validation"
                data-valid={rel.validation ? String(rel.validation.valid) : ''}
              >
                {rel.validation === null
                  ? t('workspace.relations.validating')
                  : rel.validation.valid
                    ? t('workspace.relations.valid')
                    : t(relationMessageKey(rel.validation.message ?? 'error.graph.noCohesive'))}
              </div>
              <div className="d-flex gap-1">
                <button
                  type="button"
                  className="btn btn-sm btn-primary"
                  disabled={!rel.canEditGraph(draft.graphId) || !rel.validation?.valid || rel.saving}
                  onClick={() => void rel.save()}
                  data-testid={draft.graphId === null ? 'relation-create' : 'relation-edit'}
                >
                  {t(draft.graphId === null ? 'workspace.relations.create' : 'workspace.relations.edit')}
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  onClick={rel.cancel}
                  data-testid="relation-cancel"
                >
                  {t('workspace.relations.cancel')}
                </button>
              </div>
            </section>
          )}
          {graphList}
        </aside>
      )}
      {m && (
        <RelationMenu
          x={m.x}
          y={m.y}
          purpose={m.target.kind === 'new' ? 'new' : 'change'}
          fromText={excerpt(text, tagsById.get(m.fromId))}
          toText={excerpt(text, tagsById.get(m.toId))}
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
              text: excerpt(text, tagsById.get(rel.blockedTagId)),
            })}
          </p>
        </Modal>
      )}
    </>
  );
}
