/**
 * The relation state of the LABELING view (issue 12 section 1; logic in ../relations.ts, API in
 * docs/api-relations.md): the saved graphs and their relation types, the draft holding the candidates until
 * Create / Edit, its validation (asked of the API at every change), the relation menu, the confirmations and
 * the 'cannot remove tag' modal.
 *
 * Linking: select a tag (click), then Alt+click or Ctrl+click a second tag (the first is the relation's
 * source, as in INCEpTION where the relation goes from the first selected span to the second). One candidate
 * relation type goes into the draft at once; several open the relation menu; none opens it with 'No relations
 * for these tags'.
 *
 * The workspace and its relation graph window share the saved graphs: each write says so to the other
 * windows of the document (./useRelationsChannel.ts), which refetch.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RelationTypeDTO } from '@domain/label-types';
import type { NerTagDTO } from '@domain/tags';
import type { GraphValidation, RelationMessageKey } from '@domain/relations';
import { isHttpError } from '../../../api/client';
import { dismissToast, toast } from '../../../components/toast';
import {
  addToDraft,
  arcsOf,
  graphOfTag,
  removalOf,
  removeFromDraft,
  retypeInDraft,
  retypeSaved,
  type Arc,
  type Draft,
  type TypeLabel,
} from '../relations';
import { relationCalls, relationKeys, relationQueries } from '../relationsApi';
import { useRelationsChannel } from './useRelationsChannel';

type TagRef = Pick<NerTagDTO, 'id' | 'nodeId'>;

/** What the relation menu is choosing a type for. */
export type MenuTarget =
  { kind: 'new' } | { kind: 'draft'; index: number } | { kind: 'saved'; graphId: number; relationId: number };

export interface RelationMenuState {
  x: number;
  y: number;
  fromId: number;
  toId: number;
  target: MenuTarget;
  candidates: RelationTypeDTO[];
  message: RelationMessageKey | null;
}

export type PendingConfirm =
  | { kind: 'relation'; graphId: number; relationId: number }
  | { kind: 'lastRelation'; graphId: number; relationId: number }
  | { kind: 'graph'; graphId: number };

/** The key shown for a validation message (the relation graph's own text for error.graph.noCohesive). */
export const relationMessageKey = (key: string) =>
  key === 'error.graph.noCohesive' ? 'workspace.relations.noCohesive' : key;

