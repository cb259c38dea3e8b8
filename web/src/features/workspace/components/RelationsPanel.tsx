/**
 * The relations panel (issue 12 section 1; spec 2 sections 2 and 4): the relation graph view, the relation
 * list with its search, and the create/edit/cancel panel of the draft. Shown beside the text of the
 * LABELING view (./Relations.tsx), full screen, and alone in the relation graph window
 * (./RelationsWindowPage.tsx, `standalone`).
 * - The graph view (./RelationGraphView.tsx) shows one graph at a time, chosen in the chooser (the saved
 *   graphs, and a new graph's draft); a draft is shown in place of the graph it edits, its candidates
 *   dashed, and opening a draft shows it. Beside the text the 'Graph' toggle shows it above the list; full
 *   screen and the window show it beside the list. A card selects its tag, a label its relation in the list.
 * - The list: the draft's relations (held until saved; each removable), the translated validation message
 *   above the buttons, Create (a new graph) or Edit (an existing graph), enabled only when the API says the
 *   draft is valid and the step is editable, and Cancel; then the saved graphs, each relation removable and
 *   each graph deletable after a confirmation. READ sees the controls disabled.
 * - For process writers (`onReportIssue`), a 'report a problem' icon on every relation, saved or a
 *   candidate, which opens the issue form on a RELATION issue.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagDTO } from '@domain/tags';
import { IconComment, IconCompress, IconExpand, IconExternal } from '../../../components/icons';
import { useFullScreen } from '../hooks/useFullScreen';
import { toolButton as tool } from './ToolButton';
import type { RelationsController } from '../hooks/useRelations';
import { relationMessageKey } from '../hooks/useRelations';
import { useSessionState } from '../hooks/useSessionState';
import { arcsOfChoice, graphOptions, shownChoice, type GraphChoice } from '../relationFlow';
import { excerpt, relationMatches, type TagTexts } from '../relations';
import type { IssueDraft } from './IssueForm';
import { RelationGraphView } from './RelationGraphView';

type RelationLike = { fromId: number; toId: number; relationTypeId: number };

export interface RelationsPanelProps {
  rel: RelationsController;
  /** what the views show of a tag (covered text or words; ../relations.ts TagTexts) */
  tagText: TagTexts;
  tagsById: ReadonlyMap<number, NerTagDTO>;
  /** process WRITE: raise a RELATION issue on a relation (absent: no icon) */
  onReportIssue?: (draft: IssueDraft) => void;
  /** the tag selected in the text (marked in the graph) */
  selectedTagId: number | null;
  /** a tag's card chosen in the graph */
  onSelectTag: (tagId: number) => void;
  /** the relation graph window's address for a graph (absent: no window button) */
  windowUrl?: (choice: GraphChoice | null) => string;
  onOpenWindow?: (url: string) => void;
  /** alone in the relation graph window: the graph always shown, beside the list */
  standalone?: boolean;
  /** the graph shown first */
  initialChoice?: GraphChoice | null;
}

