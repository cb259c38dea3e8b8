/**
 * Relations in the workspace (issue 12 section 1; rules in domain/relations.ts, API in docs/api-relations.md):
 * the draft the candidates are held in until Create (a new graph) or Edit (an existing graph), the arcs drawn
 * over the text, the tags without relation, and what removing a relation means. Pure, unit-tested.
 *
 * - Linking two tags when no draft is open starts one: an edit of the graph that already holds one of the two
 *   tags (its relations plus the new one), else a new graph. Further links go into the open draft.
 * - Changing the type of a saved relation opens an edit of its graph with the type replaced.
 * - Removing the only relation of a saved graph removes the graph (the workspace warns first).
 */
import type { RelationGraphDTO, RelationInput } from '@domain/relations';
import type { NerTagDTO } from '@domain/tags';

/**
 * What the relation views (list, menu, graph cards, modals) show of a tag, by id: '' for a tag they do not
 * know. The one thing about tags that depends on the workspace: the text workspace's covered text
 * (spanTexts), the speech workspace's words of the tag's tokens (features/speech/transcript.ts).
 */
export type TagTexts = (tagId: number) => string;

/** The text workspace's tag texts: the text each span tag covers. */
export function spanTexts(text: string, tagsById: ReadonlyMap<number, NerTagDTO>): TagTexts {
  return (id) => {
    const tag = tagsById.get(id);
    return tag && tag.startOffset !== null && tag.endOffset !== null
      ? text.slice(tag.startOffset, tag.endOffset)
      : '';
  };
}

