/**
 * Graph rules of a process (spec 1 sections 2 and 7, docs/api-graph.md "Edges and predicates"): pure
 * functions over `{nodes, edges}`, used by the API before it writes and by the graph page before it offers.
 *
 * Decisions:
 * - Upload types (HUP, EMAIL_UPLOAD, SFTP_UPLOAD, GDU_UPLOAD, IPR) are sources only: never an edge target.
 *   The edge whitelist lets every type point at every non-upload type (domain/nodes.ts `EDGE_WHITELIST`).
 * - An edge is refused when it is a self-loop, a duplicate, not whitelisted, or its target is among the
 *   source's ancestors (a cycle) or descendants (a shortcut of an existing path).
 * - Cohesion: the nodes that have at least one edge form ONE weakly connected component. Isolated nodes are
 *   allowed (the page shows them with the "not connected" warning); an empty edge set is cohesive.
 * - The previous nodes of a node are all its ancestors; those of an edge are its from-node and the
 *   from-node's ancestors. Predicates may refer to the CLF, SPAN and LEXICON nodes among them.
 */
import type { ActivityType } from './enums';
import { LogicalOperators, type LogicalOperator, type PredicateType } from './graph-types';
import type { FieldViolation } from './node-settings-rules';
import type { Violation } from './validation';
import { EDGE_WHITELIST, isUploadType } from './nodes';

export interface GraphNode {
  id: number;
  activityType: ActivityType;
}

export interface GraphEdge {
  fromId: number;
  toId: number;
}

export interface Graph<N extends GraphNode = GraphNode, E extends GraphEdge = GraphEdge> {
  nodes: readonly N[];
  edges: readonly E[];
}

/** Node types a predicate can test (spec 1 section 9: predicate-eligible previous node types). */
export const PREDICATE_NODE_TYPES: readonly ActivityType[] = ['CLF', 'SPAN', 'LEXICON'];

function adjacency(edges: readonly GraphEdge[], reverse: boolean): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const e of edges) {
    const [from, to] = reverse ? [e.toId, e.fromId] : [e.fromId, e.toId];
    const list = map.get(from);
    if (list) list.push(to);
    else map.set(from, [to]);
  }
  return map;
}

function reachable(start: number, next: Map<number, number[]>): Set<number> {
  const seen = new Set<number>();
  const stack = [...(next.get(start) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(next.get(id) ?? []));
  }
  return seen;
}

/** Ids of every node with a path to `id` (not `id` itself, unless it sits on a cycle). */
export function ancestors(graph: Pick<Graph, 'edges'>, id: number): Set<number> {
  return reachable(id, adjacency(graph.edges, true));
}

/** Ids of every node reachable from `id`. */
export function descendants(graph: Pick<Graph, 'edges'>, id: number): Set<number> {
  return reachable(id, adjacency(graph.edges, false));
}

/** The previous nodes of a node: all its ancestors, in the order of `graph.nodes`. */
export function previousNodes<N extends GraphNode>(graph: Graph<N>, id: number): N[] {
  const ids = ancestors(graph, id);
  return graph.nodes.filter((n) => ids.has(n.id));
}

/** The previous nodes of an edge: its from-node and the from-node's ancestors. */
export function edgePreviousNodes<N extends GraphNode>(graph: Graph<N>, edge: GraphEdge): N[] {
  const ids = ancestors(graph, edge.fromId);
  ids.add(edge.fromId);
  return graph.nodes.filter((n) => ids.has(n.id));
}

/** The nodes among an edge's previous nodes that predicates may refer to (CLF, SPAN, LEXICON). */
export function predicateNodes<N extends GraphNode>(graph: Graph<N>, edge: GraphEdge): N[] {
  return edgePreviousNodes(graph, edge).filter((n) => PREDICATE_NODE_TYPES.includes(n.activityType));
}

