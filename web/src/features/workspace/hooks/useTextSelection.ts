/**
 * Text ranges of the LABELING view: DOM points and text offsets (every drawn piece of the text is a span
 * with `data-s` / `data-e`, its text offsets), the window selection as a trimmed span of the text, and the
 * keyboard selection inside the focused text (arrows move a caret, shift extends, ctrl goes by words).
 */
import { useCallback, type RefObject } from 'react';
import { clampSpan, trimSpan, type Span } from '../labelling';

/** The text offset of a DOM point inside the view, or null when it is outside the text. */
export function offsetOf(node: Node | null, offset: number): number | null {
  if (!node) return null;
  const el = node.nodeType === Node.TEXT_NODE ? node.parentElement : (node as Element);
  const seg = el?.closest<HTMLElement>('[data-s]');
  if (seg) {
    const s = Number(seg.dataset.s);
    if (node.nodeType === Node.TEXT_NODE) return s + offset;
    if (node !== seg) return node === seg.firstChild ? s : Number(seg.dataset.e);
    let n = 0;
    seg.childNodes.forEach((c, i) => {
      if (i < offset && c.nodeType === Node.TEXT_NODE) n += c.textContent?.length ?? 0;
    });
    return s + n;
  }
  const block = el?.closest<HTMLElement>('[data-block-s]');
  if (block) {
    const child = block.childNodes[offset] as HTMLElement | undefined;
    return child?.dataset?.s !== undefined ? Number(child.dataset.s) : Number(block.dataset.blockE);
  }
  return null;
}

/** The DOM point of a text offset inside `root`. */
function pointOf(root: HTMLElement, offset: number): { node: Node; offset: number } | null {
  const segs = root.querySelectorAll<HTMLElement>('[data-s]');
  for (const seg of segs) {
    const s = Number(seg.dataset.s);
    const e = Number(seg.dataset.e);
    if (offset >= s && (offset < e || (offset === e && seg === segs[segs.length - 1]))) {
      const text = [...seg.childNodes].find((c) => c.nodeType === Node.TEXT_NODE);
      return text ? { node: text, offset: offset - s } : { node: seg, offset: 0 };
    }
  }
  return null;
}

const WORD = /[\p{L}\p{N}_]/u;

/** The next word edge from `at` in direction `dir` (ctrl+arrows). */
function wordEdge(text: string, at: number, dir: 1 | -1): number {
  let i = at;
  if (dir > 0) {
    while (i < text.length && !WORD.test(text[i])) i++;
    while (i < text.length && WORD.test(text[i])) i++;
  } else {
    while (i > 0 && !WORD.test(text[i - 1])) i--;
    while (i > 0 && WORD.test(text[i - 1])) i--;
  }
  return i;
}

/**
 * `selectionSpan`: the window selection as a trimmed text span, if it lies in the text. `onTextKey`: the
 * text's key handler for the keyboard selection; `onCaretMove` runs after it moved the caret.
 */
export function useTextSelection(
  rootRef: RefObject<HTMLDivElement | null>,
  text: string,
  onCaretMove: () => void,
) {
  const selectionSpan = useCallback((): Span | null => {
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed || !rootRef.current) return null;
    if (!rootRef.current.contains(sel.anchorNode) || !rootRef.current.contains(sel.focusNode)) return null;
    const a = offsetOf(sel.anchorNode, sel.anchorOffset);
    const b = offsetOf(sel.focusNode, sel.focusOffset);
    if (a === null || b === null) return null;
    const span = clampSpan(a, b, text.length);
    return span && trimSpan(text, span);
  }, [rootRef, text]);

  /** Up / Down by lines, Home / End to the line's edges, Ctrl+Home / Ctrl+End to the text's (Shift extends). */
  const onLineKey = (e: React.KeyboardEvent, root: HTMLElement): boolean => {
    const line: Record<string, ['forward' | 'backward', 'line' | 'lineboundary']> = {
      ArrowDown: ['forward', 'line'],
      ArrowUp: ['backward', 'line'],
      End: ['forward', 'lineboundary'],
      Home: ['backward', 'lineboundary'],
    };
    const move = line[e.key];
    if (!move) return false;
    e.preventDefault();
    const sel = window.getSelection();
    if (!sel) return true;
    const inText = !!sel.focusNode && root.contains(sel.focusNode);
    if ((e.ctrlKey || e.metaKey) && (e.key === 'Home' || e.key === 'End')) {
      const to = pointOf(root, e.key === 'Home' ? 0 : text.length);
      const from = inText && e.shiftKey ? { node: sel.anchorNode!, offset: sel.anchorOffset } : to;
      if (to && from) sel.setBaseAndExtent(from.node, from.offset, to.node, to.offset);
    } else {
      if (!inText) {
        const start = pointOf(root, 0);
        if (start) sel.collapse(start.node, start.offset);
      }
      // Selection.modify follows the lines as laid out (wrapped lines too).
      (sel as Selection & { modify(a: string, d: string, g: string): void }).modify(
        e.shiftKey ? 'extend' : 'move',
        move[0],
        move[1],
      );
    }
    onCaretMove();
    return true;
  };

  const onTextKey = (e: React.KeyboardEvent) => {
    const root = rootRef.current;
    if (!root) return;
    if (onLineKey(e, root)) return;
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const dir = e.key === 'ArrowRight' ? 1 : -1;
    // The caret is the window selection when it lies in the text, else the start of the text.
    const now = window.getSelection();
    const a0 =
      now?.anchorNode && root.contains(now.anchorNode) ? offsetOf(now.anchorNode, now.anchorOffset) : null;
    const f0 =
      now?.focusNode && root.contains(now.focusNode) ? offsetOf(now.focusNode, now.focusOffset) : null;
    const c = a0 !== null && f0 !== null ? { anchor: a0, focus: f0 } : { anchor: 0, focus: 0 };
    const next = e.ctrlKey || e.metaKey ? wordEdge(text, c.focus, dir) : c.focus + dir;
    c.focus = Math.max(0, Math.min(text.length, next));
    if (!e.shiftKey) c.anchor = c.focus;
    const a = pointOf(root, c.anchor);
    const f = pointOf(root, c.focus);
    const sel = window.getSelection();
    if (a && f && sel) sel.setBaseAndExtent(a.node, a.offset, f.node, f.offset);
    onCaretMove();
  };

  return { selectionSpan, onTextKey };
}
