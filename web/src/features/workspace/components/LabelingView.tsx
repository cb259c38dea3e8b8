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
 * The writes and their undo / redo, the text selection, the labelling menu and the blocks near the viewport
 * are hooks of their own (../hooks/useTagHistory, useTextSelection, useLabelMenu, useVisibleBlocks); this
 * component holds the selected tag, the resize by handles, the shortcuts and the drawing.
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
import type { AccessMode } from '@domain';
import type { NerTagDTO } from '@domain/tags';
import { typing } from '../typing';
import { pushOp, segmentText, textBlocks, trimSpan } from '../labelling';
import { hiddenPieces, type OffsetPiece } from '../hiddenTokens';
import { useLabelHotkeys, type StepLabels } from '../hooks/useLabelHotkeys';
import { useLabelMenu } from '../hooks/useLabelMenu';
import { useOptionEditing } from '../hooks/useOptionEditing';
import { snapshot, useTagHistory } from '../hooks/useTagHistory';
import { offsetOf, useTextSelection } from '../hooks/useTextSelection';
import { useVisibleBlocks } from '../hooks/useVisibleBlocks';
import { tagCalls, tagKeys, tagQueries } from '../tagsApi';
import { toggleNode, type LegendNode } from '../legend';
import { useRelations } from '../hooks/useRelations';
import { spanTexts } from '../relations';
import { useRelationsChannel } from '../hooks/useRelationsChannel';
import { openSeparateWindow, relationsWindowUrl } from '../separateWindow';
import type { GraphChoice } from '../relationFlow';
import { toast } from '../../../components/toast';
import { HotkeyLegend } from './HotkeyLegend';
import { IssueForm, type IssueDraft } from './IssueForm';
import { LabelMenu } from './LabelMenu';
import { Relations } from './Relations';
import { TagLegendPanel } from './TagLegendPanel';
import { UndoRedoButtons } from './UndoRedoButtons';

interface DragState {
  tagId: number;
  side: 'left' | 'right';
  startOffset: number;
  endOffset: number;
}

/** A box to open a menu beside: the box's height, at the pointer's x. */
const besidePointer = (box: DOMRect, x: number) => ({ left: x, right: x, top: box.top, bottom: box.bottom });

/** An outer tag's band: its colour, darkened a little so a light band shows on a light inner colour. */
const bandColor = (color: string) => `color-mix(in srgb, ${color} 75%, #000)`;

