/**
 * The utterance rows (spec 2 section 2 "Utterance editor"): per utterance the actor label, a collapse toggle
 * and the words (punctuation attached to the word before it). Windowed: utterances come in windows of
 * ROW_WINDOW; only windows near the viewport (useVisibleBlocks, drawn one per animation frame) and windows
 * holding the selection, an actor change or a new utterance are drawn, the others are empty boxes of their
 * last drawn height (or the average row's), so hours of transcript open and scroll without long tasks. A
 * drawn row off screen is skipped by the browser's style and layout (editor.css: content-visibility), a word
 * is one element with its classes, and a row has one handler per event for its words. The playing word is
 * marked by the caller on the DOM (data-token-id), not by rendering.
 */
import {
  Fragment,
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagDTO } from '@domain/tags';
import { segmentHidden } from '../../workspace/hiddenTokens';
import { useVisibleBlocks } from '../../workspace/hooks/useVisibleBlocks';
import type { TokenDTO, UtteranceDTO } from '../transcriptApi';
import {
  ROW_WINDOW,
  actorName,
  selectionRange,
  wordsOf,
  type ActorOption,
  type Selection,
} from '../transcript';

/** Windows within this margin of the viewport are drawn. */
const NEAR_VIEWPORT = '800px 0px';
/** The height of a row before any is drawn. */
const ESTIMATED_ROW_PX = 56;

export interface TokenEvents {
  onTokenClick: (utteranceId: number, index: number, e: MouseEvent) => void;
  onTokenContextMenu: (utteranceId: number, index: number, e: MouseEvent) => void;
  onTokenDoubleClick: (utteranceId: number, index: number, e: MouseEvent) => void;
}

export interface UtteranceListProps {
  /** Stable across renders (the rows are memoised on it). */
  events: TokenEvents;
  list: readonly UtteranceDTO[];
  actors: readonly ActorOption[];
  selection: Selection | null;
  /** ACTOR_CHANGE: the utterance and the actor being chosen. */
  actorDraft: { utteranceId: number; actor: string } | null;
  /** The tokens of an extraction in progress. */
  draftBlock: readonly TokenDTO[] | null;
  tagsByToken: ReadonlyMap<number, NerTagDTO[]>;
  selectedTagId: number | null;
  showHidden: boolean;
  /** The token being edited inline, and its editor (stable across renders). */
  editingTokenId: number | null;
  renderEditor: (token: TokenDTO) => ReactNode;
  rootRef: React.RefObject<HTMLDivElement | null>;
}

