/**
 * Where the graph's nodes are drawn. Saved coordinates win; nodes never placed (x and y both 0) get a dagre
 * layout (node size 150, left to right). Upload-type nodes ignore coordinates altogether: they stand in a
 * column (spacing 95) inside the 'Upload' group box, left of everything else. Pure, so it is unit-tested.
 */
import dagre from '@dagrejs/dagre';

/** Layout node size of the spec. */
export const LAYOUT_NODE_SIZE = 150;
/** The drawn node card (fits in the layout size and in the upload column's spacing). */
export const NODE_WIDTH = 150;
export const NODE_HEIGHT = 66;
/** Vertical distance between upload nodes in their group box. */
export const UPLOAD_SPACING = 95;
/** A new node stands this far from the node it follows. */
export const NEW_NODE_OFFSET = { x: 300, y: -50 } as const;
/** The group box around the upload column. */
export const GROUP_PADDING = 16;
export const GROUP_HEADER = 30;
/** Horizontal distance from the upload column to the leftmost other node. */
const UPLOAD_COLUMN_GAP = 300;

export interface XY {
  x: number;
  y: number;
}

export interface Rect extends XY {
  width: number;
  height: number;
}

export interface LayoutNode {
  id: number;
  x: number;
  y: number;
  upload: boolean;
}

export interface LayoutEdge {
  fromId: number;
  toId: number;
}

export interface GraphLayout {
  /** Top-left corner of every node's card, by node id. */
  positions: Map<number, XY>;
  /** The 'Upload' group box, or null when the process has no upload node. */
  uploadGroup: Rect | null;
}

export const isUnplaced = (n: { x: number; y: number }) => n.x === 0 && n.y === 0;

/** Dagre positions (card top-left) of every node of the graph, left to right. */
function dagrePositions(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Map<number, XY> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 20, ranksep: LAYOUT_NODE_SIZE, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set(nodes.map((n) => n.id));
  for (const n of nodes) g.setNode(String(n.id), { width: LAYOUT_NODE_SIZE, height: LAYOUT_NODE_SIZE });
  for (const e of edges) {
    if (ids.has(e.fromId) && ids.has(e.toId)) g.setEdge(String(e.fromId), String(e.toId));
  }
  dagre.layout(g);
  const out = new Map<number, XY>();
  for (const n of nodes) {
    const { x = 0, y = 0 } = g.node(String(n.id));
    out.set(n.id, { x: Math.round(x - NODE_WIDTH / 2), y: Math.round(y - NODE_HEIGHT / 2) });
  }
  return out;
}

export function layoutGraph(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): GraphLayout {
  const positions = new Map<number, XY>();
  const regular = nodes.filter((n) => !n.upload);
  const uploads = nodes.filter((n) => n.upload);

  const unplaced = regular.filter(isUnplaced);
  const kept = regular.filter((n) => !isUnplaced(n));
  for (const n of kept) positions.set(n.id, { x: n.x, y: n.y });
  if (unplaced.length) {
    const auto = dagrePositions(nodes, edges);
    // Beside nodes the user already placed, the laid-out ones go underneath them rather than on top.
    const shiftY = kept.length
      ? Math.max(...kept.map((n) => n.y)) +
        LAYOUT_NODE_SIZE -
        Math.min(...unplaced.map((n) => auto.get(n.id)!.y))
      : 0;
    for (const n of unplaced) {
      const p = auto.get(n.id)!;
      positions.set(n.id, { x: p.x, y: p.y + shiftY });
    }
  }

  if (uploads.length === 0) return { positions, uploadGroup: null };

  const placed = regular.map((n) => positions.get(n.id)!);
  const columnX = placed.length ? Math.min(...placed.map((p) => p.x)) - UPLOAD_COLUMN_GAP : 0;
  const columnY = placed.length ? Math.min(...placed.map((p) => p.y)) : 0;
  // Keep the order stable (by id) so a node keeps its slot while others come and go.
  [...uploads]
    .sort((a, b) => a.id - b.id)
    .forEach((n, i) => positions.set(n.id, { x: columnX, y: columnY + i * UPLOAD_SPACING }));

  const uploadGroup: Rect = {
    x: columnX - GROUP_PADDING,
    y: columnY - GROUP_HEADER - GROUP_PADDING / 2,
    width: NODE_WIDTH + 2 * GROUP_PADDING,
    height:
      GROUP_HEADER + GROUP_PADDING + (uploads.length - 1) * UPLOAD_SPACING + NODE_HEIGHT + GROUP_PADDING / 2,
  };
  return { positions, uploadGroup };
}

/** Where a node added after `source` goes (x+300, y-50). */
export const followUpPosition = (source: XY): XY => ({
  x: source.x + NEW_NODE_OFFSET.x,
  y: source.y + NEW_NODE_OFFSET.y,
});

/** A pointer move shorter than this (px) is a click, not a drag. */
export const CLICK_DISTANCE = 5;

export const movedFarEnough = (from: XY, to: XY) =>
  Math.hypot(to.x - from.x, to.y - from.y) >= CLICK_DISTANCE;
