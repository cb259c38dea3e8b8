/**
 * The React Flow canvas of the graph page. It draws what the page built (flowModel) and keeps a local copy of
 * the nodes only so that drags move smoothly; every change of the built flow replaces that copy.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  Background,
  ControlButton,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  getNodesBounds as boundsOfNodes,
  getViewportForBounds,
  useNodesInitialized,
  useNodesState,
  useReactFlow,
  useStore,
  type FitViewOptions,
  type Connection,
  type DefaultEdgeOptions,
  type EdgeTypes,
  type NodeTypes,
  type OnConnectEnd,
  type Rect,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTranslation } from 'react-i18next';
import { IconMap } from '../../../components/icons';
import type { Flow, GraphFlowEdge, GraphFlowNode } from '../flowModel';
import { useNodeDrag } from '../hooks/useNodeDrag';
import { CLICK_DISTANCE, type XY } from '../layout';
import { ChooserNode } from './ChooserNode';
import { nodeFamily } from './NodeTypeIcon';
import { PredicateEdge } from './PredicateEdge';
import { ProcessNode } from './ProcessNode';
import { UploadGroupNode } from './UploadGroupNode';

const nodeTypes = {
  process: ProcessNode,
  chooser: ChooserNode,
  uploadGroup: UploadGroupNode,
} satisfies NodeTypes;

const edgeTypes = { predicate: PredicateEdge } satisfies EdgeTypes;

const defaultEdgeOptions: DefaultEdgeOptions = {
  markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18, color: '#8a94a6' },
};

/** The minimap's size (px): small, in the bottom-right corner, and fitted views keep clear of it. */
const MINIMAP_WIDTH = 150;
const MINIMAP_HEIGHT = 96;
/** Below this canvas width the minimap starts hidden (its button in the controls shows it). */
const MINIMAP_MIN_CANVAS_WIDTH = 700;

/**
 * Below this zoom the cards cannot be read: a narrow canvas (a phone) shows the graph from its start at this
 * zoom instead of all of it, and the user pans to the rest.
 */
const READABLE_ZOOM = 0.75;

/** A fitted view leaves room for the controls (bottom left) and, when shown, the minimap (bottom right). */
const fitViewOptions = (miniMap: boolean): FitViewOptions => ({
  padding: {
    top: '32px',
    left: '64px',
    right: '32px',
    bottom: miniMap ? `${MINIMAP_HEIGHT + 32}px` : '32px',
  },
  maxZoom: 1,
});

const MIN_ZOOM = 0.2;

/**
 * The viewport that shows a graph of these bounds in a canvas of this size: the whole graph (as React Flow's
 * fitView with fitViewOptions), unless that takes a zoom under READABLE_ZOOM: then the graph's start (left,
 * vertically centred or from its top) at that zoom.
 */
export function viewportFor(
  bounds: Rect,
  width: number,
  height: number,
  miniMap: boolean,
): Viewport & { whole: boolean } {
  const bottom = miniMap ? MINIMAP_HEIGHT + 32 : 32;
  const fits = Math.min(
    (width - 64 - 32) / Math.max(bounds.width, 1),
    (height - 32 - bottom) / Math.max(bounds.height, 1),
  );
  if (fits >= READABLE_ZOOM) {
    const { padding, maxZoom } = fitViewOptions(miniMap);
    return {
      ...getViewportForBounds(bounds, width, height, MIN_ZOOM, maxZoom ?? 1, padding ?? 0),
      whole: true,
    };
  }
  const zoom = READABLE_ZOOM;
  const x = 64 - bounds.x * zoom;
  const tall = bounds.height * zoom > height - 32 - bottom;
  const y = tall ? 32 - bounds.y * zoom : (height - bottom + 32) / 2 - (bounds.y + bounds.height / 2) * zoom;
  return { x, y, zoom, whole: false };
}

const MINIMAP_COLORS: Record<string, string> = {
  upload: '#0f9d8a',
  parse: '#3559e0',
  label: '#7a4fd6',
  llm: '#d08a00',
  action: '#2f9e44',
  unknown: '#8a94a6',
};

const minimapColor = (n: GraphFlowNode) =>
  n.type === 'process' ? MINIMAP_COLORS[nodeFamily(n.data.node.activityType)] : 'transparent';