/** A tag's text cut to `max` characters ('?' when unknown). */
export function excerpt(text: string, max = 24): string {
  if (!text) return '?';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What the workspace draws of a relation type. */
export interface TypeLabel {
  id: number;
  name: string;
  color: string;
}

export interface Draft {
  /** the graph being edited; null for a new graph */
  graphId: number | null;
  /** the relations the graph will have when saved */
  relations: RelationInput[];
}

const same = (a: RelationInput, b: RelationInput) =>
  a.fromId === b.fromId && a.toId === b.toId && a.relationTypeId === b.relationTypeId;

const inputOf = (r: RelationInput): RelationInput => ({
  fromId: r.fromId,
  toId: r.toId,
  relationTypeId: r.relationTypeId,
});

/** The saved graph that holds the tag, if any. */
export function graphOfTag(graphs: readonly RelationGraphDTO[], tagId: number): RelationGraphDTO | undefined {
  return graphs.find((g) => g.relations.some((r) => r.fromId === tagId || r.toId === tagId));
}

/** The draft with a new relation (see the header); unchanged when it already holds it. */
export function addToDraft(
  draft: Draft | null,
  graphs: readonly RelationGraphDTO[],
  relation: RelationInput,
): Draft {
  const rel = inputOf(relation);
  if (draft)
    return draft.relations.some((r) => same(r, rel))
      ? draft
      : { ...draft, relations: [...draft.relations, rel] };
  const graph = graphOfTag(graphs, rel.fromId) ?? graphOfTag(graphs, rel.toId);
  if (!graph) return { graphId: null, relations: [rel] };
  const relations = graph.relations.map(inputOf);
  return {
    graphId: graph.id,
    relations: relations.some((r) => same(r, rel)) ? relations : [...relations, rel],
  };
}

/** The draft with the relation at `index` of a draft retyped. */
export function retypeInDraft(draft: Draft, index: number, relationTypeId: number): Draft {
  return {
    ...draft,
    relations: draft.relations.map((r, i) => (i === index ? { ...r, relationTypeId } : r)),
  };
}

/** A draft editing the saved relation's graph with its type changed (or the open draft of that graph). */
export function retypeSaved(
  draft: Draft | null,
  graph: RelationGraphDTO,
  relationId: number,
  relationTypeId: number,
): Draft {
  const at = graph.relations.findIndex((r) => r.id === relationId);
  const base: Draft =
    draft && draft.graphId === graph.id
      ? draft
      : { graphId: graph.id, relations: graph.relations.map(inputOf) };
  const old = graph.relations[at];
  const index = old ? base.relations.findIndex((r) => same(r, old)) : -1;
  return index < 0 ? base : retypeInDraft(base, index, relationTypeId);
}

/** The draft without its relation at `index`. */
export function removeFromDraft(draft: Draft, index: number): Draft {
  return { ...draft, relations: draft.relations.filter((_, i) => i !== index) };
}

/** Removing a saved relation: the whole graph when it is its only relation, else the graph without it. */
export function removalOf(
  graph: RelationGraphDTO,
  relationId: number,
): { kind: 'graph' } | { kind: 'relation'; relations: RelationInput[] } {
  const rest = graph.relations.filter((r) => r.id !== relationId);
  return rest.length ? { kind: 'relation', relations: rest.map(inputOf) } : { kind: 'graph' };
}

export interface Arc extends RelationInput {
  key: string;
  /** the saved graph it belongs to (the edited one for a draft); null for a new graph's draft */
  graphId: number | null;
  /** held in the draft, not saved yet */
  pending: boolean;
}

/** The arcs to draw: the saved graphs', a draft's in place of the graph it edits (pending = not saved). */
export function arcsOf(graphs: readonly RelationGraphDTO[], draft: Draft | null): Arc[] {
  const arcs: Arc[] = [];
  for (const g of graphs) {
    if (draft && draft.graphId === g.id) continue;
    for (const r of g.relations) arcs.push({ ...inputOf(r), key: `r${r.id}`, graphId: g.id, pending: false });
  }
  if (draft) {
    const saved = draft.graphId === null ? [] : (graphs.find((g) => g.id === draft.graphId)?.relations ?? []);
    draft.relations.forEach((r, i) =>
      arcs.push({
        ...r,
        key: `d${i}`,
        graphId: draft.graphId,
        pending: !saved.some((s) => same(s, r)),
      }),
    );
  }
  return arcs;
}

/** How many of `arcs` (saved and held in the draft) each tag takes part in, by tag id. */
export function relationCounts(arcs: readonly Pick<Arc, 'fromId' | 'toId'>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const a of arcs)
    for (const id of a.fromId === a.toId ? [a.fromId] : [a.fromId, a.toId])
      counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** The ids among `tagIds` of the tags that take part in no saved relation. */
export function unrelatedTagIds(tagIds: Iterable<number>, graphs: readonly RelationGraphDTO[]): Set<number> {
  const related = new Set<number>();
  for (const g of graphs)
    for (const r of g.relations) {
      related.add(r.fromId);
      related.add(r.toId);
    }
  return new Set([...tagIds].filter((id) => !related.has(id)));
}

/** A cubic arc from (x1, y1) to (x2, y2) rising `height` above the higher end: the SVG path and its top middle. */
export function arcPath(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  height: number,
): { d: string; labelX: number; labelY: number } {
  const top = Math.min(y1, y2) - height;
  const d = `M ${x1} ${y1} C ${x1} ${top}, ${x2} ${top}, ${x2} ${y2}`;
  // the curve's point at t = 0.5
  const labelY = 0.125 * y1 + 0.75 * top + 0.125 * y2;
  return { d, labelX: (x1 + x2) / 2, labelY };
}

/** Where a tag is drawn: its first segment's left, width and top, relative to the text. */
export interface TagBox {
  x: number;
  w: number;
  y: number;
}

export interface ArcLayout {
  arc: Arc;
  d: string;
  labelX: number;
  labelY: number;
}

const BASE_HEIGHT = 12;
const MAX_EXTRA = 18;
const LABEL_H = 14;

/**
 * Lays out the arcs whose two tags are drawn: each tag's arc ends are spread over its width (ordered by the
 * other end), an arc rises more the farther its ends are apart (never above the top of the text), and a label
 * that would overlap an earlier one moves up (at most three times).
 */
export function layoutArcs(
  arcs: readonly Arc[],
  boxes: ReadonlyMap<number, TagBox>,
  labelWidth: (arc: Arc) => number,
): ArcLayout[] {
  const drawn = arcs.filter((a) => boxes.has(a.fromId) && boxes.has(a.toId));
  const ends = new Map<number, { arc: Arc; otherX: number }[]>();
  for (const arc of drawn)
    for (const [self, other] of [
      [arc.fromId, arc.toId],
      [arc.toId, arc.fromId],
    ])
      ends.set(self, [...(ends.get(self) ?? []), { arc, otherX: boxes.get(other)!.x }]);
  const endX = (tagId: number, arc: Arc) => {
    const list = ends
      .get(tagId)!
      .slice()
      .sort((a, b) => a.otherX - b.otherX);
    const box = boxes.get(tagId)!;
    const i = list.findIndex((e) => e.arc === arc);
    return box.x + (box.w * (i + 1)) / (list.length + 1);
  };
  const placed: { x: number; y: number; w: number }[] = [];
  return drawn.map((arc) => {
    const a = boxes.get(arc.fromId)!;
    const b = boxes.get(arc.toId)!;
    const x1 = endX(arc.fromId, arc);
    let x2 = endX(arc.toId, arc);
    if (x2 === x1) x2 += 1;
    // never above the top of the text (the label stays inside it)
    const ceiling = Math.max(0, Math.min(a.y, b.y) - LABEL_H);
    const rise = (h: number) => Math.min(h, ceiling);
    const height = BASE_HEIGHT + Math.min(MAX_EXTRA, Math.abs(x2 - x1) / 20);
    let path = arcPath(x1, a.y, x2, b.y, rise(height));
    const w = labelWidth(arc);
    for (
      let lift = 1;
      lift <= 3 && rise(height + lift * LABEL_H) > rise(height + (lift - 1) * LABEL_H);
      lift++
    ) {
      const overlaps = placed.some(
        (p) => Math.abs(p.x - path.labelX) < (p.w + w) / 2 && Math.abs(p.y - path.labelY) < LABEL_H,
      );
      if (!overlaps) break;
      path = arcPath(x1, a.y, x2, b.y, rise(height + lift * LABEL_H));
    }
    placed.push({ x: path.labelX, y: path.labelY, w });
    return { arc, ...path };
  });
}

/** The relation list's search: a case-insensitive part of the type's name or of one of its tags' texts. */
export function relationMatches(search: string, texts: readonly string[]): boolean {
  const q = search.trim().toLocaleLowerCase();
  return !q || texts.some((x) => x.toLocaleLowerCase().includes(q));
}
