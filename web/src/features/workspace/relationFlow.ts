/**
 * The relation graph view's model (issue 12 section 1, spec 2 sections 2 and 9): which graphs there are to
 * choose from (the saved ones and a new graph's draft), and the pure translation of one graph's relations
 * (saved, or the draft's in place of the graph it edits, see relations.ts arcsOf) into React Flow nodes and
 * edges laid out left to right by dagre (the flow graph's layout helper), and the geometry of an arrow.
 *
 * - A node is a tag of the graph: its covered text and its tag type (name and colours).
 * - An edge is a relation, labelled by its relation type in the type's colour; an unsaved candidate is
 *   `pending` (drawn dashed). Relations between the same two tags bend apart so their labels stay readable.
 * - Arrows (spec 2 section 9, "arrow layout threshold 50 and 5; arrow label offset 10"): when the two tags
 *   stand more than 50 px apart side by side, the arrow runs between their facing sides; else, when more
 *   than 5 px apart one above the other, between their facing top and bottom; else (overlapping) it loops
 *   over their tops. The label stands 10 px above the arrow's middle.
 */
import type { Edge, Node } from '@xyflow/react';
import type { RelationGraphDTO } from '@domain/relations';
import type { NerTagDTO } from '@domain/tags';
import { leftToRightPositions, type Rect, type XY } from '../graph/layout';
import { excerpt, type Arc, type Draft, type TagTexts, type TypeLabel } from './relations';

export const TAG_NODE_WIDTH = 170;
export const TAG_NODE_HEIGHT = 54;
/** Horizontal room between two ranks (for the relation labels), and between two tags of one rank. */
const RANK_SEP = 150;
const NODE_SEP = 36;
/** Spec 2 section 9. */
export const ARROW_SIDE_THRESHOLD = 50;
export const ARROW_VERTICAL_THRESHOLD = 5;
export const ARROW_LABEL_OFFSET = 10;
/** How far apart (px, at the middle) two relations between the same tags bend. */
export const PARALLEL_BEND = 36;
const TEXT_MAX = 40;

/** A graph of the chooser: a saved graph's id, or 'new' for the draft of a graph not saved yet. */
export type GraphChoice = number | 'new';

export interface GraphOption {
  choice: GraphChoice;
  /** 1-based number of a saved graph in the list (0 for the new graph's draft) */
  n: number;
  count: number;
  /** the draft edits (or is) this graph */
  draft: boolean;
}

/** The graphs to choose from: the saved ones in their order, then a new graph's draft. */
export function graphOptions(graphs: readonly RelationGraphDTO[], draft: Draft | null): GraphOption[] {
  const options: GraphOption[] = graphs.map((g, i) => {
    const edited = draft?.graphId === g.id;
    return {
      choice: g.id,
      n: i + 1,
      count: edited ? draft.relations.length : g.relations.length,
      draft: edited,
    };
  });
  if (draft && draft.graphId === null)
    options.push({ choice: 'new', n: 0, count: draft.relations.length, draft: true });
  return options;
}

/** The choice that is shown: the one asked for while it exists, else the draft's, else the first graph. */
export function shownChoice(
  options: readonly GraphOption[],
  asked: GraphChoice | null,
  draft: Draft | null,
): GraphChoice | null {
  if (asked !== null && options.some((o) => o.choice === asked)) return asked;
  if (draft) return draft.graphId ?? 'new';
  return options[0]?.choice ?? null;
}

/** The arcs of one choice (arcsOf puts a draft's relations in place of the graph it edits). */
export const arcsOfChoice = (arcs: readonly Arc[], choice: GraphChoice | null): Arc[] =>
  choice === null ? [] : arcs.filter((a) => (choice === 'new' ? a.graphId === null : a.graphId === choice));

export type RelationTagNodeData = {
  tagId: number;
  /** the tag's text (covered text or words), shortened */
  text: string;
  typeName: string;
  background: string;
  color: string;
  selected: boolean;
};
export type RelationTagFlowNode = Node<RelationTagNodeData, 'relationTag'>;

export type RelationEdgeData = {
  /** the arc's key: r{relationId} for a saved relation, d{index} for a relation of the draft */
  key: string;
  label: string;
  color: string;
  pending: boolean;
  selected: boolean;
  /** signed bend at the middle, in px, perpendicular to the arrow (0: straight) */
  bend: number;
};
export type RelationFlowEdge = Edge<RelationEdgeData, 'relation'>;

export interface RelationFlowInput {
  arcs: readonly Arc[];
  tagsById: ReadonlyMap<number, NerTagDTO>;
  tagText: TagTexts;
  typesById: ReadonlyMap<number, TypeLabel>;
  selectedTagId?: number | null;
  selectedKey?: string | null;
}

