/**
 * The React Flow view of a process graph: typed node and edge unions, and the pure translation of the
 * server's nodes, edges and predicates (plus the temporary chooser) into what the canvas draws.
 */
import type { Edge, Node } from '@xyflow/react';
import type { ActivityType } from '@domain';
import { unconnectedNodeIds } from '@domain/graph';
import type { EdgeDTO, NodeDTO, PredicateDTO } from '@domain/graph-types';
import {
  followUpPosition,
  layoutGraph,
  NODE_HEIGHT,
  NODE_WIDTH,
  type GraphLayout,
  type Rect,
  type XY,
} from './layout';

/** Id of the temporary chooser node and of the temporary edge leading to it (spec: id 0). */
export const CHOOSER_ID = '0';
export const UPLOAD_GROUP_ID = 'upload-group';

export type ProcessNodeData = {
  node: NodeDTO;
  upload: boolean;
  unconnected: boolean;
  /** The node's type has follow-up types: it shows the add-next button and a source handle. */
  canFollow: boolean;
  /** Its side panel is open. */
  active: boolean;
};
export type ChooserNodeData = { sourceId: number; sourceType: ActivityType; pickedType: ActivityType | null };
export type UploadGroupData = { count: number };

export type ProcessFlowNode = Node<ProcessNodeData, 'process'>;
export type ChooserFlowNode = Node<ChooserNodeData, 'chooser'>;
export type UploadGroupFlowNode = Node<UploadGroupData, 'uploadGroup'>;
export type GraphFlowNode = ProcessFlowNode | ChooserFlowNode | UploadGroupFlowNode;

export type PredicateEdgeData = { edgeId: number; predicateCount: number };
export type PredicateFlowEdge = Edge<PredicateEdgeData, 'predicate'>;
export type GraphFlowEdge = PredicateFlowEdge | Edge<Record<string, never>, 'default'>;

export const flowNodeId = (id: number) => String(id);
export const flowEdgeId = (id: number) => `e${id}`;

export interface FlowInput {
  nodes: readonly NodeDTO[];
  edges: readonly EdgeDTO[];
  predicates: readonly PredicateDTO[];
  isUpload: (type: ActivityType) => boolean;
  followUpTypes: (type: ActivityType) => readonly ActivityType[];
  activeNodeId: number | null;
  /** The temporary chooser, drawn x+300, y-50 from its source node. */
  chooser: ChooserNodeData | null;
  /**
   * The layout of these nodes and edges (layoutFor), when the caller keeps it: it depends on nodes and edges
   * only, and laying out a large graph costs more than the rest of the build.
   */
  layout?: GraphLayout;
  /** What screen readers announce for a node and for an edge between two nodes (by names, not ids). */
  ariaLabels?: {
    node: (node: NodeDTO) => string;
    edge: (from: NodeDTO | undefined, to: NodeDTO | undefined) => string;
  };
}

export interface Flow {
  nodes: GraphFlowNode[];
  edges: GraphFlowEdge[];
  /** Drawn position of every process node (saved, laid out, or in the upload column). */
  positions: Map<number, XY>;
  uploadGroup: Rect | null;
}

/** Where the nodes are drawn: their saved coordinates, or the automatic layout (dagre) for those without. */
export function layoutFor(
  nodes: readonly NodeDTO[],
  edges: readonly EdgeDTO[],
  isUpload: (type: ActivityType) => boolean,
): GraphLayout {
  return layoutGraph(
    nodes.map((n) => ({ id: n.id, x: n.x, y: n.y, upload: isUpload(n.activityType) })),
    edges,
  );
}

export function buildFlow(input: FlowInput): Flow {
  const { nodes, edges, predicates, isUpload, followUpTypes, activeNodeId, chooser, ariaLabels } = input;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const { positions, uploadGroup } = input.layout ?? layoutFor(nodes, edges, isUpload);
  const unconnected = new Set(unconnectedNodeIds({ nodes, edges }));

  const flowNodes: GraphFlowNode[] = [];
  if (uploadGroup) {
    flowNodes.push({
      id: UPLOAD_GROUP_ID,
      type: 'uploadGroup',
      position: { x: uploadGroup.x, y: uploadGroup.y },
      // Sized up front (as the process nodes): React Flow draws a node it knows the size of at once,
      // rather than hidden until it has measured it.
      width: uploadGroup.width,
      height: uploadGroup.height,
      style: { width: uploadGroup.width, height: uploadGroup.height },
      data: { count: nodes.filter((n) => isUpload(n.activityType)).length },
      draggable: false,
      selectable: false,
      focusable: false,
      zIndex: -1,
    });
  }
  for (const n of nodes) {
    const upload = isUpload(n.activityType);
    flowNodes.push({
      id: flowNodeId(n.id),
      type: 'process',
      position: positions.get(n.id)!,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
      ariaLabel: ariaLabels?.node(n),
      data: {
        node: n,
        upload,
        unconnected: unconnected.has(n.id),
        canFollow: followUpTypes(n.activityType).length > 0,
        active: n.id === activeNodeId,
      },
      // Upload nodes keep their slot in the group box.
      draggable: !upload,
    });
  }

  const countByEdge = new Map<number, number>();
  for (const p of predicates) countByEdge.set(p.edgeId, (countByEdge.get(p.edgeId) ?? 0) + 1);
  const flowEdges: GraphFlowEdge[] = edges.map((e) => ({
    id: flowEdgeId(e.id),
    type: 'predicate',
    source: flowNodeId(e.fromId),
    target: flowNodeId(e.toId),
    ariaLabel: ariaLabels?.edge(byId.get(e.fromId), byId.get(e.toId)),
    data: { edgeId: e.id, predicateCount: countByEdge.get(e.id) ?? 0 },
  }));

  const chooserSource = chooser ? positions.get(chooser.sourceId) : undefined;
  if (chooser && chooserSource) {
    flowNodes.push({
      id: CHOOSER_ID,
      type: 'chooser',
      position: followUpPosition(chooserSource),
      data: { sourceId: chooser.sourceId, sourceType: chooser.sourceType, pickedType: chooser.pickedType },
      draggable: false,
      selectable: false,
      zIndex: 10,
    });
    flowEdges.push({
      id: CHOOSER_ID,
      type: 'default',
      source: flowNodeId(chooser.sourceId),
      target: CHOOSER_ID,
      animated: true,
      selectable: false,
      focusable: false,
      data: {},
    });
  }
  return { nodes: flowNodes, edges: flowEdges, positions, uploadGroup };
}
