/**
 * LABELING mode (spec 2 sections 2 and 4): the text with its NER tags in their type colours, and, when the
 * step is editable, labelling:
 * - select a range with the mouse, or with the keyboard (focus the text, arrows move, shift+arrows select,
 *   ctrl for words), then right-click or press Enter / `l`: the labelling menu labels it (POST api/ner-tags),
 *   or all occurrences of the selected text at once (POST api/ner-tags/batch);
 * - a click selects a tag (clicking again on the same place selects the next outer tag there); Delete
 *   removes it, Enter / `l` / right-click retypes it, its handles resize it (PUT on mouse-up, Escape
 *   restores);
 * - ctrl+z undoes and ctrl+shift+z (or ctrl+y) redoes the tag changes of this session.
 *
 * Rendering: the text is cut into blocks of whole lines (each with `content-visibility: auto`, so the browser
 * lays out and paints only the blocks near the viewport). A block near the viewport (IntersectionObserver) is
 * cut into segments at every tag boundary, one span per segment; any other block is one plain span of its
 * text (same height, still selectable), so the DOM holds about one node per block plus the visible tags. A segment takes the background and text colour
 * of its innermost tag; each outer tag over it adds a band of its colour at the bottom, so nested and
 * overlapping tags stay readable. Tags written by the lexicon or a model carry a small origin marker (a CSS
 * pseudo-element, so it is no part of the text or its offsets) and say so in their tooltip.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagDTO, TagTypeOption } from '@domain/tags';
import { toast } from '../../../components/toast';
import {
  clampSpan,
  emptyStack,
  findOccurrences,
  inverseOp,
  pushOp,
  remapIds,
  segmentText,
  takeRedo,
  takeUndo,
  textBlocks,
  trimSpan,
  type Span,
  type TagOp,
  type TagSnapshot,
  type UndoStack,
} from '../labelling';
import { tagCalls, tagKeys, tagQueries } from '../tagsApi';
import { toggleNode, type LegendNode } from '../legend';
import { useRelations } from '../hooks/useRelations';
import { LabelMenu } from './LabelMenu';
import { Relations } from './Relations';
import { TagLegendPanel } from './TagLegendPanel';

interface MenuState {
  x: number;
  y: number;
  purpose: 'new' | 'retype';
  span: Span;
  tagId?: number;
  occurrences: number;
}

interface DragState {
  tagId: number;
  side: 'left' | 'right';
  startOffset: number;
  endOffset: number;
}

const typing = (el: Element | null) =>
  !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || (el as HTMLElement).isContentEditable);

const snapshot = (t: Pick<NerTagDTO, 'id' | 'startOffset' | 'endOffset' | 'nerTagTypeId'>): TagSnapshot => ({
  id: t.id,
  startOffset: t.startOffset ?? 0,
  endOffset: t.endOffset ?? 0,
  nerTagTypeId: t.nerTagTypeId,
});

/** The text offset of a DOM point inside the view, or null when it is outside the text. */
function offsetOf(node: Node | null, offset: number): number | null {
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

/** An outer tag's band: its colour, darkened a little so a light band shows on a light inner colour. */
const bandColor = (color: string) => `color-mix(in srgb, ${color} 75%, #000)`;

/** Blocks near the viewport are drawn with their tags; the others as one plain span each. */
const NEAR_VIEWPORT = '1500px 0px';

/**
 * The starts of the blocks within NEAR_VIEWPORT of the scrolled text (an IntersectionObserver on the block
 * elements). Until the observer answers, the first blocks count as visible.
 */
function useVisibleBlocks(root: React.RefObject<HTMLDivElement | null>, blockCount: number): Set<number> {
  const [visible, setVisible] = useState<Set<number>>(() => new Set([0]));
  useEffect(() => {
    const el = root.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) =>
        setVisible((prev) => {
          const next = new Set(prev);
          for (const e of entries) {
            const start = Number((e.target as HTMLElement).dataset.blockS);
            if (e.isIntersecting) next.add(start);
            else next.delete(start);
          }
          return next;
        }),
      { root: el, rootMargin: NEAR_VIEWPORT },
    );
    el.querySelectorAll('[data-block-s]').forEach((b) => observer.observe(b));
    return () => observer.disconnect();
  }, [root, blockCount]);
  return visible;
}

