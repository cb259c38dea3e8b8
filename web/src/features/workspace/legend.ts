/**
 * Pure rules of the tag legend and the tag list of the LABELING mode (spec 2 section 4 "Other", issue 11
 * section 3), unit-tested beside this file:
 * - `legendTree`: the tag types present in the document as a tree built from their paths (a parent type
 *   appears even when only its children have tags), per node, children sorted by name;
 * - `checkState` / `toggleNode`: the tri-state checkboxes over the set of hidden type ids (a node is checked
 *   when every type under it, itself included, is shown, unchecked when none is, else indeterminate;
 *   toggling a checked node hides them all, any other node shows them all);
 * - `tagListRows`: the tag list, in text order, filtered by a case-insensitive prefix of the type name or the
 *   tag's text (or of any word of either).
 */
import { TAG_PATH_SEPARATOR } from '@domain/labels';

/** What the legend needs of a tag. */
export interface LegendTag {
  id: number;
  startOffset: number;
  endOffset: number;
  nerTagTypeId: number;
  nerTagType: { name: string; backgroundColor: string; nodeId: number; path: string };
}

export interface LegendNode {
  key: string;
  name: string;
  /** The tag type of this entry when the document has tags of it (else the entry is only a parent). */
  typeId: number | null;
  color: string | null;
  /** Tags of this type and the types under it. */
  count: number;
  /** This entry's type and every type under it that has tags. */
  typeIds: number[];
  children: LegendNode[];
}

export function legendTree(tags: readonly LegendTag[]): LegendNode[] {
  const nodes = new Map<string, LegendNode>();
  const roots: LegendNode[] = [];
  const parentOf = new Map<string, LegendNode | null>();
  const ensure = (nodeId: number, names: string[]): LegendNode => {
    const key = `${nodeId}:${names.join(TAG_PATH_SEPARATOR)}`;
    let n = nodes.get(key);
    if (n) return n;
    n = { key, name: names.at(-1)!, typeId: null, color: null, count: 0, typeIds: [], children: [] };
    nodes.set(key, n);
    const parent = names.length > 1 ? ensure(nodeId, names.slice(0, -1)) : null;
    parentOf.set(key, parent);
    (parent ? parent.children : roots).push(n);
    return n;
  };
  for (const tag of tags) {
    const tt = tag.nerTagType;
    const names = (tt.path || tt.name).split(TAG_PATH_SEPARATOR);
    let n: LegendNode | null = ensure(tt.nodeId, names);
    if (n.typeId === null) {
      n.typeId = tag.nerTagTypeId;
      n.color = tt.backgroundColor;
    }
    for (; n; n = parentOf.get(n.key) ?? null) {
      n.count += 1;
      if (!n.typeIds.includes(tag.nerTagTypeId)) n.typeIds.push(tag.nerTagTypeId);
    }
  }
  const sort = (list: LegendNode[]) => {
    list.sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
    list.forEach((x) => sort(x.children));
  };
  sort(roots);
  return roots;
}

export type CheckState = 'checked' | 'unchecked' | 'indeterminate';

export function checkState(node: LegendNode, hidden: ReadonlySet<number>): CheckState {
  const off = node.typeIds.filter((id) => hidden.has(id)).length;
  return off === 0 ? 'checked' : off === node.typeIds.length ? 'unchecked' : 'indeterminate';
}

/** The hidden types after a click on the node's checkbox. */
export function toggleNode(node: LegendNode, hidden: ReadonlySet<number>): Set<number> {
  const next = new Set(hidden);
  if (checkState(node, hidden) === 'checked') node.typeIds.forEach((id) => next.add(id));
  else node.typeIds.forEach((id) => next.delete(id));
  return next;
}

/** The legend depth first with each entry's depth (children follow their parent). */
export function legendRows(tree: readonly LegendNode[]): { node: LegendNode; depth: number }[] {
  const rows: { node: LegendNode; depth: number }[] = [];
  const walk = (n: LegendNode, depth: number) => {
    rows.push({ node: n, depth });
    n.children.forEach((c) => walk(c, depth + 1));
  };
  tree.forEach((n) => walk(n, 0));
  return rows;
}

export interface TagRow {
  id: number;
  typeName: string;
  color: string;
  startOffset: number;
  endOffset: number;
  /** The tag's text, cut to `EXCERPT` characters. */
  excerpt: string;
}

export const EXCERPT = 60;

const fold = (s: string) => s.toLocaleLowerCase();
const words = (s: string) => s.split(/[\s\p{P}]+/u).filter(Boolean);

/** Whether `value` or one of its words starts with `query` (both folded). */
const prefixMatch = (value: string, query: string) => {
  const v = fold(value);
  return v.startsWith(query) || words(v).some((w) => w.startsWith(query));
};

/** The rows of the tag list in text order (the outer tag first, then by id), filtered by the query (blank: every tag). */
export function tagListRows(tags: readonly LegendTag[], text: string, query: string): TagRow[] {
  const q = fold(query.trim());
  const rows: TagRow[] = [];
  for (const tag of tags) {
    const full = text.slice(tag.startOffset, tag.endOffset);
    if (q && !prefixMatch(tag.nerTagType.name, q) && !prefixMatch(full, q)) continue;
    rows.push({
      id: tag.id,
      typeName: tag.nerTagType.name,
      color: tag.nerTagType.backgroundColor,
      startOffset: tag.startOffset,
      endOffset: tag.endOffset,
      excerpt: full.length > EXCERPT ? `${full.slice(0, EXCERPT)}…` : full,
    });
  }
  return rows.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset || a.id - b.id);
}
