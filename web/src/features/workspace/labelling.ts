/**
 * Pure rules of the LABELING mode (spec 2 sections 2 and 4, issue 11), unit-tested beside this file:
 * - `textBlocks`: the text cut into blocks of whole lines, so the view renders (and lays out) block by block;
 * - `segmentText`: a block cut at every tag boundary, each segment listing the tags over it, outer first, so
 *   nested and overlapping tags are drawn as stacked layers (one DOM node per segment, never per character);
 * - `searchKey` / `filterOptions`: the labelling menu's search (from 2 characters, case-insensitive, after
 *   stripping _ " ' , ( ) < >);
 * - `findOccurrences`: the spans of "label all occurrences";
 * - the undo stack of tag changes (`pushOp`, `takeUndo`, `takeRedo`, `remapIds`).
 */
import { breadcrumb, flattenOptions, type TagTypeOption } from '@domain/tags';
import * as stacks from '@domain/undo-stack';

export { breadcrumb };

export interface Span {
  startOffset: number;
  endOffset: number;
}

/** The part of a tag the view needs to draw it. */
export interface SpanTag extends Span {
  id: number;
}

export interface Block {
  start: number;
  end: number;
}

/**
 * Blocks of whole lines of about `size` characters (a line longer than that is a block of its own, cut at
 * `size * 4` so a text without line breaks still gets blocks). Blocks cover the text without gaps.
 */
export function textBlocks(text: string, size = 2000): Block[] {
  const blocks: Block[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const nl = text.indexOf('\n', end);
      const hard = Math.min(text.length, start + size * 4);
      end = nl === -1 || nl + 1 > hard ? hard : nl + 1;
      // Never cut a surrogate pair.
      if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end])) end += 1;
    }
    blocks.push({ start, end });
    start = end;
  }
  return blocks;
}

export interface Segment {
  start: number;
  end: number;
  /** Ids of the tags covering the segment, outer (earlier start, then longer) first. */
  tagIds: number[];
}

/** Tags in drawing order: earlier start first, then the longer (outer) one, then id. */
export function tagOrder<T extends SpanTag>(tags: readonly T[]): T[] {
  return [...tags].sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset || a.id - b.id);
}

/** The range [start, end) cut at every boundary of the tags that meet it. */
export function segmentText(start: number, end: number, tags: readonly SpanTag[]): Segment[] {
  const inside = tagOrder(tags.filter((t) => t.startOffset < end && t.endOffset > start));
  const cuts = new Set<number>([start, end]);
  for (const t of inside) {
    if (t.startOffset > start) cuts.add(t.startOffset);
    if (t.endOffset < end) cuts.add(t.endOffset);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [s, e] = [points[i], points[i + 1]];
    segments.push({
      start: s,
      end: e,
      tagIds: inside.filter((t) => t.startOffset <= s && t.endOffset >= e).map((t) => t.id),
    });
  }
  return segments;
}