/** True when the directed graph has a cycle. */
export function hasCycle(graph: Pick<Graph, 'edges'>): boolean {
  const next = adjacency(graph.edges, false);
  const state = new Map<number, 1 | 2>(); // 1 = on the current path, 2 = done
  const visit = (start: number): boolean => {
    // Iterative DFS: [node, index of the next child to look at]
    const stack: [number, number][] = [[start, 0]];
    state.set(start, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const children = next.get(top[0]) ?? [];
      if (top[1] >= children.length) {
        state.set(top[0], 2);
        stack.pop();
        continue;
      }
      const child = children[top[1]++];
      const s = state.get(child);
      if (s === 1) return true;
      if (s === undefined) {
        state.set(child, 1);
        stack.push([child, 0]);
      }
    }
    return false;
  };
  for (const id of next.keys()) if (!state.has(id) && visit(id)) return true;
  return false;
}

export type EdgeRefusal =
  | 'unknownNode'
  | 'crossProcess'
  | 'selfLoop'
  | 'uploadTarget'
  | 'notWhitelisted'
  | 'duplicate'
  | 'cycle'
  | 'shortcut';

/** Why an edge from -> to may not be added (null when it may). */
export function edgeRefusal(
  graph: Graph<GraphNode & { processId?: number }>,
  fromId: number,
  toId: number,
): EdgeRefusal | null {
  const from = graph.nodes.find((n) => n.id === fromId);
  const to = graph.nodes.find((n) => n.id === toId);
  if (!from || !to) return 'unknownNode';
  if (from.processId !== undefined && from.processId !== to.processId) return 'crossProcess';
  if (fromId === toId) return 'selfLoop';
  if (isUploadType(to.activityType)) return 'uploadTarget';
  if (!EDGE_WHITELIST[from.activityType].includes(to.activityType)) return 'notWhitelisted';
  if (graph.edges.some((e) => e.fromId === fromId && e.toId === toId)) return 'duplicate';
  if (ancestors(graph, fromId).has(toId)) return 'cycle';
  if (descendants(graph, fromId).has(toId)) return 'shortcut';
  return null;
}

/**
 * The nodes a node may be connected to next: whitelisted types, minus itself, its ancestors and
 * descendants (which include the nodes that already are its direct targets).
 */
export function allowedFollowUps<N extends GraphNode>(graph: Graph<N>, fromId: number): N[] {
  return graph.nodes.filter((n) => edgeRefusal(graph, fromId, n.id) === null);
}

/** True when the nodes that have at least one edge form one weakly connected component. */
export function isCohesive(graph: Pick<Graph, 'edges'>): boolean {
  if (graph.edges.length === 0) return true;
  const undirected = adjacency(
    [...graph.edges, ...graph.edges.map((e) => ({ fromId: e.toId, toId: e.fromId }))],
    false,
  );
  const start = graph.edges[0].fromId;
  const seen = reachable(start, undirected);
  seen.add(start);
  return [...undirected.keys()].every((id) => seen.has(id));
}

/** The graph after adding an edge. */
export function withEdge<N extends GraphNode, E extends GraphEdge>(graph: Graph<N, E>, edge: E): Graph<N, E> {
  return { nodes: graph.nodes, edges: [...graph.edges, edge] };
}

/** The graph after removing the edges matching `drop`. */
export function withoutEdges<N extends GraphNode, E extends GraphEdge>(
  graph: Graph<N, E>,
  drop: (e: E) => boolean,
): Graph<N, E> {
  return { nodes: graph.nodes, edges: graph.edges.filter((e) => !drop(e)) };
}

/** The graph after deleting a node together with its edges. */
export function withoutNode<N extends GraphNode, E extends GraphEdge>(
  graph: Graph<N, E>,
  id: number,
): Graph<N, E> {
  return {
    nodes: graph.nodes.filter((n) => n.id !== id),
    edges: graph.edges.filter((e) => e.fromId !== id && e.toId !== id),
  };
}

/** Ids of the nodes that have no edge at all (shown with the "not connected" warning). */
export function unconnectedNodeIds(graph: Graph): number[] {
  const linked = new Set(graph.edges.flatMap((e) => [e.fromId, e.toId]));
  return graph.nodes.filter((n) => !linked.has(n.id)).map((n) => n.id);
}

// --- predicates ---

export interface PredicateDraft {
  edgeId: number;
  parentId: number | null;
  predicateType: PredicateType;
  logicalOperator: LogicalOperator | null;
  nodeId: number | null;
  equal: boolean;
  clfTypeId: number | null;
  nerTagTypeId: number | null;
}

