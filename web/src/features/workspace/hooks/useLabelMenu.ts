/**
 * The labelling menu of the LABELING view (spec 2 section 2): where it is open and for what (a new label of
 * the selected text, or a retype of the selected tag), opened by the mouse or the keyboard, and what choosing
 * an option writes (one tag, all occurrences of the selected text in one batch, or the new type of the tag),
 * recorded on the undo stack.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagDTO, TagTypeOption } from '@domain/tags';
import type { Anchor } from '../../../components/floatingMenu';
import { toast } from '../../../components/toast';
import { findOccurrences, pushOp, type Span } from '../labelling';
import { tagCalls, tagKeys } from '../tagsApi';
import { snapshot, type TagHistory } from './useTagHistory';

export interface MenuState {
  x: number;
  y: number;
  /** opened by the keyboard: the selection's (or tag's) box, which the menu must not cover */
  anchor?: Anchor;
  purpose: 'new' | 'retype';
  span: Span;
  tagId?: number;
  occurrences: number;
}

export interface LabelMenuDeps {
  documentId: number;
  text: string;
  editable: boolean;
  rootRef: RefObject<HTMLDivElement | null>;
  /** The drawn tags by id, and the tags as last fetched (to tell the fresh ones of a write). */
  byId: ReadonlyMap<number, NerTagDTO>;
  fetched: readonly NerTagDTO[] | undefined;
  selected: NerTagDTO | undefined;
  canEditTag: (tag: NerTagDTO | undefined) => boolean;
  selectionSpan: () => Span | null;
  history: Pick<TagHistory, 'write' | 'setStack'>;
}

export function useLabelMenu(deps: LabelMenuDeps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { documentId, text, editable, rootRef, byId, fetched, selected, canEditTag, selectionSpan } = deps;
  const { write, setStack } = deps.history;
  const [menu, setMenu] = useState<MenuState | null>(null);

  const openNewMenu = useCallback(
    (x: number, y: number, span: Span, anchor?: Anchor) => {
      const needle = text.slice(span.startOffset, span.endOffset);
      setMenu({ x, y, anchor, purpose: 'new', span, occurrences: findOccurrences(text, needle).length });
    },
    [text],
  );

  const openRetypeMenu = useCallback((x: number, y: number, tag: NerTagDTO, anchor?: Anchor) => {
    setMenu({
      x,
      y,
      anchor,
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
      openNewMenu(r.left, r.bottom + 4, span, r);
      return;
    }
    if (selected && canEditTag(selected)) {
      const el = rootRef.current?.querySelector(`[data-tag-start~="${selected.id}"]`);
      const r = el?.getBoundingClientRect();
      openRetypeMenu(r?.left ?? 100, (r?.bottom ?? 100) + 4, selected, r);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editable, selectionSpan, selected, openNewMenu, openRetypeMenu]);

  /** Writes the choice of `optionId` for `m` (the menu, or a hotkey's stand-in for it). */
  const writeChoice = (m: Omit<MenuState, 'x' | 'y'>, optionId: number, allOccurrences: boolean) => {
    write(async () => {
      if (m.purpose === 'retype' && m.tagId !== undefined) {
        const tag = byId.get(m.tagId);
        if (!tag) return;
        const before = snapshot(tag);
        const after = { ...before, nerTagTypeId: optionId };
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
        made = await tagCalls.createMany(documentId, optionId, found);
        toast.success(t('workspace.labeling.labelledAll', { count: made.length }));
      } else made = [await tagCalls.create(documentId, optionId, m.span)];
      const known = new Set((fetched ?? []).map((x) => x.id));
      const fresh = made.filter((x) => !known.has(x.id));
      // Drawn at once from the answer; the refetch that follows every write brings the list as saved (with
      // thousands of tags the refetch alone takes a few hundred milliseconds).
      if (fresh.length)
        queryClient.setQueryData<NerTagDTO[]>(tagKeys.ner(documentId), (old) => old && [...old, ...fresh]);
      if (fresh.length) setStack((s) => pushOp(s, { kind: 'create', tags: fresh.map(snapshot) }));
      window.getSelection()?.removeAllRanges();
    });
  };

  const choose = (option: TagTypeOption, allOccurrences: boolean) => {
    const m = menu;
    if (!m) return;
    setMenu(null);
    writeChoice(m, option.optionId, allOccurrences);
  };

  /**
   * A label hotkey: the tag type on the selected text (a new tag), else on the selected tag (a retype), as
   * the menu would; false when there is neither.
   */
  const applyType = (typeId: number): boolean => {
    if (!editable) return false;
    const span = selectionSpan();
    if (span) {
      writeChoice({ purpose: 'new', span, occurrences: 0 }, typeId, false);
      return true;
    }
    if (selected && canEditTag(selected) && selected.nerTagTypeId !== typeId) {
      writeChoice(
        {
          purpose: 'retype',
          tagId: selected.id,
          span: { startOffset: selected.startOffset!, endOffset: selected.endOffset! },
          occurrences: 0,
        },
        typeId,
        false,
      );
      return true;
    }
    return false;
  };

  const closeMenu = useCallback(() => setMenu(null), []);

  return { menu, openNewMenu, openRetypeMenu, openMenuByKey, choose, applyType, closeMenu };
}