export function LabelingView({
  documentId,
  text,
  editable,
  nodeId,
  highlightUnrelated = false,
}: {
  documentId: number;
  text: string;
  editable: boolean;
  nodeId: number;
  /** the header's 'Highlight tags without relation' */
  highlightUnrelated?: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tagsQuery = useQuery(tagQueries.ner(documentId));
  const optionsQuery = useQuery({ ...tagQueries.options(documentId, nodeId), enabled: editable });
  const rootRef = useRef<HTMLDivElement>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [menu, setMenu] = useState<MenuState | null>(null);
  const [drag, setDrag] = useState<DragState | null>(null);
  // The undo stack: the ref is what queued writes read and change, the state what the buttons show.
  const stackRef = useRef<UndoStack>(emptyStack);
  const [stack, setStackState] = useState<UndoStack>(emptyStack);
  const setStack = useCallback((next: UndoStack | ((s: UndoStack) => UndoStack)) => {
    stackRef.current = typeof next === 'function' ? next(stackRef.current) : next;
    setStackState(stackRef.current);
  }, []);
  const queue = useRef<Promise<void>>(Promise.resolve());
  // Relations (issue 12): Alt/Ctrl+click a second tag links it to the selected one (./Relations.tsx).
  const relations = useRelations({ documentId, nodeId, editable });

  const tags = useMemo(
    () =>
      (tagsQuery.data ?? [])
        .filter((x) => x.type === 'SPAN_TAG' && x.startOffset !== null && x.endOffset !== null)
        .map((x) =>
          drag && drag.tagId === x.id
            ? { ...x, startOffset: drag.startOffset, endOffset: drag.endOffset }
            : x,
        ),
    [tagsQuery.data, drag],
  );
  const byId = useMemo(() => new Map(tags.map((x) => [x.id, x])), [tags]);
  // The legend's hidden types: their tags are not drawn (the segments are cut without them).
  const [hidden, setHidden] = useState<ReadonlySet<number>>(() => new Set());
  const [legendOpen, setLegendOpen] = useState(false);
  const spans = useMemo(
    () =>
      tags
        .filter((x) => !hidden.has(x.nerTagTypeId))
        .map((x) => ({ id: x.id, startOffset: x.startOffset!, endOffset: x.endOffset! })),
    [tags, hidden],
  );
  // The legend and the list take the tags without a drag in progress (no redraw of the list while resizing).
  const legendTags = useMemo(
    () =>
      (tagsQuery.data ?? []).filter(
        (x): x is NerTagDTO & { startOffset: number; endOffset: number } =>
          x.type === 'SPAN_TAG' && x.startOffset !== null && x.endOffset !== null,
      ),
    [tagsQuery.data],
  );
  const onLegendToggle = useCallback((node: LegendNode) => setHidden((h) => toggleNode(node, h)), []);
  const blocks = useMemo(() => textBlocks(text), [text]);
  const visibleBlocks = useVisibleBlocks(rootRef, blocks.length);
  const selected = selectedId !== null ? byId.get(selectedId) : undefined;
  const canEditTag = (tag: NerTagDTO | undefined) => !!tag && editable && tag.nodeId === nodeId;

  useEffect(() => {
    if (selectedId !== null && tagsQuery.data && !tagsQuery.data.some((x) => x.id === selectedId))
      setSelectedId(null);
  }, [tagsQuery.data, selectedId]);

  const refetch = useCallback(
    () => queryClient.invalidateQueries({ queryKey: tagKeys.ner(documentId) }),
    [queryClient, documentId],
  );

  /** Carries out a change on the API; answers the new ids of re-created tags. */
  const run = useCallback(
    async (op: TagOp): Promise<Map<number, number>> => {
      const ids = new Map<number, number>();
      if (op.kind === 'create') {
        const byType = new Map<number, TagSnapshot[]>();
        for (const s of op.tags) byType.set(s.nerTagTypeId, [...(byType.get(s.nerTagTypeId) ?? []), s]);
        for (const [typeId, group] of byType) {
          const made =
            group.length === 1
              ? [await tagCalls.create(documentId, typeId, group[0])]
              : await tagCalls.createMany(documentId, typeId, group);
          group.forEach((s, i) => ids.set(s.id, made[i].id));
        }
      } else if (op.kind === 'delete') {
        for (const s of op.tags) await tagCalls.remove(s.id);
      } else {
        const { id, ...change } = op.after;
        await tagCalls.update(id, change);
      }
      return ids;
    },
    [documentId],
  );

  /**
   * Queues a write (writes run one after the other, so quick undos each take their own step), then
   * refetches the tags; a refusal shows the API's toast and leaves the stack alone.
   */
  const write = useCallback(
    (work: () => Promise<void>) => {
      queue.current = queue.current.then(async () => {
        try {
          await work();
        } catch {
          // The client has shown the API's message.
        } finally {
          await refetch();
        }
      });
    },
    [refetch],
  );

  const undo = useCallback(() => {
    write(async () => {
      const taken = takeUndo(stackRef.current);
      if (!taken) return;
      const ids = await run(inverseOp(taken.op));
      setStack(remapIds(taken.stack, ids));
      setSelectedId(null);
      toast.success(t('workspace.labeling.undone'));
    });
  }, [run, write, setStack, t]);

  const redo = useCallback(() => {
    write(async () => {
      const taken = takeRedo(stackRef.current);
      if (!taken) return;
      const ids = await run(taken.op);
      setStack(remapIds(taken.stack, ids));
      setSelectedId(null);
      toast.success(t('workspace.labeling.redone'));
    });
  }, [run, write, setStack, t]);

  const removeSelected = useCallback(() => {
    if (!selected || !canEditTag(selected)) return;
    if (relations.refuseRemoval(selected.id)) return; // the 'cannot remove tag' modal
    const snap = snapshot(selected);
    write(async () => {
      await tagCalls.remove(snap.id).catch((e: unknown) => {
        relations.removalRefused(e, snap.id);
        throw e;
      });
      setStack((s) => pushOp(s, { kind: 'delete', tags: [snap] }));
      setSelectedId(null);
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selected, write, relations.refuseRemoval, relations.removalRefused]);

  /** The window selection as a trimmed text span, if it lies in the text. */
  const selectionSpan = useCallback((): Span | null => {
    const sel = window.getSelection();
    if (!sel || sel.isCollapsed || !rootRef.current) return null;
    if (!rootRef.current.contains(sel.anchorNode) || !rootRef.current.contains(sel.focusNode)) return null;
    const a = offsetOf(sel.anchorNode, sel.anchorOffset);
    const b = offsetOf(sel.focusNode, sel.focusOffset);
    if (a === null || b === null) return null;
    const span = clampSpan(a, b, text.length);
    return span && trimSpan(text, span);
  }, [text]);

  const openNewMenu = useCallback(
    (x: number, y: number, span: Span) => {
      const needle = text.slice(span.startOffset, span.endOffset);
      setMenu({ x, y, purpose: 'new', span, occurrences: findOccurrences(text, needle).length });
    },
    [text],
  );

  const openRetypeMenu = useCallback((x: number, y: number, tag: NerTagDTO) => {
    setMenu({
      x,
      y,
      purpose: 'retype',
      tagId: tag.id,
      span: { startOffset: tag.startOffset!, endOffset: tag.endOffset! },
      occurrences: 0,
    });
  }, []);

  /** Opens the menu for the keyboard: at the selection (or the selected tag) on screen. */
  const openMenuByKey = useCallback(() => {
    if (!editable) return;
    const span = selectionSpan();
    const sel = window.getSelection();
    if (span && sel && sel.rangeCount) {
      const r = sel.getRangeAt(0).getBoundingClientRect();
      openNewMenu(r.left, r.bottom + 4, span);
      return;
    }
    if (selected && canEditTag(selected)) {
      const el = rootRef.current?.querySelector(`[data-tag-start~="${selected.id}"]`);
      const r = el?.getBoundingClientRect();
      openRetypeMenu(r?.left ?? 100, (r?.bottom ?? 100) + 4, selected);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editable, selectionSpan, selected, openNewMenu, openRetypeMenu]);

  const choose = (option: TagTypeOption, allOccurrences: boolean) => {
    const m = menu;
    if (!m) return;
    setMenu(null);
    write(async () => {
      if (m.purpose === 'retype' && m.tagId !== undefined) {
        const tag = byId.get(m.tagId);
        if (!tag) return;
        const before = snapshot(tag);
        const after = { ...before, nerTagTypeId: option.optionId };
        await tagCalls.update(tag.id, { ...after });
        setStack((s) => pushOp(s, { kind: 'update', before, after }));
        return;
      }
      const needle = text.slice(m.span.startOffset, m.span.endOffset);
      let made: NerTagDTO[];
      if (allOccurrences) {
        const found = findOccurrences(text, needle);
        if (!found.some((f) => f.startOffset === m.span.startOffset)) found.push(m.span);
        found.sort((a, b) => a.startOffset - b.startOffset);
        made = await tagCalls.createMany(documentId, option.optionId, found);
        toast.success(t('workspace.labeling.labelledAll', { count: made.length }));
      } else made = [await tagCalls.create(documentId, option.optionId, m.span)];
      const known = new Set((tagsQuery.data ?? []).map((x) => x.id));
      const fresh = made.filter((x) => !known.has(x.id));
      // Drawn at once from the answer; the refetch that follows every write brings the list as saved (with
      // thousands of tags the refetch alone takes a few hundred milliseconds).
      if (fresh.length)
        queryClient.setQueryData<NerTagDTO[]>(tagKeys.ner(documentId), (old) => old && [...old, ...fresh]);
      if (fresh.length) setStack((s) => pushOp(s, { kind: 'create', tags: fresh.map(snapshot) }));
      window.getSelection()?.removeAllRanges();
    });
  };

  /** Focus on the text or on nothing in particular (not on a button, link or field elsewhere). */
  const inText = () => {
    const active = window.document.activeElement;
    return !active || active === window.document.body || !!rootRef.current?.contains(active);
  };

  // Shortcuts over the whole workspace (not while typing in a field or with the menu open); Enter, l and
  // Delete only while the focus is on the text or nowhere.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (menu || typing(window.document.activeElement)) return;
      const ctrl = e.ctrlKey || e.metaKey;
      if (drag && e.key === 'Escape') {
        e.preventDefault();
        setDrag(null);
        return;
      }
      if (!editable) return;
      if (ctrl && (e.key === 'z' || e.key === 'Z')) {
        e.preventDefault();
        if (e.shiftKey) redo();
        else undo();
      } else if (ctrl && e.key === 'y') {
        e.preventDefault();
        redo();
      } else if (!inText()) {
        // Enter, l and Delete belong to the focused button or link outside the text.
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && selected) {
        e.preventDefault();
        removeSelected();
      } else if ((e.key === 'Enter' || e.key === 'l') && !ctrl && !e.altKey) {
        if (selectionSpan() || selected) {
          e.preventDefault();
          openMenuByKey();
        }
      } else if (e.key === 'Escape' && selected) setSelectedId(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menu, drag, editable, undo, redo, selected, removeSelected, selectionSpan, openMenuByKey]);

  // Keyboard selection inside the focused text: arrows move a caret, shift extends, ctrl goes by words.
  const onTextKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const root = rootRef.current;
    if (!root) return;
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
    setSelectedId(null);
  };

  const onClick = (e: React.MouseEvent) => {
    const sel = window.getSelection();
    if (sel && !sel.isCollapsed) return;
    const seg = (e.target as HTMLElement).closest<HTMLElement>('[data-s]');
    const ids = seg?.dataset.tags ? seg.dataset.tags.split(' ').map(Number) : [];
    if (!ids.length) {
      setSelectedId(null);
      return;
    }
    const target = byId.get([...ids].reverse().find((id) => id !== selectedId) ?? -1);
    if ((e.altKey || e.ctrlKey || e.metaKey) && selected && target) {
      relations.link(selected, target, e.clientX, e.clientY);
      return;
    }
    // Innermost first; a click on the selected tag's place selects the next outer one.
    const inner = [...ids].reverse();
    const at = selectedId === null ? -1 : inner.indexOf(selectedId);
    setSelectedId(inner[(at + 1) % inner.length]);
  };

  const onContextMenu = (e: React.MouseEvent) => {
    if (!editable) return;
    const span = selectionSpan();
    if (span) {
      e.preventDefault();
      openNewMenu(e.clientX, e.clientY, span);
      return;
    }
    const seg = (e.target as HTMLElement).closest<HTMLElement>('[data-s]');
    const ids = seg?.dataset.tags ? seg.dataset.tags.split(' ').map(Number) : [];
    const tag =
      (selectedId !== null && ids.includes(selectedId) ? byId.get(selectedId) : undefined) ??
      byId.get(ids.at(-1) ?? -1);
    if (tag && canEditTag(tag)) {
      e.preventDefault();
      setSelectedId(tag.id);
      openRetypeMenu(e.clientX, e.clientY, tag);
    }
  };

  // Resizing by a handle: the caret under the mouse is the new edge; saved on mouse-up.
  useEffect(() => {
    if (!drag) return;
    const onMove = (e: MouseEvent) => {
      const d = window.document as Document & {
        caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
      };
      let at: number | null = null;
      const pos = d.caretPositionFromPoint?.(e.clientX, e.clientY);
      if (pos) at = offsetOf(pos.offsetNode, pos.offset);
      else {
        const range = d.caretRangeFromPoint?.(e.clientX, e.clientY);
        if (range) at = offsetOf(range.startContainer, range.startOffset);
      }
      if (at === null) return;
      setDrag((cur) =>
        !cur
          ? cur
          : cur.side === 'left'
            ? { ...cur, startOffset: Math.min(at, cur.endOffset - 1) }
            : { ...cur, endOffset: Math.max(at, cur.startOffset + 1) },
      );
    };
    const onUp = () => {
      const d = drag;
      setDrag(null);
      const tag = tagsQuery.data?.find((x) => x.id === d.tagId);
      if (!tag) return;
      window.getSelection()?.removeAllRanges();
      const before = snapshot(tag);
      const cur = latestDrag.current ?? d;
      const after = { ...before, startOffset: cur.startOffset, endOffset: cur.endOffset };
      if (after.startOffset === before.startOffset && after.endOffset === before.endOffset) return;
      const span = trimSpan(text, after);
      if (!span) return;
      Object.assign(after, span);
      queryClient.setQueryData<NerTagDTO[]>(tagKeys.ner(documentId), (list) =>
        list?.map((x) => (x.id === tag.id ? { ...x, ...span } : x)),
      );
      write(async () => {
        await tagCalls.update(tag.id, after);
        setStack((s) => pushOp(s, { kind: 'update', before, after }));
      });
    };
    window.addEventListener('mousemove', onMove);
    window.addEventListener('mouseup', onUp, { once: true });
    return () => {
      window.removeEventListener('mousemove', onMove);
      window.removeEventListener('mouseup', onUp);
    };
    // Only (re)attach when a drag starts or ends.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drag?.tagId, drag?.side]);
  const latestDrag = useRef<DragState | null>(null);
  latestDrag.current = drag;

  const startDrag = (e: React.MouseEvent, side: 'left' | 'right') => {
    if (!selected || !canEditTag(selected)) return;
    e.preventDefault();
    e.stopPropagation();
    setDrag({
      tagId: selected.id,
      side,
      startOffset: selected.startOffset!,
      endOffset: selected.endOffset!,
    });
  };

  /** A click in the tag list: the tag's type shown again if hidden, the text scrolled to it, the tag selected. */
  // Read through a ref so the callback stays the same while a drag redraws the tags (the memoised panel then
  // does not redraw).
  const byIdRef = useRef(byId);
  byIdRef.current = byId;
  const selectFromList = useCallback((id: number) => {
    const tag = byIdRef.current.get(id);
    const root = rootRef.current;
    if (!tag || !root) return;
    setHidden((h) => {
      if (!h.has(tag.nerTagTypeId)) return h;
      const next = new Set(h);
      next.delete(tag.nerTagTypeId);
      return next;
    });
    setSelectedId(id);
    window.getSelection()?.removeAllRanges();
    const start = tag.startOffset!;
    const block = [...root.querySelectorAll<HTMLElement>('[data-block-s]')].find(
      (b) => Number(b.dataset.blockS) <= start && start < Number(b.dataset.blockE),
    );
    if (!block) return;
    block.scrollIntoView({ block: 'center' });
    // Once the block is cut into segments (it is near the viewport now), centre the tag itself.
    let frames = 0;
    const centre = () => {
      const seg = block.querySelector<HTMLElement>(`[data-tag-start~="${id}"]`);
      if (seg) seg.scrollIntoView({ block: 'center' });
      else if (frames++ < 60) requestAnimationFrame(centre);
    };
    requestAnimationFrame(centre);
  }, []);

  const originLabel = (tag: NerTagDTO) =>
    tag.origin === 'USER' ? '' : t(`workspace.labeling.origin.${tag.origin}`);

  if (!text) return <p className="text-body-secondary">{t('workspace.text.empty')}</p>;

  const handles = editable && selected && canEditTag(selected);
  return (
    <div className="ws-labeling">
      <div className="ws-label-bar small text-body-secondary" data-testid="labeling-hint">
        {selected ? (
          <div className="ws-label-selected small" data-testid="selected-tag" data-tag-id={selected.id}>
            <span className="ws-label-swatch" style={{ background: selected.nerTagType.backgroundColor }} />
            <strong>{selected.nerTagType.name}</strong>
            <span className="text-body-secondary text-truncate">
              “{text.slice(selected.startOffset!, selected.endOffset!)}”
            </span>
            {selected.origin !== 'USER' && (
              <span className="badge text-bg-light border" data-testid="selected-tag-origin">
                {t('workspace.labeling.writtenBy', { origin: originLabel(selected) })}
              </span>
            )}
          </div>
        ) : (
          <span className="ws-label-hint">
            {editable ? t('workspace.labeling.hint') : t('workspace.labeling.readOnly')}
          </span>
        )}
        <span className="ms-auto d-flex gap-1 flex-shrink-0 text-nowrap">
          <button
            type="button"
            className={`btn btn-sm ${legendOpen ? 'btn-secondary' : 'btn-outline-secondary'}`}
            aria-pressed={legendOpen}
            onClick={() => setLegendOpen((o) => !o)}
            data-testid="labeling-legend-toggle"
            title={t('workspace.legend.toggleHint')}
          >
            {t('workspace.legend.toggle')}
            {hidden.size > 0 && (
              <span className="badge text-bg-warning ms-1" data-testid="legend-hidden-count">
                {t('workspace.legend.hidden', { count: hidden.size })}
              </span>
            )}
          </button>
        </span>
        {editable && (
          <span className="d-flex gap-1 flex-shrink-0 text-nowrap">
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              disabled={!stack.past.length}
              onClick={undo}
              data-testid="labeling-undo"
              title={t('workspace.labeling.undoHint')}
            >
              {t('workspace.labeling.undo')}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              disabled={!stack.future.length}
              onClick={redo}
              data-testid="labeling-redo"
              title={t('workspace.labeling.redoHint')}
            >
              {t('workspace.labeling.redo')}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-outline-danger"
              disabled={!selected || !canEditTag(selected)}
              onClick={removeSelected}
              data-testid="labeling-delete"
            >
              {t('workspace.labeling.delete')}
            </button>
          </span>
        )}
      </div>
      <div className="ws-label-body">
        <div
          ref={rootRef}
          className={`ws-text ws-read ws-label-text${relations.arcs.length ? ' ws-rel-space' : ''}`}
          data-testid="document-text"
          data-tag-count={tags.length}
          tabIndex={0}
          onKeyDown={onTextKey}
          onClick={onClick}
          onContextMenu={onContextMenu}
          aria-label={t('workspace.labeling.textLabel')}
        >
          {blocks.map((b) => (
            <div key={b.start} className="ws-block" data-block-s={b.start} data-block-e={b.end}>
              {!visibleBlocks.has(b.start) ? (
                <span data-s={b.start} data-e={b.end}>
                  {text.slice(b.start, b.end)}
                </span>
              ) : (
                segmentText(b.start, b.end, spans).map((seg) => {
                  const segText = text.slice(seg.start, seg.end);
                  if (!seg.tagIds.length)
                    return (
                      <span key={seg.start} data-s={seg.start} data-e={seg.end}>
                        {segText}
                      </span>
                    );
                  const covering = seg.tagIds.map((id) => byId.get(id)!);
                  const inner = covering.at(-1)!;
                  const outers = covering.slice(0, -1).reverse();
                  const style: CSSProperties = {
                    background: inner.nerTagType.backgroundColor,
                    color: inner.nerTagType.textColor,
                    boxShadow: outers.length
                      ? outers
                          .map(
                            (o, i) =>
                              `inset 0 -${(i + 1) * 4}px 0 ${bandColor(o.nerTagType.backgroundColor)}`,
                          )
                          .join(', ')
                      : undefined,
                  };
                  const starting = covering.filter((x) => x.startOffset === seg.start);
                  const machine = starting.filter((x) => x.origin !== 'USER');
                  const isSel = selected !== undefined && seg.tagIds.includes(selected.id);
                  const selStart = handles && selected.startOffset === seg.start;
                  const selEnd = handles && selected.endOffset === seg.end;
                  return (
                    <span
                      key={seg.start}
                      data-s={seg.start}
                      data-e={seg.end}
                      data-tags={seg.tagIds.join(' ')}
                      data-tag-start={starting.map((x) => x.id).join(' ') || undefined}
                      data-origin={machine.length ? machine.map(originLabel).join(' ') : undefined}
                      data-testid="tag-segment"
                      className={`ws-tag${isSel ? ' ws-tag-selected' : ''}${machine.length ? ' ws-tag-machine' : ''}`}
                      style={style}
                      title={covering
                        .map((x) => x.nerTagType.name + (x.origin === 'USER' ? '' : ` (${originLabel(x)})`))
                        .join(' › ')}
                    >
                      {selStart && (
                        <span
                          className="ws-handle ws-handle-left"
                          data-testid="tag-handle-left"
                          onMouseDown={(e) => startDrag(e, 'left')}
                        />
                      )}
                      {segText}
                      {selEnd && (
                        <span
                          className="ws-handle ws-handle-right"
                          data-testid="tag-handle-right"
                          onMouseDown={(e) => startDrag(e, 'right')}
                        />
                      )}
                    </span>
                  );
                })
              )}
            </div>
          ))}
        </div>
        {legendOpen && (
          <TagLegendPanel
            tags={legendTags}
            text={text}
            hidden={hidden}
            onToggle={onLegendToggle}
            selectedId={selectedId}
            onSelect={selectFromList}
          />
        )}
        <Relations
          rel={relations}
          root={rootRef}
          text={text}
          tagsById={byId}
          highlightUnrelated={highlightUnrelated}
          version={spans}
        />
      </div>
      {menu && (
        <LabelMenu
          x={menu.x}
          y={menu.y}
          purpose={menu.purpose}
          options={optionsQuery.data}
          selectedText={text.slice(menu.span.startOffset, menu.span.endOffset)}
          occurrences={menu.occurrences}
          onChoose={choose}
          onClose={() => setMenu(null)}
        />
      )}
    </div>
  );
}