/** Keeps the fields of the predicate's type only (COMPLEX: operator; CLF: node and class; NER: node and tag). */
export function normalizePredicate(
  input: Partial<PredicateDraft> & Pick<PredicateDraft, 'edgeId' | 'predicateType'>,
): PredicateDraft {
  const base = { edgeId: input.edgeId, parentId: input.parentId ?? null, predicateType: input.predicateType };
  if (input.predicateType === 'COMPLEX') {
    return {
      ...base,
      logicalOperator: input.logicalOperator ?? null,
      nodeId: null,
      equal: true,
      clfTypeId: null,
      nerTagTypeId: null,
    };
  }
  return {
    ...base,
    logicalOperator: null,
    nodeId: input.nodeId ?? null,
    equal: input.equal ?? true,
    clfTypeId: input.predicateType === 'CLF' ? (input.clfTypeId ?? null) : null,
    nerTagTypeId: input.predicateType === 'NER' ? (input.nerTagTypeId ?? null) : null,
  };
}

/** Node types a simple predicate of each kind may refer to. */
export const PREDICATE_TYPE_NODES: Record<'CLF' | 'NER', readonly ActivityType[]> = {
  CLF: ['CLF'],
  NER: ['SPAN', 'LEXICON'],
};

export interface PredicateContext {
  /** The predicate-eligible previous nodes of the edge (predicateNodes), with the CLF mandatory flag. */
  nodes: readonly (GraphNode & { mandatory?: boolean })[];
  /** Ids of the labels of the chosen node (classifier types for CLF, NER tag types for NER). */
  labelIds: readonly number[];
  /** The parent predicate, when parentId is set and it exists. */
  parent?: { id: number; edgeId: number; predicateType: PredicateType } | null;
  /** On update: the predicate itself and its descendants (a parent may not be one of them). */
  ownSubtreeIds?: readonly number[];
}

/**
 * Rules of a predicate: COMPLEX needs a logical operator; CLF needs a CLF node among the edge's eligible
 * previous nodes and one of its classifier types (a node that is not mandatory also allows "no class",
 * null); NER needs a SPAN or LEXICON node among them and one of its NER tag types; a parent must be a
 * COMPLEX predicate of the same edge (and, on update, not the predicate itself or one of its children).
 */
export function predicateRules(p: PredicateDraft, ctx: PredicateContext): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (p.parentId !== null) {
    const parent = ctx.parent;
    if (
      !parent ||
      parent.edgeId !== p.edgeId ||
      parent.predicateType !== 'COMPLEX' ||
      ctx.ownSubtreeIds?.includes(parent.id)
    )
      out.push({ field: 'parentId', violation: INVALID_REF });
  }
  if (p.predicateType === 'COMPLEX') {
    if (!p.logicalOperator) out.push({ field: 'logicalOperator', violation: REQUIRED });
    else if (!(LogicalOperators as readonly string[]).includes(p.logicalOperator))
      out.push({ field: 'logicalOperator', violation: INVALID_REF });
    return out;
  }
  if (p.nodeId === null) return [...out, { field: 'nodeId', violation: REQUIRED }];
  const node = ctx.nodes.find((n) => n.id === p.nodeId);
  if (!node || !PREDICATE_TYPE_NODES[p.predicateType].includes(node.activityType))
    return [...out, { field: 'nodeId', violation: INVALID_REF }];
  const [field, labelId] =
    p.predicateType === 'CLF' ? ['clfTypeId', p.clfTypeId] : ['nerTagTypeId', p.nerTagTypeId];
  if (labelId === null) {
    const optional = p.predicateType === 'CLF' && node.mandatory === false;
    if (!optional) out.push({ field, violation: REQUIRED });
  } else if (!ctx.labelIds.includes(labelId)) out.push({ field, violation: INVALID_REF });
  return out;
}

const REQUIRED: Violation = { code: 'NotBlank', key: 'entity.validation.required' };
const INVALID_REF: Violation = { code: 'Match', key: 'error.idinvalid' };
