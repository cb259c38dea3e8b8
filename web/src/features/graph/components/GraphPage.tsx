/**
 * The flow graph page (spec 1 "Flow graph page"): header, canvas, the node side panel of the clicked node,
 * the temporary node-type chooser with the add-node modal, and the predicate modal of the clicked edge.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useParams, useSearchParams } from 'react-router-dom';
import type { ActivityType } from '@domain';
import { edgeRefusal } from '@domain/graph';
import type { NodeDTO, NodeInput } from '@domain/graph-types';
import { isUploadType } from '@domain/nodes';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { NodeSidePanel } from '../../nodes/NodeSidePanel';
import { useAddNode, useCreateEdge, useMoveNode, useSaveCoordinates } from '../api';
import { buildFlow, layoutFor, type ChooserNodeData } from '../flowModel';
import { GraphActionsContext, type GraphActions } from '../graphActions';
import { useGraphData } from '../hooks/useGraphData';
import { useKeepInView } from '../hooks/useKeepInView';
import {
  NODE_HEIGHT,
  NODE_WIDTH,
  followUpPosition,
  freeSpot,
  isUnplaced,
  occupiedRects,
  type XY,
} from '../layout';
import { AddNodeModal, type AddNodeRequest } from './AddNodeModal';
import { GraphCanvas } from './GraphCanvas';
import { GraphHeader } from './GraphHeader';
import { PredicateModal } from './PredicateModal';
import '../graph.css';

export function GraphPage() {
  const { processId } = useParams();
  return (
    <ReactFlowProvider>
      <GraphView processId={Number(processId)} />
    </ReactFlowProvider>
  );
}

function GraphView({ processId }: { processId: number }) {
  const { t } = useTranslation();
  const data = useGraphData(processId);
  const { nodes, edges, followUpTypes } = data;
  const { screenToFlowPosition } = useReactFlow();
  const canvasRef = useRef<HTMLDivElement>(null);

  // `?node=<id>` (the node list's link) opens that node's panel.
  const [search] = useSearchParams();
  const [selectedId, setSelectedId] = useState<number | null>(() => Number(search.get('node')) || null);
  const [chooser, setChooser] = useState<Omit<ChooserNodeData, 'sourceType'> | null>(null);
  const [adding, setAdding] = useState<AddNodeRequest | null>(null);
  const [edgeId, setEdgeId] = useState<number | null>(null);
  const [fitRequest, setFitRequest] = useState(0);
  // The open side panel holds edits not saved yet: closing it, opening another node's or leaving asks first.
  const [panelDirty, setPanelDirty] = useState(false);
  const [pendingDiscard, setPendingDiscard] = useState<(() => void) | null>(null);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => panelDirty && currentLocation.pathname !== nextLocation.pathname,
  );
  // Set at once when a type is picked: the chooser losing focus to the modal must not remove it.
  const addingRef = useRef(false);

  const move = useMoveNode(processId);
  const saveCoordinates = useSaveCoordinates(processId);
  const addNode = useAddNode();
  const createEdge = useCreateEdge();

  const nodeById = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const activeNodeId = selectedId !== null && nodeById.has(selectedId) ? selectedId : null;
  const chooserSource = chooser ? nodeById.get(chooser.sourceId) : undefined;
  const edge = edgeId !== null ? edges.find((e) => e.id === edgeId) : undefined;

  const ariaLabels = useMemo(() => {
    const nameOf = (n: NodeDTO | undefined) => n?.name?.trim() || t('soaApp.graph.unknownNode');
    return {
      node: (n: NodeDTO) =>
        t('soaApp.graph.a11y.nodeLabel', {
          type: t(`soaApp.graph.nodeTypes.${n.activityType}`, { defaultValue: n.activityType }),
          name: nameOf(n),
        }),
      edge: (from: NodeDTO | undefined, to: NodeDTO | undefined) =>
        t('soaApp.graph.a11y.edgeLabel', { from: nameOf(from), to: nameOf(to) }),
    };
  }, [t]);

  // Laid out again only when nodes or edges change (not as predicates, the whitelist or the selection do).
  const layout = useMemo(() => layoutFor(nodes, edges, isUploadType), [nodes, edges]);
  const flow = useMemo(
    () =>
      buildFlow({
        nodes,
        edges,
        layout,
        predicates: data.predicates,
        isUpload: isUploadType,
        followUpTypes,
        activeNodeId,
        chooser: chooser && chooserSource ? { ...chooser, sourceType: chooserSource.activityType } : null,
        ariaLabels,
      }),
    [nodes, edges, layout, data.predicates, followUpTypes, activeNodeId, chooser, chooserSource, ariaLabels],
  );

  /**
   * Nodes never placed are drawn where the automatic layout puts them, and that layout changes as soon as
   * one node gets coordinates. Before the first node is placed (moved or added), the drawn positions of the
   * others are saved, so that nothing jumps.
   */
  const pinLayout = async (exceptId?: number) => {
    const list = nodes
      .filter((n) => n.id !== exceptId && !isUploadType(n.activityType) && isUnplaced(n))
      .flatMap((n) => {
        const p = flow.positions.get(n.id);
        return p ? [{ id: n.id, x: p.x, y: p.y }] : [];
      });
    if (list.length) await saveCoordinates.mutateAsync(list).catch(() => undefined);
  };

  /** The nearest spot to `preferred` where a new card overlaps no other. */
  const freeAt = (preferred: XY) =>
    freeSpot(preferred, occupiedRects(flow.positions, flow.uploadGroup, edges));

  const onNodeMoved = async (id: number, to: XY) => {
    await pinLayout(id);
    move.mutate({ id, ...to });
  };

  /** Runs `proceed` at once, or once the user agreed to lose the side panel's unsaved edits. */
  const unlessDirty = (proceed: () => void) => {
    if (panelDirty) setPendingDiscard(() => proceed);
    else proceed();
  };

  /** Opens the side panel of a node (null closes it), asking first when the open one has unsaved edits. */
  const selectNode = (id: number | null) => {
    if (id === activeNodeId) return;
    unlessDirty(() => setSelectedId(id));
  };

  const discardOpen = pendingDiscard !== null || blocker.state === 'blocked';
  const discardEdits = () => {
    const proceed = pendingDiscard;
    setPendingDiscard(null);
    setPanelDirty(false);
    if (blocker.state === 'blocked') blocker.proceed();
    else proceed?.();
  };
  const keepEditing = () => {
    setPendingDiscard(null);
    if (blocker.state === 'blocked') blocker.reset();
  };

  // Keyboard: Enter or Space on a node opens its panel and moves the focus into it; Escape closes the panel
  // (asking first when edits are unsaved) and gives the focus back to the node.
  const sideRef = useRef<HTMLDivElement>(null);
  const focusPanelRef = useRef(false);
  const refocusNodeRef = useRef<number | null>(null);
  const openFromKeyboard = (id: number) => {
    closeChooser();
    focusPanelRef.current = true;
    if (id === activeNodeId) sideRef.current?.focus();
    else selectNode(id);
  };
  useEffect(() => {
    if (activeNodeId !== null && focusPanelRef.current) sideRef.current?.focus();
    focusPanelRef.current = false;
    if (activeNodeId === null && refocusNodeRef.current !== null) {
      document
        .querySelector<HTMLElement>(`.react-flow__node[data-id="${refocusNodeRef.current}"]`)
        ?.focus({ preventScroll: true });
    }
    refocusNodeRef.current = null;
  }, [activeNodeId]);
  const onEscapeRef = useRef<() => void>(() => undefined);
  useEffect(() => {
    onEscapeRef.current = () => {
      if (chooser || activeNodeId === null) return;
      refocusNodeRef.current = activeNodeId;
      selectNode(null);
    };
  });
  useEffect(() => {
    if (activeNodeId === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      // A dialog or an open menu takes its own Escape first.
      if (document.body.classList.contains('modal-open')) return;
      if (e.target instanceof Element && e.target.closest('.dropdown')) return;
      onEscapeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [activeNodeId]);

  useKeepInView(canvasRef, activeNodeId, chooser?.sourceId ?? null);

  const closeChooser = () => {
    addingRef.current = false;
    setChooser(null);
    setAdding(null);
  };

  const openChooser = (sourceId: number) => {
    addingRef.current = false;
    setAdding(null);
    setChooser({ sourceId, pickedType: null });
  };

  const actions: GraphActions = {
    openChooser,
    closeChooser,
    blurChooser: () => {
      if (!addingRef.current) closeChooser();
    },
    pickType: (type) => {
      const source = chooser && flow.positions.get(chooser.sourceId);
      if (!chooser || !source) return;
      addingRef.current = true;
      setChooser({ ...chooser, pickedType: type });
      setAdding({ sourceId: chooser.sourceId, type, position: freeAt(followUpPosition(source)) });
    },
    connectTo: (targetId) => {
      if (chooser) createEdge.mutate({ fromId: chooser.sourceId, toId: targetId });
      closeChooser();
    },
    openEdge: (id) => {
      closeChooser();
      setEdgeId(id);
    },
    followUpTypes,
    connectableNodes: data.connectableNodes,
  };

  // Escape removes the chooser (unless the add-node modal, which handles its own Escape, is open).
  useEffect(() => {
    if (!chooser || adding) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        addingRef.current = false;
        setChooser(null);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [chooser, adding]);

  /** The header's add-node menu: a free-standing node in the middle of the visible canvas, in free space. */
  const addFromHeader = (type: ActivityType) => {
    const rect = canvasRef.current?.getBoundingClientRect();
    const center = rect
      ? screenToFlowPosition({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 })
      : { x: NODE_WIDTH, y: NODE_HEIGHT };
    closeChooser();
    setAdding({
      sourceId: null,
      type,
      position: freeAt({ x: center.x - NODE_WIDTH / 2, y: center.y - NODE_HEIGHT / 2 }),
    });
  };

  const onAdd = async (node: NodeInput) => {
    if (!adding) return;
    await pinLayout();
    addNode.mutate(
      { node, sourceId: adding.sourceId },
      {
        onSuccess: () => {
          closeChooser();
          // The graph grew: show all of it again.
          setFitRequest((n) => n + 1);
        },
      },
    );
  };

  const modalTypes =
    adding?.sourceId != null && chooserSource
      ? followUpTypes(chooserSource.activityType)
      : data.activityTypes;

  return (
    <GraphActionsContext.Provider value={actions}>
      <div className="graph-page" data-testid="graph-page">
        <GraphHeader
          processName={data.process?.name ?? null}
          types={data.activityTypes}
          onAdd={addFromHeader}
        />
        <div className="graph-body">
          <div className="graph-canvas" ref={canvasRef} data-testid="graph-canvas">
            {data.isPending ? (
              <div className="graph-status">
                <div
                  className="spinner-border text-primary"
                  role="status"
                  aria-label={t('global.common.loading')}
                />
              </div>
            ) : data.isError ? (
              <div className="graph-status">
                <div className="alert alert-danger" role="alert" data-testid="graph-error">
                  {t('soaApp.graph.loadError')}
                </div>
              </div>
            ) : (
              <GraphCanvas
                flow={flow}
                onNodeClick={(id) => {
                  closeChooser();
                  selectNode(activeNodeId === id ? null : id);
                }}
                onNodeOpen={openFromKeyboard}
                onNodeMoved={(id, to) => void onNodeMoved(id, to)}
                onEdgeClick={actions.openEdge}
                onPaneClick={closeChooser}
                onConnect={(fromId, toId) => createEdge.mutate({ fromId, toId })}
                onConnectToPane={(fromId) => {
                  const source = nodeById.get(fromId);
                  if (source && followUpTypes(source.activityType).length > 0) openChooser(fromId);
                }}
                isValidConnection={(fromId, toId) => edgeRefusal({ nodes, edges }, fromId, toId) === null}
                showMiniMap={!chooser}
                fitRequest={fitRequest}
                canvasSize={() => canvasRef.current?.getBoundingClientRect()}
                onDragStart={() => {
                  if (!addingRef.current) setChooser(null);
                }}
              />
            )}
          </div>
          {activeNodeId !== null && (
            <div
              className="graph-side"
              data-testid="graph-side"
              ref={sideRef}
              tabIndex={-1}
              role="region"
              aria-label={nodeById.get(activeNodeId)?.name ?? undefined}
            >
              <NodeSidePanel
                key={activeNodeId}
                nodeId={activeNodeId}
                processId={processId}
                onClose={() => selectNode(null)}
                onDeleted={() => {
                  setPanelDirty(false);
                  setSelectedId(null);
                }}
                onDirtyChange={setPanelDirty}
              />
            </div>
          )}
        </div>

        {adding && (
          <AddNodeModal
            request={adding}
            processId={processId}
            types={modalTypes}
            existingNames={data.existingNames}
            existingEndpoints={data.existingEndpoints}
            pending={addNode.isPending || saveCoordinates.isPending}
            onTypeChange={(type) => {
              setAdding({ ...adding, type });
              if (chooser) setChooser({ ...chooser, pickedType: type });
            }}
            onAdd={(node) => void onAdd(node)}
            onCancel={closeChooser}
          />
        )}
        {discardOpen && (
          <ConfirmModal
            danger
            title={t('soaApp.nodePanel.discard.title')}
            confirmLabel={t('soaApp.nodePanel.discard.confirm')}
            cancelLabel={t('soaApp.nodePanel.discard.keep')}
            onConfirm={discardEdits}
            onClose={keepEditing}
            testId="discard-modal"
            confirmTestId="discard-confirm"
            cancelTestId="discard-keep"
          >
            {t('soaApp.nodePanel.discard.body', {
              name: activeNodeId !== null ? (nodeById.get(activeNodeId)?.name ?? '') : '',
            })}
          </ConfirmModal>
        )}
        {edge && <PredicateModal edge={edge} nodes={nodes} edges={edges} onClose={() => setEdgeId(null)} />}
      </div>
    </GraphActionsContext.Provider>
  );
}