export interface GraphCanvasProps {
  flow: Flow;
  onNodeClick: (id: number) => void;
  /** Enter or Space on a focused node: open its side panel. */
  onNodeOpen: (id: number) => void;
  onNodeMoved: (id: number, to: XY) => void;
  onEdgeClick: (edgeId: number) => void;
  onPaneClick: () => void;
  onConnect: (fromId: number, toId: number) => void;
  /** A connection dragged from a node's handle and dropped on the empty canvas: open the chooser. */
  onConnectToPane: (fromId: number) => void;
  isValidConnection: (fromId: number, toId: number) => boolean;
  onDragStart: () => void;
  /** The minimap is hidden while the chooser is open (panels are drawn above nodes and would cover it). */
  showMiniMap: boolean;
  /** Bumped when the whole graph should be fitted into view again (e.g. after a node was added). */
  fitRequest?: number;
  /**
   * The canvas's size as the graph is first drawn: the first view is fitted from the laid-out positions at
   * once (no first frame at the default viewport, no wait for React Flow to measure the nodes).
   */
  canvasSize?: () => { width: number; height: number } | undefined;
}

const numericId = (id: string | null | undefined) => (id && /^\d+$/.test(id) ? Number(id) : null);

export function GraphCanvas({
  flow,
  onNodeClick,
  onNodeOpen,
  onNodeMoved,
  onEdgeClick,
  onPaneClick,
  onConnect,
  onConnectToPane,
  isValidConnection,
  onDragStart,
  showMiniMap,
  fitRequest = 0,
  canvasSize,
}: GraphCanvasProps) {
  const { t } = useTranslation();
  const [nodes, setNodes, onNodesChange] = useNodesState<GraphFlowNode>(flow.nodes);
  const drag = useNodeDrag(onNodeMoved, onNodeClick);
  const { fitView, getNodes, getNodesBounds, setViewport } = useReactFlow();
  const canvasWidth = useStore((s) => s.width);
  const canvasHeight = useStore((s) => s.height);
  const nodesInitialized = useNodesInitialized();
  const [miniMapOpen, setMiniMapOpen] = useState(
    () => typeof window === 'undefined' || window.innerWidth >= MINIMAP_MIN_CANVAS_WIDTH,
  );
  const miniMap = showMiniMap && miniMapOpen;
  const [initialViewport] = useState<Viewport | undefined>(() => {
    const size = canvasSize?.();
    if (!size?.width || !size.height || !flow.nodes.length) return undefined;
    const { x, y, zoom } = viewportFor(boundsOfNodes(flow.nodes), size.width, size.height, miniMap);
    return { x, y, zoom };
  });

  useEffect(() => setNodes(flow.nodes), [flow.nodes, setNodes]);

  /**
   * Shows the whole graph (as the fitView of React Flow), unless that takes a zoom under READABLE_ZOOM: then
   * the graph's start (left, vertically centred or from its top) at that zoom.
   */
  const fitGraph = useCallback(
    (duration?: number) => {
      const drawn = getNodes();
      if (!drawn.length || !canvasWidth || !canvasHeight) return;
      const bounds = getNodesBounds(drawn);
      const { whole, ...view } = viewportFor(bounds, canvasWidth, canvasHeight, miniMap);
      if (whole) void fitView({ ...fitViewOptions(miniMap), duration });
      else void setViewport(view, { duration });
    },
    [getNodes, getNodesBounds, fitView, setViewport, canvasWidth, canvasHeight, miniMap],
  );

  // The first fit (React Flow's, at load) leaves cards too small to read on a narrow canvas: redo it there.
  const firstFitDone = useRef(false);
  useEffect(() => {
    if (!nodesInitialized || firstFitDone.current) return;
    firstFitDone.current = true;
    fitGraph();
  }, [nodesInitialized, fitGraph]);

  // Once the nodes of the request are drawn (the effect above ran first), fit them all into view.
  useEffect(() => {
    if (fitRequest === 0) return;
    const timer = window.setTimeout(() => fitGraph(300), 60);
    return () => window.clearTimeout(timer);
    // Only a new request fits; the minimap's state at that moment decides the padding.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fitRequest]);

  const connectionIds = (c: Connection | GraphFlowEdge) =>
    [numericId(c.source), numericId(c.target)] as const;

  // Keyboard: Enter or Space on a focused node opens its panel, on a focused edge its predicates.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const target = e.target as HTMLElement;
    if (target.classList.contains('react-flow__node')) {
      const node = nodes.find((n) => n.id === target.dataset.id);
      const id = numericId(node?.id);
      if (node?.type === 'process' && id !== null) {
        e.preventDefault();
        onNodeOpen(id);
      }
    } else if (target.classList.contains('react-flow__edge')) {
      const edge = flow.edges.find((x) => x.id === target.dataset.id);
      if (edge?.type === 'predicate' && edge.data) {
        e.preventDefault();
        onEdgeClick(edge.data.edgeId);
      }
    }
  };

  const ariaLabelConfig = useMemo(
    () => ({
      'node.a11yDescription.default': t('soaApp.graph.a11y.node'),
      'node.a11yDescription.keyboardDisabled': t('soaApp.graph.a11y.node'),
      'edge.a11yDescription.default': t('soaApp.graph.a11y.edge'),
      'controls.ariaLabel': t('soaApp.graph.a11y.controls'),
      'controls.zoomIn.ariaLabel': t('soaApp.graph.a11y.zoomIn'),
      'controls.zoomOut.ariaLabel': t('soaApp.graph.a11y.zoomOut'),
      'controls.fitView.ariaLabel': t('soaApp.graph.a11y.fitView'),
      'minimap.ariaLabel': t('soaApp.graph.a11y.minimap'),
      'handle.ariaLabel': t('soaApp.graph.a11y.handle'),
    }),
    [t],
  );

  const onConnectEnd: OnConnectEnd = (_event, state) => {
    const fromId = numericId(state.fromNode?.id);
    if (fromId !== null && !state.isValid && !state.toNode) onConnectToPane(fromId);
  };

  return (
    <ReactFlow<GraphFlowNode, GraphFlowEdge>
      nodes={nodes}
      edges={flow.edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      defaultEdgeOptions={defaultEdgeOptions}
      onNodesChange={onNodesChange}
      onNodeClick={(_e, node) => {
        const id = numericId(node.id);
        if (node.type === 'process' && id !== null) onNodeClick(id);
      }}
      onNodeDragStart={(e, node, all) => {
        onDragStart();
        drag.onNodeDragStart(e, node, all);
      }}
      onNodeDragStop={drag.onNodeDragStop}
      onEdgeClick={(_e, edge) => {
        if (edge.type === 'predicate' && edge.data) onEdgeClick(edge.data.edgeId);
      }}
      onPaneClick={onPaneClick}
      onConnect={(c) => {
        const [from, to] = connectionIds(c);
        if (from !== null && to !== null) onConnect(from, to);
      }}
      onConnectEnd={onConnectEnd}
      isValidConnection={(c) => {
        const [from, to] = connectionIds(c);
        return from !== null && to !== null && isValidConnection(from, to);
      }}
      nodeDragThreshold={CLICK_DISTANCE}
      nodeClickDistance={CLICK_DISTANCE}
      connectOnClick={false}
      elementsSelectable={false}
      deleteKeyCode={null}
      fitView={!initialViewport}
      fitViewOptions={fitViewOptions(miniMap)}
      defaultViewport={initialViewport}
      minZoom={MIN_ZOOM}
      maxZoom={2}
      proOptions={{ hideAttribution: true }}
      aria-label={t('soaApp.graph.canvas')}
      ariaLabelConfig={ariaLabelConfig}
      onKeyDown={onKeyDown}
    >
      <Background gap={20} size={1} color="#d5dae3" />
      <Controls
        showInteractive={false}
        position="bottom-left"
        fitViewOptions={fitViewOptions(miniMap)}
        onFitView={() => fitGraph()}
      >
        <ControlButton
          onClick={() => setMiniMapOpen((open) => !open)}
          title={t(miniMapOpen ? 'soaApp.graph.hideMiniMap' : 'soaApp.graph.showMiniMap')}
          aria-label={t(miniMapOpen ? 'soaApp.graph.hideMiniMap' : 'soaApp.graph.showMiniMap')}
          aria-pressed={miniMapOpen}
          data-testid="minimap-toggle"
        >
          <IconMap />
        </ControlButton>
      </Controls>
      {miniMap && (
        <MiniMap<GraphFlowNode>
          style={{ width: MINIMAP_WIDTH, height: MINIMAP_HEIGHT }}
          pannable
          zoomable
          nodeColor={minimapColor}
          nodeStrokeWidth={0}
          maskColor="rgba(244, 246, 250, 0.7)"
          position="bottom-right"
        />
      )}
    </ReactFlow>
  );
}