export function useRelations({
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
  const graphsQuery = useQuery(relationQueries.graphs(documentId));
  const graphs = useMemo(() => graphsQuery.data ?? [], [graphsQuery.data]);
  // Names and colours of the relation types: from the saved relations and from the candidates seen (no call
  // on the relation types of nodes the caller may not read).
  const [seenTypes, setSeenTypes] = useState<ReadonlyMap<number, TypeLabel>>(() => new Map());
  const typesById = useMemo(() => {
    const m = new Map(seenTypes);
    for (const g of graphs)
      for (const r of g.relations) if (r.relationType) m.set(r.relationTypeId, r.relationType);
    return m;
  }, [graphs, seenTypes]);
  /** A graph the caller may change here: editable step, and of this step's node. */
  const canEditGraph = useCallback(
    (graphId: number | null) =>
      editable && (graphId === null || graphs.find((g) => g.id === graphId)?.nodeId === nodeId),
    [editable, graphs, nodeId],
  );
  const [draft, setDraft] = useState<Draft | null>(null);
  const [validation, setValidation] = useState<GraphValidation | null>(null);
  const [menu, setMenu] = useState<RelationMenuState | null>(null);
  const [confirm, setConfirm] = useState<PendingConfirm | null>(null);
  const [blockedTagId, setBlockedTagId] = useState<number | null>(null);
  const [focusGraphId, setFocusGraphId] = useState<number | null>(null);
  /** Asks the relations panel to show a graph in the graph view (a new object at each ask). */
  const [graphViewRequest, setGraphViewRequest] = useState<{ graphId: number } | null>(null);
  const [saving, setSaving] = useState(false);

  const refetch = useCallback(
    () => queryClient.invalidateQueries({ queryKey: relationKeys.graphs(documentId) }),
    [queryClient, documentId],
  );
  const announce = useRelationsChannel(documentId, (m) => {
    if (m.kind === 'changed') void refetch();
  });
  /** After a write (done or refused): this window refetches, the others of the document too. */
  const written = useCallback(async () => {
    announce({ kind: 'changed' });
    await refetch();
  }, [announce, refetch]);

  // The draft's validation, asked of the API at every change (the latest answer wins).
  useEffect(() => {
    if (!draft) {
      setValidation(null);
      return;
    }
    let current = true;
    setValidation(null);
    relationCalls
      .validate(documentId, draft.relations)
      .then((v) => current && setValidation(v))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [draft, documentId]);

  const arcs = useMemo(() => arcsOf(graphs, draft), [graphs, draft]);

  // The 'candidate added: save it with Create or Edit' toast goes once the draft is saved or dropped.
  const candidateToast = useRef<number | null>(null);
  useEffect(() => {
    if (draft || candidateToast.current === null) return;
    dismissToast(candidateToast.current);
    candidateToast.current = null;
  }, [draft]);

  /** Asks the candidates of fromId -> toId; one goes into the draft at once, else the menu opens. */
  const askCandidates = useCallback(
    async (fromId: number, toId: number, x: number, y: number, target: MenuTarget) => {
      const answer = await relationCalls.candidates(documentId, fromId, toId);
      setSeenTypes((prev) => new Map([...prev, ...answer.candidates.map((c) => [c.id, c] as const)]));
      if (target.kind === 'new' && answer.candidates.length === 1) {
        const only = answer.candidates[0];
        setDraft((d) => addToDraft(d, graphs, { fromId, toId, relationTypeId: only.id }));
        candidateToast.current = toast.success(t('workspace.relations.candidateAdded', { name: only.name }));
        return;
      }
      setMenu({ x, y, fromId, toId, target, candidates: answer.candidates, message: answer.message });
    },
    [documentId, graphs, t],
  );

  /** Alt/Ctrl+click on a second tag: a relation from the selected tag to it (tags of this step's node). */
  const link = useCallback(
    (from: TagRef, to: TagRef, x: number, y: number) => {
      if (!editable) {
        toast.warning(t('workspace.relations.readOnly'));
        return;
      }
      if (from.nodeId !== nodeId || to.nodeId !== nodeId) {
        toast.warning(t('workspace.relations.otherNode'));
        return;
      }
      void askCandidates(from.id, to.id, x, y, { kind: 'new' }).catch(() => undefined);
    },
    [editable, nodeId, askCandidates, t],
  );

  /** A click on an arc's label: the menu to change its type. */
  const openArc = useCallback(
    (arc: Arc, x: number, y: number) => {
      if (!canEditGraph(arc.graphId)) return;
      let target: MenuTarget;
      if (arc.key.startsWith('d')) target = { kind: 'draft', index: Number(arc.key.slice(1)) };
      else target = { kind: 'saved', graphId: arc.graphId!, relationId: Number(arc.key.slice(1)) };
      void askCandidates(arc.fromId, arc.toId, x, y, target).catch(() => undefined);
    },
    [canEditGraph, askCandidates],
  );

  const choose = useCallback(
    (type: RelationTypeDTO) => {
      const m = menu;
      if (!m) return;
      setMenu(null);
      if (m.target.kind === 'new')
        setDraft((d) => addToDraft(d, graphs, { fromId: m.fromId, toId: m.toId, relationTypeId: type.id }));
      else if (m.target.kind === 'draft') {
        const index = m.target.index;
        setDraft((d) => d && retypeInDraft(d, index, type.id));
      } else {
        const { graphId, relationId } = m.target;
        const graph = graphs.find((g) => g.id === graphId);
        if (graph) setDraft((d) => retypeSaved(d, graph, relationId, type.id));
      }
    },
    [menu, graphs],
  );

  const removeDraftRelation = useCallback((index: number) => {
    setDraft((d) => (d ? removeFromDraft(d, index) : d));
  }, []);

  /** Removing a saved relation asks first (the graph goes too when it is its only relation). */
  const askRemoveRelation = useCallback(
    (graphId: number, relationId: number) => {
      const graph = graphs.find((g) => g.id === graphId);
      if (!graph) return;
      setConfirm({
        kind: removalOf(graph, relationId).kind === 'graph' ? 'lastRelation' : 'relation',
        graphId,
        relationId,
      });
    },
    [graphs],
  );

  const askRemoveGraph = useCallback((graphId: number) => setConfirm({ kind: 'graph', graphId }), []);

  const showError = useCallback(
    (e: unknown) => {
      const body = isHttpError(e) ? (e.body as { message?: string; validation?: GraphValidation }) : null;
      if (body?.validation) setValidation(body.validation);
      toast.error(t(relationMessageKey(body?.message ?? 'error.http.500')));
    },
    [t],
  );

  const confirmRemoval = useCallback(async () => {
    const c = confirm;
    if (!c) return;
    setConfirm(null);
    const graph = graphs.find((g) => g.id === c.graphId);
    if (!graph) return;
    try {
      if (c.kind === 'relation') {
        const plan = removalOf(graph, c.relationId);
        if (plan.kind === 'relation') await relationCalls.update(graph.id, plan.relations);
        else await relationCalls.remove(graph.id);
        toast.success(t('workspace.relations.relationRemoved'));
      } else {
        await relationCalls.remove(graph.id);
        toast.success(t('workspace.relations.graphRemoved'));
      }
      if (draft?.graphId === graph.id) setDraft(null);
    } catch (e) {
      showError(e);
    } finally {
      await written();
    }
  }, [confirm, graphs, draft, written, showError, t]);

  /** Create (a new graph) or Edit (the graph the draft edits). */
  const save = useCallback(async () => {
    if (!draft || !validation?.valid) return;
    setSaving(true);
    try {
      if (draft.graphId === null) await relationCalls.create(documentId, draft.relations);
      else await relationCalls.update(draft.graphId, draft.relations);
      toast.success(t(draft.graphId === null ? 'workspace.relations.created' : 'workspace.relations.edited'));
      setDraft(null);
    } catch (e) {
      showError(e);
    } finally {
      setSaving(false);
      await written();
    }
  }, [draft, validation, documentId, written, showError, t]);

  const cancel = useCallback(() => setDraft(null), []);

  /** Deleting a tag with relations is refused: the 'cannot remove tag' modal instead. */
  const refuseRemoval = useCallback(
    (tagId: number) => {
      if (!graphOfTag(graphs, tagId)) return false;
      setBlockedTagId(tagId);
      return true;
    },
    [graphs],
  );

  /** The API refused a tag's deletion because of relations this page did not know of: the modal too. */
  const removalRefused = useCallback(
    (e: unknown, tagId: number) => {
      const body = isHttpError(e) ? (e.body as { message?: string }) : null;
      if (body?.message !== 'error.tag.hasRelations') return;
      setBlockedTagId(tagId);
      void refetch();
    },
    [refetch],
  );

  /** From the 'cannot remove tag' modal: the graph of the tag, shown in the relations panel's graph view. */
  const goToGraph = useCallback(() => {
    const graphId = blockedTagId === null ? null : (graphOfTag(graphs, blockedTagId)?.id ?? null);
    setFocusGraphId(graphId);
    if (graphId !== null) setGraphViewRequest({ graphId });
    setBlockedTagId(null);
  }, [blockedTagId, graphs]);

  return {
    editable,
    canEditGraph,
    graphs,
    typesById,
    draft,
    validation,
    arcs,
    menu,
    confirm,
    blockedTagId,
    focusGraphId,
    graphViewRequest,
    saving,
    link,
    openArc,
    choose,
    closeMenu: () => setMenu(null),
    removeDraftRelation,
    askRemoveRelation,
    askRemoveGraph,
    confirmRemoval,
    cancelConfirm: () => setConfirm(null),
    save,
    cancel,
    refuseRemoval,
    removalRefused,
    closeBlocked: () => setBlockedTagId(null),
    goToGraph,
    setFocusGraphId,
  };
}

export type RelationsController = ReturnType<typeof useRelations>;