export function UtteranceList(props: UtteranceListProps) {
  const { t } = useTranslation();
  const { list, rootRef } = props;
  const labels = useMemo(() => ({ collapse: t('speech.collapse'), expand: t('speech.expand') }), [t]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const windows = useMemo(() => {
    const out: UtteranceDTO[][] = [];
    for (let i = 0; i < list.length; i += ROW_WINDOW) out.push(list.slice(i, i + ROW_WINDOW));
    return out;
  }, [list]);
  const drawn = useDrawnWindows(rootRef, windows.length);

  // Far windows are empty boxes of the height they had when drawn, else of the average drawn row. The
  // heights are read by a ResizeObserver after the browser's layout, never forced in a render's commit.
  const heights = useRef(new Map<number, number>());
  const [rowHeight, setRowHeight] = useState(ESTIMATED_ROW_PX);
  const resizes = useRef<ResizeObserver | null>(null);
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver((entries) => {
      for (const e of entries) {
        const win = e.target as HTMLElement;
        if (!win.dataset.drawn) continue;
        const h = e.borderBoxSize?.[0]?.blockSize ?? win.getBoundingClientRect().height;
        heights.current.set(Number(win.dataset.window), h);
        const rows = win.childElementCount;
        if (rows) setRowHeight((old) => (Math.abs(old - h / rows) > 2 ? h / rows : old));
      }
    });
    resizes.current = observer;
    return () => observer.disconnect();
  }, []);
  // Every drawn window observed (observing one already observed does nothing).
  useEffect(() => {
    rootRef.current
      ?.querySelectorAll('[data-window][data-drawn]')
      .forEach((w) => resizes.current?.observe(w));
  });

  const toggle = useCallback(
    (id: number) =>
      setCollapsed((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );

  if (list.length === 0)
    return (
      <div className="text-body-secondary p-3" data-testid="speech-empty">
        {t('speech.empty')}
      </div>
    );

  return (
    <>
      {windows.map((rows, w) =>
        drawn.has(w) || rows.some((u) => rowIsActive(u, props)) ? (
          <div key={w} data-window={w} data-drawn="true" className="sp-window">
            {rows.map((u) => (
              <UtteranceRow
                key={u.id}
                u={u}
                collapsed={collapsed.has(u.id)}
                onToggle={toggle}
                actorLabel={actorName(
                  props.actors,
                  props.actorDraft?.utteranceId === u.id ? props.actorDraft.actor : u.actor,
                )}
                changingActor={props.actorDraft?.utteranceId === u.id}
                selection={props.selection?.utteranceId === u.id ? props.selection : null}
                draftBlock={props.draftBlock}
                tagsByToken={props.tagsByToken}
                selectedTagId={props.selectedTagId}
                showHidden={props.showHidden}
                // only the row with the word being edited re-renders when the edit starts or ends
                editingTokenId={
                  props.editingTokenId !== null && u.tokens.some((x) => x.id === props.editingTokenId)
                    ? props.editingTokenId
                    : null
                }
                renderEditor={props.renderEditor}
                events={props.events}
                labels={labels}
              />
            ))}
          </div>
        ) : (
          <div
            key={w}
            data-window={w}
            className="sp-window"
            style={{ height: heights.current.get(w) ?? rows.length * rowHeight }}
          />
        ),
      )}
    </>
  );
}

/**
 * The windows to draw: those near the viewport (useVisibleBlocks on `[data-window]`), added one per
 * animation frame, the nearest to the middle of the near ones first, so a frame commits at most one window's
 * rows (a fast scroll never builds several windows in one task); windows that left are dropped at once.
 */
function useDrawnWindows(
  rootRef: React.RefObject<HTMLDivElement | null>,
  count: number,
): ReadonlySet<number> {
  const near = useVisibleBlocks(rootRef, count, { attribute: 'window', rootMargin: NEAR_VIEWPORT });
  const [drawn, setDrawn] = useState<ReadonlySet<number>>(() => new Set([0]));
  const current = useRef(drawn);
  useEffect(() => {
    let frame = 0;
    const step = () => {
      const prev = current.current;
      const next = new Set([...prev].filter((w) => near.has(w)));
      const missing = [...near].filter((w) => !prev.has(w));
      if (missing.length) {
        const middle = ([...near].reduce((a, b) => a + b, 0) / near.size) | 0;
        missing.sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle));
        next.add(missing[0]);
      }
      if (next.size !== prev.size || [...next].some((w) => !prev.has(w))) {
        current.current = next;
        setDrawn(next);
      }
      if (missing.length > 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [near]);
  return drawn;
}

const rowIsActive = (u: UtteranceDTO, p: UtteranceListProps) =>
  p.selection?.utteranceId === u.id || p.actorDraft?.utteranceId === u.id || u.id < 0;

/** The row labels, translated once for all rows. */
interface RowLabels {
  collapse: string;
  expand: string;
}

function RowHead({
  u,
  actorLabel,
  collapsed,
  changingActor = false,
  onToggle,
  labels,
}: {
  u: UtteranceDTO;
  actorLabel: string;
  collapsed: boolean;
  changingActor?: boolean;
  onToggle?: (id: number) => void;
  labels: RowLabels;
}) {
  return (
    <div className="sp-row-head">
      <button
        type="button"
        className="btn btn-sm btn-link sp-collapse"
        aria-expanded={!collapsed}
        aria-label={collapsed ? labels.expand : labels.collapse}
        onClick={() => onToggle?.(u.id)}
        data-testid="utterance-collapse"
      >
        {collapsed ? '▸' : '▾'}
      </button>
      <span
        className={`sp-actor${changingActor ? ' sp-actor-changing' : ''}${u.actor === 'ARTIFACT' ? ' sp-actor-artifact' : ''}`}
        data-testid="utterance-actor"
        data-actor={u.actor}
      >
        {changingActor && '◂ '}
        {actorLabel}
        {changingActor && ' ▸'}
      </span>
      <span className="sp-time">{formatClock(u.tokens[0]?.tsStart ?? null)}</span>
    </div>
  );
}

/** mm:ss of a time in ms (hours when there are any). */
export function formatClock(ms: number | null): string {
  if (ms === null) return '';
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${mm}:${ss}` : `${mm}:${ss}`;
}

interface RowProps {
  u: UtteranceDTO;
  collapsed: boolean;
  onToggle: (id: number) => void;
  actorLabel: string;
  changingActor: boolean;
  selection: Selection | null;
  draftBlock: readonly TokenDTO[] | null;
  tagsByToken: ReadonlyMap<number, NerTagDTO[]>;
  selectedTagId: number | null;
  showHidden: boolean;
  editingTokenId: number | null;
  renderEditor: (token: TokenDTO) => ReactNode;
  events: TokenEvents;
  labels: RowLabels;
}

const UtteranceRow = memo(function UtteranceRow(p: RowProps) {
  const { u } = p;
  const range = p.selection ? selectionRange(p.selection) : null;
  const inBlock = (t: TokenDTO) => !!p.draftBlock && p.draftBlock.includes(t);
  const words = wordsOf(u.tokens);
  // a token tag's first word carries data-tag-start (the relation arcs start there)
  const started = new Set<number>();
  return (
    <div
      className={`sp-row${u.id < 0 ? ' sp-row-new' : ''}${p.changingActor ? ' sp-row-actor' : ''}`}
      data-utterance-id={u.id}
      data-testid="utterance"
    >
      <RowHead
        u={u}
        actorLabel={p.actorLabel}
        collapsed={p.collapsed}
        changingActor={p.changingActor}
        onToggle={p.onToggle}
        labels={p.labels}
      />
      {!p.collapsed && (
        // One handler per row for its words (data-index), not three per word.
        <div
          className="sp-tokens"
          onClick={(e) => onWord(e, (i) => p.events.onTokenClick(u.id, i, e))}
          onDoubleClick={(e) => onWord(e, (i) => p.events.onTokenDoubleClick(u.id, i, e))}
          onContextMenu={(e) => onWord(e, (i) => p.events.onTokenContextMenu(u.id, i, e))}
        >
          {words.map((w, k) => {
            const tk = w.token;
            const selected = !!range && w.index >= range[0] && w.index <= range[1];
            const tags = p.tagsByToken.get(tk.id);
            const tag = tags?.[0];
            const starting = tags?.filter((x) => !started.has(x.id)).map((x) => x.id) ?? [];
            for (const id of starting) started.add(id);
            const cls = [
              'sp-token',
              selected && 'sp-token-selected',
              tk.unclear && 'sp-token-unclear',
              inBlock(tk) && 'sp-token-block',
              tag && 'sp-token-tagged',
              tag && tags!.some((x) => x.id === p.selectedTagId) && 'sp-token-tag-selected',
              tk.properties.length > 0 && 'sp-token-prop',
            ]
              .filter(Boolean)
              .join(' ');
            return (
              <Fragment key={tk.id}>
                {k > 0 && ' '}
                {p.editingTokenId === tk.id ? (
                  p.renderEditor(tk)
                ) : (
                  <span
                    className={cls}
                    data-token-id={tk.id}
                    data-index={w.index}
                    data-testid="token"
                    data-selected={selected || undefined}
                    data-unclear={tk.unclear || undefined}
                    data-properties={tk.properties.join(' ') || undefined}
                    data-tags={tags?.map((x) => x.id).join(' ')}
                    data-tag-start={starting.join(' ') || undefined}
                    title={tagTitle(tk, tags)}
                    style={
                      tag
                        ? { background: tag.nerTagType.backgroundColor, color: tag.nerTagType.textColor }
                        : undefined
                    }
                  >
                    {p.showHidden ? showHiddenChars(tk.value) : tk.value}
                    {w.punctuation.map((x) => (
                      <span key={x.id} className="sp-punct" data-token-id={x.id}>
                        {x.value}
                      </span>
                    ))}
                  </span>
                )}
              </Fragment>
            );
          })}
        </div>
      )}
    </div>
  );
});

/** Calls `handle` with the index of the word an event happened on (none: on the row's gaps or an editor). */
function onWord(e: MouseEvent, handle: (index: number) => void): void {
  const word = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
  if (word && e.currentTarget.contains(word)) handle(Number(word.dataset.index));
}

const tagTitle = (tk: TokenDTO, tags: NerTagDTO[] | undefined) =>
  [tags?.map((x) => x.nerTagType.name).join(', '), tk.properties.join(', ')].filter(Boolean).join(' · ') ||
  undefined;

/** 'Show hidden tokens': the invisible characters inside a value shown as their marks. */
const showHiddenChars = (v: string) =>
  segmentHidden(v)
    .map((s) => s.mark ?? s.text)
    .join('');
