/**
 * The React Flow canvas of the graph page. It draws what the page built (flowModel) and keeps a local copy of
 * the nodes only so that drags move smoothly; every change of the built flow replaces that copy.
 */
import { useEffect } from 'react';
import {
  Background,
  Controls,
  MarkerType,
  MiniMap,
  ReactFlow,
  useNodesState,
  type Connection,
  type DefaultEdgeOptions,
  type EdgeTypes,
  type NodeTypes,
  type OnConnectEnd,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTranslation } from 'react-i18next';
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

const FIT_VIEW_OPTIONS = { padding: 0.15, maxZoom: 1 };

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
}

const numericId = (id: string | null | undefined) => (id && /^\d+$/.test(id) ? Number(id) : null);

export function GraphCanvas({
  flow,
  onNodeClick,
  onNodeMoved,
  onEdgeClick,
  onPaneClick,
  onConnect,
  onConnectToPane,
  isValidConnection,
  onDragStart,
  showMiniMap,
}: GraphCanvasProps) {
  const { t } = useTranslation();
  const [nodes, setNodes, onNodesChange] = useNodesState<GraphFlowNode>(flow.nodes);
  const drag = useNodeDrag(onNodeMoved, onNodeClick);

  useEffect(() => setNodes(flow.nodes), [flow.nodes, setNodes]);

  const connectionIds = (c: Connection | GraphFlowEdge) =>
    [numericId(c.source), numericId(c.target)] as const;

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
      fitView
      fitViewOptions={FIT_VIEW_OPTIONS}
      minZoom={0.2}
      maxZoom={2}
      proOptions={{ hideAttribution: true }}
      aria-label={t('soaApp.graph.canvas')}
    >
      <Background gap={20} size={1} color="#d5dae3" />
      <Controls showInteractive={false} position="bottom-left" />
      {showMiniMap && (
        <MiniMap<GraphFlowNode>
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