/** React Flow nodes (tags, laid out left to right) and edges (relations) of one graph's arcs. */
export function relationFlow(input: RelationFlowInput): {
  nodes: RelationTagFlowNode[];
  edges: RelationFlowEdge[];
} {
  const { arcs, tagsById, tagText, typesById, selectedTagId = null, selectedKey = null } = input;
  const ids: number[] = [];
  for (const a of arcs) for (const id of [a.fromId, a.toId]) if (!ids.includes(id)) ids.push(id);
  const positions = leftToRightPositions(ids, arcs, {
    layoutWidth: TAG_NODE_WIDTH,
    layoutHeight: TAG_NODE_HEIGHT,
    cardWidth: TAG_NODE_WIDTH,
    cardHeight: TAG_NODE_HEIGHT,
    rankSep: RANK_SEP,
    nodeSep: NODE_SEP,
  });
  const nodes: RelationTagFlowNode[] = ids.map((id) => {
    const tag = tagsById.get(id);
    return {
      id: String(id),
      type: 'relationTag',
      position: positions.get(id)!,
      width: TAG_NODE_WIDTH,
      height: TAG_NODE_HEIGHT,
      selected: id === selectedTagId,
      data: {
        tagId: id,
        text: excerpt(tagText(id), TEXT_MAX),
        typeName: tag?.nerTagType.name ?? '',
        background: tag?.nerTagType.backgroundColor ?? '#e9ecef',
        color: tag?.nerTagType.textColor ?? '#212529',
        selected: id === selectedTagId,
      },
    };
  });
  // Relations between the same two tags (either way) bend apart, centred on the straight line.
  const pairs = new Map<string, Arc[]>();
  for (const a of arcs) {
    const k = `${Math.min(a.fromId, a.toId)}-${Math.max(a.fromId, a.toId)}`;
    pairs.set(k, [...(pairs.get(k) ?? []), a]);
  }
  const bendOf = (a: Arc) => {
    const list = pairs.get(`${Math.min(a.fromId, a.toId)}-${Math.max(a.fromId, a.toId)}`)!;
    const centred = (list.indexOf(a) - (list.length - 1) / 2) * PARALLEL_BEND;
    // the perpendicular turns with the direction: normalise so that both directions share one side scale
    return a.fromId < a.toId ? centred : -centred;
  };
  const edges: RelationFlowEdge[] = arcs.map((a) => {
    const type = typesById.get(a.relationTypeId);
    return {
      id: a.key,
      type: 'relation',
      source: String(a.fromId),
      target: String(a.toId),
      selected: a.key === selectedKey,
      data: {
        key: a.key,
        label: type?.name ?? `#${a.relationTypeId}`,
        color: type?.color ?? '#6c757d',
        pending: a.pending,
        selected: a.key === selectedKey,
        bend: bendOf(a),
      },
    };
  });
  return { nodes, edges };
}

export interface ArrowGeometry {
  path: string;
  labelX: number;
  labelY: number;
}

const mid = (a: XY, b: XY): XY => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** The arrow from the source tag's box to the target's (see the header), bent by `bend` px at its middle. */
export function arrowGeometry(s: Rect, t: Rect, bend = 0): ArrowGeometry {
  let from: XY;
  let to: XY;
  let loop = false;
  if (t.x - (s.x + s.width) > ARROW_SIDE_THRESHOLD) {
    from = { x: s.x + s.width, y: s.y + s.height / 2 };
    to = { x: t.x, y: t.y + t.height / 2 };
  } else if (s.x - (t.x + t.width) > ARROW_SIDE_THRESHOLD) {
    from = { x: s.x, y: s.y + s.height / 2 };
    to = { x: t.x + t.width, y: t.y + t.height / 2 };
  } else if (t.y - (s.y + s.height) > ARROW_VERTICAL_THRESHOLD) {
    from = { x: s.x + s.width / 2, y: s.y + s.height };
    to = { x: t.x + t.width / 2, y: t.y };
  } else if (s.y - (t.y + t.height) > ARROW_VERTICAL_THRESHOLD) {
    from = { x: s.x + s.width / 2, y: s.y };
    to = { x: t.x + t.width / 2, y: t.y + t.height };
  } else {
    from = { x: s.x + s.width / 2, y: s.y };
    to = { x: t.x + t.width / 2, y: t.y };
    loop = true;
  }
  const m = mid(from, to);
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy) || 1;
  // unit normal pointing to the left of the direction of travel
  const n = { x: dy / len, y: -dx / len };
  const lift = loop ? -Math.max(40, Math.abs(dx) / 2) : 0;
  // a quadratic curve's middle lies half way to its control point: double the bend for the control point
  const control = { x: m.x + n.x * bend * 2, y: m.y + n.y * bend * 2 + lift * 2 };
  const top = { x: m.x + n.x * bend, y: m.y + n.y * bend + lift };
  const r = (v: number) => Math.round(v * 10) / 10;
  return {
    path: `M ${r(from.x)} ${r(from.y)} Q ${r(control.x)} ${r(control.y)} ${r(to.x)} ${r(to.y)}`,
    labelX: r(top.x),
    labelY: r(top.y - ARROW_LABEL_OFFSET),
  };
}
