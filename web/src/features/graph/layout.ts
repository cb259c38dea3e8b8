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

/** How a left-to-right layout spaces its nodes: the box dagre reserves per node, the card drawn, the gaps. */
export interface LeftToRightOptions {
  layoutWidth: number;
  layoutHeight: number;
  cardWidth: number;
  cardHeight: number;
  rankSep: number;
  nodeSep: number;
}

const PROCESS_LAYOUT: LeftToRightOptions = {
  layoutWidth: LAYOUT_NODE_SIZE,
  layoutHeight: LAYOUT_NODE_SIZE,
  cardWidth: NODE_WIDTH,
  cardHeight: NODE_HEIGHT,
  rankSep: LAYOUT_NODE_SIZE,
  nodeSep: 20,
};

/**
 * Dagre positions (card top-left) of every node, left to right (also the workspace's relation graph view);
 * edges with an end outside `ids` are ignored.
 */
export function leftToRightPositions(
  ids: readonly number[],
  edges: readonly LayoutEdge[],
  o: LeftToRightOptions = PROCESS_LAYOUT,
): Map<number, XY> {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: o.nodeSep, ranksep: o.rankSep, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  const known = new Set(ids);
  for (const id of ids) g.setNode(String(id), { width: o.layoutWidth, height: o.layoutHeight });
  edges.forEach((e, i) => {
    if (known.has(e.fromId) && known.has(e.toId)) g.setEdge(String(e.fromId), String(e.toId), {}, String(i));
  });
  dagre.layout(g);
  const out = new Map<number, XY>();
  for (const id of ids) {
    const { x = 0, y = 0 } = g.node(String(id));
    out.set(id, { x: Math.round(x - o.cardWidth / 2), y: Math.round(y - o.cardHeight / 2) });
  }
  return out;
}

/** Dagre positions (card top-left) of every node of the process graph, left to right. */
const dagrePositions = (nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]) =>
  leftToRightPositions(
    nodes.map((n) => n.id),
    edges,
  );

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

/** Free space kept between a new node's card and any other card. */
export const FREE_GAP = { x: 40, y: 30 } as const;

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width + FREE_GAP.x &&
  b.x < a.x + a.width + FREE_GAP.x &&
  a.y < b.y + b.height + FREE_GAP.y &&
  b.y < a.y + a.height + FREE_GAP.y;

/**
 * The rectangles the drawn nodes, the upload group box and the edges take on the canvas. An edge between
 * a source's right side and a target's left side (a bezier whose control points share its ends' heights)
 * stays inside the box of its two ends.
 */
export function occupiedRects(
  positions: ReadonlyMap<number, XY>,
  uploadGroup: Rect | null,
  edges: readonly LayoutEdge[] = [],
): Rect[] {
  const rects: Rect[] = [...positions.values()].map((p) => ({
    x: p.x,
    y: p.y,
    width: NODE_WIDTH,
    height: NODE_HEIGHT,
  }));
  for (const e of edges) {
    const from = positions.get(e.fromId);
    const to = positions.get(e.toId);
    if (!from || !to) continue;
    const start = { x: from.x + NODE_WIDTH, y: from.y + NODE_HEIGHT / 2 };
    const end = { x: to.x, y: to.y + NODE_HEIGHT / 2 };
    rects.push({
      x: Math.min(start.x, end.x),
      y: Math.min(start.y, end.y),
      width: Math.abs(end.x - start.x),
      height: Math.abs(end.y - start.y),
    });
  }
  return uploadGroup ? [...rects, uploadGroup] : rects;
}

/** How many card slots a row of new nodes takes before the next row starts. */
const FREE_ROW_SLOTS = 4;

/**
 * Where a new node's card goes: at `preferred` when no other card, edge or the upload box is within the free
 * gap; else in the first free slot of a grid of card-sized steps right of and below it (rows of a few slots,
 * read like text), and failing that anywhere around it. Never (0, 0), which would mean 'not placed yet'.
 */
export function freeSpot(preferred: XY, occupied: readonly Rect[]): XY {
  const stepX = NODE_WIDTH + FREE_GAP.x;
  const stepY = NODE_HEIGHT + FREE_GAP.y;
  const start = { x: Math.round(preferred.x), y: Math.round(preferred.y) };
  const at = (i: number, j: number) => ({ x: start.x + i * stepX, y: start.y + j * stepY });
  const isFree = (p: XY) =>
    !isUnplaced(p) && !occupied.some((r) => overlaps({ ...p, width: NODE_WIDTH, height: NODE_HEIGHT }, r));
  const rows = occupied.length + 2;
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < FREE_ROW_SLOTS; i++) if (isFree(at(i, j))) return at(i, j);
  }
  const radius = rows;
  const steps: [number, number][] = [];
  for (let i = -radius; i <= radius; i++) for (let j = -radius; j <= radius; j++) steps.push([i, j]);
  steps.sort(
    ([ai, aj], [bi, bj]) =>
      Math.max(Math.abs(ai), Math.abs(aj)) - Math.max(Math.abs(bi), Math.abs(bj)) ||
      Math.abs(ai) + Math.abs(aj) - (Math.abs(bi) + Math.abs(bj)),
  );
  for (const [i, j] of steps) if (isFree(at(i, j))) return at(i, j);
  // Everything around is taken: below the lowest card.
  const bottom = Math.max(...occupied.map((r) => r.y + r.height));
  return { x: start.x, y: bottom + FREE_GAP.y };
}