export function RelationsPanel({
  rel,
  tagText,
  tagsById,
  onReportIssue,
  selectedTagId,
  onSelectTag,
  windowUrl,
  onOpenWindow,
  standalone = false,
  initialChoice = null,
}: RelationsPanelProps) {
  const { t } = useTranslation();
  const panelRef = useRef<HTMLElement>(null);
  const [search, setSearch] = useState('');
  const [graphOn, setGraphOn] = useSessionState('workspace.relationGraph', false);
  const [asked, setAsked] = useState<GraphChoice | null>(initialChoice);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const { full, enter, exit } = useFullScreen(() => document.documentElement);
  const showGraph = standalone || full || graphOn;

  const { graphs, draft, focusGraphId, canEditGraph, askRemoveGraph, askRemoveRelation } = rel;
  const options = useMemo(() => graphOptions(graphs, draft), [graphs, draft]);
  const choice = shownChoice(options, asked, draft);
  const arcs = useMemo(() => arcsOfChoice(rel.arcs, choice), [rel.arcs, choice]);

  // The 'cannot remove tag' modal's graph, and a draft when it opens, are shown in the graph view.
  useEffect(() => {
    if (!rel.graphViewRequest) return;
    setGraphOn(true);
    setAsked(rel.graphViewRequest.graphId);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per request
  }, [rel.graphViewRequest]);
  const draftChoice = draft ? (draft.graphId ?? 'new') : null;
  useEffect(() => {
    if (draftChoice !== null) setAsked(draftChoice);
  }, [draftChoice]);

  useEffect(() => {
    if (focusGraphId === null) return;
    panelRef.current
      ?.querySelector(`[data-graph-id="${focusGraphId}"]`)
      ?.scrollIntoView({ block: 'nearest' });
  }, [focusGraphId]);
  useEffect(() => {
    if (selectedKey === null) return;
    panelRef.current?.querySelector(`[data-arc-key="${selectedKey}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selectedKey]);

  // Built once per tag texts, types and language, so that the list of the saved graphs (up to thousands of
  // rows) is not drawn again at each render of the labelling view (scrolling redraws it).
  const typesById = rel.typesById;
  const { typeName, pair, reportButton, removeButton } = useMemo(() => {
    const typeName = (id: number) => typesById.get(id)?.name ?? `#${id}`;
    const typeColor = (id: number) => typesById.get(id)?.color ?? '#6c757d';
    const pair = (fromId: number, toId: number, typeId: number) => (
      <>
        <span className="ws-rel-tag">“{excerpt(tagText(fromId))}”</span>
        <span className="ws-rel-type" style={{ borderColor: typeColor(typeId), color: typeColor(typeId) }}>
          {typeName(typeId)}
        </span>
        <span className="ws-rel-tag">“{excerpt(tagText(toId))}”</span>
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
    const removeButton = (onClick: () => void, disabled: boolean, testId: string) => (
      <button
        type="button"
        className="btn btn-sm btn-link text-danger p-0"
        disabled={disabled}
        onClick={onClick}
        data-testid={testId}
        title={t('workspace.relations.removeRelation')}
        aria-label={t('workspace.relations.removeRelation')}
      >
        ×
      </button>
    );
    return { typeName, pair, reportButton, removeButton };
  }, [tagText, typesById, onReportIssue, t]);

  const rowClass = useCallback(
    (key: string) => `ws-rel-row${selectedKey === key ? ' is-selected' : ''}`,
    [selectedKey],
  );

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
                <li
                  key={r.id}
                  className={rowClass(`r${r.id}`)}
                  data-testid="relation-row"
                  data-relation-id={r.id}
                  data-arc-key={`r${r.id}`}
                >
                  {pair(r.fromId, r.toId, r.relationTypeId)}
                  <span className="ms-auto" />
                  {reportButton(r)}
                  {removeButton(() => askRemoveRelation(g.id, r.id), !canEditGraph(g.id), 'relation-remove')}
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
      removeButton,
      rowClass,
      t,
    ],
  );

  const linkable = rel.editable && canEditGraph(typeof choice === 'number' ? choice : null);
  const onLink = useCallback(
    (fromId: number, toId: number, x: number, y: number) => {
      const from = tagsById.get(fromId);
      const to = tagsById.get(toId);
      if (from && to) rel.link(from, to, x, y);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [tagsById, rel.link],
  );
  const optionLabel = (o: (typeof options)[number]) =>
    (o.choice === 'new'
      ? t('workspace.relations.draftNew')
      : t('workspace.relations.graph', { n: o.n, count: o.count })) +
    (o.draft && o.choice !== 'new' ? ` (${t('workspace.relations.view.unsaved')})` : '');

  return (
    <aside
      className={`ws-relations${showGraph ? ' has-graph' : ''}${full ? ' is-full' : ''}${
        standalone ? ' is-standalone' : ''
      }`}
      ref={panelRef}
      data-testid="relations-panel"
      data-full={full}
      data-graph-shown={showGraph}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && full) exit();
      }}
    >
      <div className="ws-rel-head">
        <h2 className="h6 mb-0 me-auto">{t('workspace.relations.title')}</h2>
        {!standalone && !full && (
          <button
            type="button"
            className={`btn btn-sm ${graphOn ? 'btn-secondary' : 'btn-outline-secondary'}`}
            aria-pressed={graphOn}
            onClick={() => setGraphOn(!graphOn)}
            data-testid="relation-graph-toggle"
          >
            {t('workspace.relations.view.toggle')}
          </button>
        )}
        <span className="btn-group">
          {full
            ? tool(
                t('workspace.relations.view.exitFullScreen'),
                exit,
                <IconCompress />,
                'relation-graph-exit-full',
              )
            : tool(t('workspace.relations.view.fullScreen'), enter, <IconExpand />, 'relation-graph-full')}
          {windowUrl &&
            tool(
              t('workspace.relations.view.newWindow'),
              () => onOpenWindow?.(windowUrl(choice)),
              <IconExternal />,
              'relation-graph-window',
            )}
        </span>
      </div>
      {showGraph && (
        <div className="ws-rel-graphview" data-testid="relation-graph-view" data-choice={choice ?? ''}>
          {options.length > 0 ? (
            <>
              <select
                className="form-select form-select-sm"
                value={choice ?? ''}
                onChange={(e) => setAsked(e.target.value === 'new' ? 'new' : Number(e.target.value))}
                aria-label={t('workspace.relations.view.choose')}
                data-testid="relation-graph-choose"
              >
                {options.map((o) => (
                  <option key={o.choice} value={o.choice}>
                    {optionLabel(o)}
                  </option>
                ))}
              </select>
              <div className="ws-rel-canvas" data-testid="relation-graph-canvas">
                <RelationGraphView
                  fitKey={`${choice}:${full}:${standalone}`}
                  arcs={arcs}
                  tagsById={tagsById}
                  tagText={tagText}
                  typesById={typesById}
                  selectedTagId={selectedTagId}
                  selectedKey={selectedKey}
                  onSelectTag={onSelectTag}
                  onSelectRelation={setSelectedKey}
                  onLink={linkable ? onLink : undefined}
                  controls={full || standalone}
                />
              </div>
            </>
          ) : (
            <p className="small text-body-secondary mb-0" data-testid="relation-graph-empty">
              {t('workspace.relations.view.empty')}
            </p>
          )}
        </div>
      )}
      <div className="ws-rel-list">
        {graphs.length > 0 && (
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
          <section className="ws-rel-draft" data-testid="relation-draft" data-graph-id={draft.graphId ?? ''}>
            <div className="small fw-semibold">
              {t(draft.graphId === null ? 'workspace.relations.draftNew' : 'workspace.relations.draftEdit', {
                id: draft.graphId,
              })}
            </div>
            <ul className="list-unstyled mb-1">
              {draft.relations.map((r, i) => (
                <li key={i} className={rowClass(`d${i}`)} data-testid="draft-relation" data-arc-key={`d${i}`}>
                  {pair(r.fromId, r.toId, r.relationTypeId)}
                  <span className="ms-auto" />
                  {reportButton(r)}
                  {removeButton(() => rel.removeDraftRelation(i), !rel.editable, 'draft-relation-remove')}
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
      </div>
    </aside>
  );
}