export function LabelingView({
  documentId,
  processId,
  stepId,
  text,
  editable,
  nodeId,
  nodeAccess = null,
  showHidden = false,
  canReportIssue = false,
  highlightUnrelated = false,
  hotkeys,
}: {
  documentId: number;
  processId: number;
  stepId: number;
  text: string;
  editable: boolean;
  nodeId: number;
  /** The caller's mode on the node: WRITE or ADMIN adds and edits options of the labelling menu. */
  nodeAccess?: AccessMode | null;
  /** 'Show hidden tokens' of the header: hidden characters get a visible mark. */
  showHidden?: boolean;
  /** process WRITE: 'Problem z oznaczeniem' raises issues (without an editable step: on right-click) */
  canReportIssue?: boolean;
  /** the header's 'Highlight tags without relation' */
  highlightUnrelated?: boolean;
  /** The node's labels with keys (the label hotkeys apply them to the selection or the selected tag). */
  hotkeys: StepLabels;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tagsQuery = useQuery(tagQueries.ner(documentId));
  const optionsQuery = useQuery({ ...tagQueries.options(documentId, nodeId), enabled: editable });
  const rootRef = useRef<HTMLDivElement>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [drag, setDrag] = useState<DragState | null>(null);
  const [issueDraft, setIssueDraft] = useState<IssueDraft | null>(null);
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
  const tagTexts = useMemo(() => spanTexts(text, byId), [text, byId]);
  // The legend's hidden types: their tags are not drawn (the segments are cut without them).
  const [hidden, setHidden] = useState<ReadonlySet<number>>(() => new Set());
  const [legendOpen, setLegendOpen] = useState(false);
  // The hint is cut to two lines in the bar; the user may read it whole (issue 30: readable at 1024 px).
  const [hintOpen, setHintOpen] = useState(false);
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
  const clearSelection = useCallback(() => setSelectedId(null), []);
  const history = useTagHistory(documentId, clearSelection);
  const { stack, setStack, write, undo, redo } = history;
  const { selectionSpan, onTextKey } = useTextSelection(rootRef, text, clearSelection);
  const { menu, openNewMenu, openRetypeMenu, openMenuByKey, choose, applyType, closeMenu } = useLabelMenu({
    documentId,
    text,
    editable,
    rootRef,
    byId,
    fetched: tagsQuery.data,
    selected,
    canEditTag,
    selectionSpan,
    history,
  });

  const pendingKeys = useLabelHotkeys(hotkeys.labels, editable && !menu && !drag, (label) => {
    if (!applyType(label.id)) toast.info(t('workspace.hotkeys.nothingSelected'));
  });

  useEffect(() => {
    if (selectedId !== null && tagsQuery.data && !tagsQuery.data.some((x) => x.id === selectedId))
      setSelectedId(null);
  }, [tagsQuery.data, selectedId]);

  // Adding and editing options (spec 2 section 6): WRITE or ADMIN on the node.
  const optionEditing = useOptionEditing(nodeAccess, nodeId, [
    tagKeys.options(documentId, nodeId),
    tagKeys.ner(documentId),
  ]);

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
    const span = selectionSpan();
    if (!editable) {
      if (canReportIssue && span) {
        e.preventDefault();
        setIssueDraft({
          x: e.clientX,
          y: e.clientY,
          anchor: span,
          subject: text.slice(span.startOffset, span.endOffset),
        });
      }
      return;
    }
    if (span) {
      e.preventDefault();
      // Below (or above) the whole selection, at the pointer's x: the menu never covers the selected text.
      const sel = window.getSelection();
      const box = sel && sel.rangeCount ? sel.getRangeAt(0).getBoundingClientRect() : null;
      openNewMenu(e.clientX, e.clientY, span, box ? besidePointer(box, e.clientX) : undefined);
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
      const box = seg?.getBoundingClientRect();
      openRetypeMenu(e.clientX, e.clientY, tag, box ? besidePointer(box, e.clientX) : undefined);
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

  // The relation graph window (RelationsWindowPage) selects tags here: a card chosen in its graph.
  useRelationsChannel(documentId, (m) => {
    if (m.kind === 'selectTag') selectFromList(m.tagId);
  });
  const relationsWindow = useCallback(
    (choice: GraphChoice | null) => relationsWindowUrl(processId, documentId, stepId, choice),
    [processId, documentId, stepId],
  );
  const openRelationsWindow = useCallback(
    (url: string) => openSeparateWindow(url, `relations-${documentId}`, t),
    [documentId, t],
  );

  const originLabel = (tag: NerTagDTO) =>
    tag.origin === 'USER' ? '' : t(`workspace.labeling.origin.${tag.origin}`);

  if (!text) return <p className="text-body-secondary">{t('workspace.text.empty')}</p>;

  const handles = editable && selected && canEditTag(selected);
  return (
    <div className="ws-labeling">
      <div
        className={`ws-label-bar small text-body-secondary${hintOpen && !selected ? ' open' : ''}`}
        data-testid="labeling-hint"
      >
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
          <span className={`ws-label-hint${hintOpen ? ' open' : ''}`} id={`ws-hint-${stepId}`}>
            {editable ? t('workspace.labeling.hint') : t('workspace.labeling.readOnly')}
          </span>
        )}
        {editable && !selected && (
          <button
            type="button"
            className="btn btn-link btn-sm p-0 flex-shrink-0"
            aria-expanded={hintOpen}
            aria-controls={`ws-hint-${stepId}`}
            onClick={() => setHintOpen((o) => !o)}
          >
            {t(hintOpen ? 'workspace.labeling.hintLess' : 'workspace.labeling.hintMore')}
          </button>
        )}
        {editable && (
          <HotkeyLegend labels={hotkeys.labels} conflicts={hotkeys.conflicts} pending={pendingKeys} />
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
            <UndoRedoButtons
              canUndo={stack.past.length > 0}
              canRedo={stack.future.length > 0}
              onUndo={undo}
              onRedo={redo}
              undoHint={t('workspace.labeling.undoHint')}
              testId="labeling"
            />
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
          data-focus-text
          data-tag-count={tags.length}
          data-hidden-shown={showHidden}
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
                segmentText(b.start, b.end, spans).flatMap((seg) => {
                  // With 'Show hidden tokens', a hidden character is a piece of its own with a mark drawn
                  // by CSS (no text, so no offset moves); else the segment is one piece.
                  const pieces = showHidden
                    ? hiddenPieces(text, seg.start, seg.end)
                    : [{ start: seg.start, end: seg.end, mark: undefined }];
                  const markClass = (p: OffsetPiece) => (p.mark ? ' ws-hidden-token' : '');
                  if (!seg.tagIds.length)
                    return pieces.map((p) => (
                      <span
                        key={p.start}
                        data-s={p.start}
                        data-e={p.end}
                        className={p.mark ? 'ws-hidden-token' : undefined}
                        data-mark={p.mark}
                      >
                        {text.slice(p.start, p.end)}
                      </span>
                    ));
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
                  const title = covering
                    .map((x) => x.nerTagType.name + (x.origin === 'USER' ? '' : ` (${originLabel(x)})`))
                    .join(' › ');
                  return pieces.map((p, i) => {
                    const first = i === 0;
                    const last = i === pieces.length - 1;
                    return (
                      <span
                        key={p.start}
                        data-s={p.start}
                        data-e={p.end}
                        data-tags={seg.tagIds.join(' ')}
                        data-tag-start={(first && starting.map((x) => x.id).join(' ')) || undefined}
                        data-origin={first && machine.length ? machine.map(originLabel).join(' ') : undefined}
                        data-mark={p.mark}
                        data-testid="tag-segment"
                        className={`ws-tag${isSel ? ' ws-tag-selected' : ''}${
                          first && machine.length ? ' ws-tag-machine' : ''
                        }${markClass(p)}`}
                        style={style}
                        title={title}
                      >
                        {first && selStart && (
                          <span
                            className="ws-handle ws-handle-left"
                            data-testid="tag-handle-left"
                            onMouseDown={(e) => startDrag(e, 'left')}
                          />
                        )}
                        {text.slice(p.start, p.end)}
                        {last && selEnd && (
                          <span
                            className="ws-handle ws-handle-right"
                            data-testid="tag-handle-right"
                            onMouseDown={(e) => startDrag(e, 'right')}
                          />
                        )}
                      </span>
                    );
                  });
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
          tagText={tagTexts}
          tagsById={byId}
          highlightUnrelated={highlightUnrelated}
          version={spans}
          onReportIssue={canReportIssue ? setIssueDraft : undefined}
          selectedTagId={selectedId}
          onSelectTag={selectFromList}
          windowUrl={relationsWindow}
          onOpenWindow={openRelationsWindow}
        />
      </div>
      {menu && (
        <LabelMenu
          x={menu.x}
          y={menu.y}
          anchor={menu.anchor}
          purpose={menu.purpose}
          options={optionsQuery.data}
          selectedText={text.slice(menu.span.startOffset, menu.span.endOffset)}
          occurrences={menu.occurrences}
          onChoose={choose}
          onClose={closeMenu}
          editing={optionEditing}
          issueUnsaved={!!relations.draft}
          onReportIssue={
            canReportIssue
              ? () => {
                  closeMenu();
                  setIssueDraft({
                    x: menu.x,
                    y: menu.y,
                    anchor: menu.tagId !== undefined ? { tagId: menu.tagId } : menu.span,
                    subject: text.slice(menu.span.startOffset, menu.span.endOffset),
                  });
                }
              : undefined
          }
        />
      )}
      {issueDraft && (
        <IssueForm {...issueDraft} documentId={documentId} onClose={() => setIssueDraft(null)} />
      )}
    </div>
  );
}