const STRIPPED = /[_"',()<>]/g;

/** The search form of a name or a query: without _ " ' , ( ) < >, lower case, trimmed. */
export const searchKey = (s: string): string => s.replace(STRIPPED, '').toLowerCase().trim();

/** A query shorter than this shows the whole tree. */
export const SEARCH_MIN = 2;

export interface OptionRow {
  option: TagTypeOption;
  depth: number;
}

/**
 * The rows of the menu: the tree depth first while the query is shorter than 2 characters, else the
 * options whose name contains the query (both in search form), flat, with their breadcrumbs.
 */
export function filterOptions(options: readonly TagTypeOption[], query: string): OptionRow[] {
  if (query.trim().length < SEARCH_MIN) {
    const rows: OptionRow[] = [];
    const walk = (o: TagTypeOption, depth: number) => {
      rows.push({ option: o, depth });
      o.children.forEach((c) => walk(c, depth + 1));
    };
    options.forEach((o) => walk(o, 0));
    return rows;
  }
  const key = searchKey(query);
  return flattenOptions(options)
    .filter((o) => !o.isRoot && searchKey(o.name).includes(key))
    .map((option) => ({ option, depth: 0 }));
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * Every occurrence of `needle` in `text` (case-sensitive, not overlapping, in text order). When the needle
 * starts (ends) with a letter or digit, an occurrence must not continue a word on that side ("cat" does
 * not match inside "category").
 */
export function findOccurrences(text: string, needle: string): Span[] {
  if (!needle) return [];
  const out: Span[] = [];
  const checkStart = WORD.test(needle[0]);
  const checkEnd = WORD.test(needle[needle.length - 1]);
  let from = 0;
  for (;;) {
    const at = text.indexOf(needle, from);
    if (at === -1) break;
    const end = at + needle.length;
    const okStart = !checkStart || at === 0 || !WORD.test(text[at - 1]);
    const okEnd = !checkEnd || end === text.length || !WORD.test(text[end]);
    if (okStart && okEnd) {
      out.push({ startOffset: at, endOffset: end });
      from = end;
    } else from = at + 1;
  }
  return out;
}

// --- undo / redo of tag changes within the session ---

/** What the undo stack needs of a tag to create it again. */
export interface TagSnapshot extends SpanTag {
  nerTagTypeId: number;
  /** A token tag of the speech workspace: its tokens (offsets 0). */
  tokenIds?: number[];
  /** A time-span tag of the speech workspace: its times in ms (offsets 0). */
  tsStart?: number;
  tsEnd?: number;
}

export type TagOp =
  | { kind: 'create'; tags: TagSnapshot[] }
  | { kind: 'delete'; tags: TagSnapshot[] }
  | { kind: 'update'; before: TagSnapshot; after: TagSnapshot };

/** The undo stack of tag changes (the stack itself is domain/undo-stack.ts, shared with the speech view). */
export type UndoStack = stacks.UndoStack<TagOp>;
export const emptyStack: UndoStack = stacks.emptyStack;
export const pushOp: (stack: UndoStack, op: TagOp) => UndoStack = stacks.pushOp;
export const takeUndo: (stack: UndoStack) => { op: TagOp; stack: UndoStack } | null = stacks.takeUndo;
export const takeRedo: (stack: UndoStack) => { op: TagOp; stack: UndoStack } | null = stacks.takeRedo;

/** The inverse of a change (what undo does). */
export function inverseOp(op: TagOp): TagOp {
  switch (op.kind) {
    case 'create':
      return { kind: 'delete', tags: op.tags };
    case 'delete':
      return { kind: 'create', tags: op.tags };
    case 'update':
      return { kind: 'update', before: op.after, after: op.before };
  }
}

/**
 * A tag that was deleted and created again has a new id: every change on the stack that names the old id
 * names the new one.
 */
export function remapIds(stack: UndoStack, ids: ReadonlyMap<number, number>): UndoStack {
  if (!ids.size) return stack;
  const snap = (t: TagSnapshot): TagSnapshot => (ids.has(t.id) ? { ...t, id: ids.get(t.id)! } : t);
  const op = (o: TagOp): TagOp =>
    o.kind === 'update'
      ? { kind: 'update', before: snap(o.before), after: snap(o.after) }
      : { kind: o.kind, tags: o.tags.map(snap) };
  return { past: stack.past.map(op), future: stack.future.map(op) };
}

/** The text offset of a point in a segment (its start plus the offset in its text node), clamped. */
export const clampSpan = (a: number, b: number, length: number): Span | null => {
  const s = Math.max(0, Math.min(a, b));
  const e = Math.min(length, Math.max(a, b));
  return e > s ? { startOffset: s, endOffset: e } : null;
};

/** The span without the white space at its ends (a double-click selection often takes a trailing space). */
export function trimSpan(text: string, span: Span): Span | null {
  let { startOffset: s, endOffset: e } = span;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return e > s ? { startOffset: s, endOffset: e } : null;
}
