/**
 * The speech-recognition workspace of an AUDIOFILE document (spec 2 sections 2 and 4), inside the frame the
 * text workspace uses (header, tools, step sidebar, settings): the utterance editor above the audio player.
 * The selected step's mode decides what the transcript does: EDITING (a file parser step) edits it (inline
 * token edit, hints, the editing menu, p ] e and up/down), LABELING (span and lexicon steps) tags tokens
 * through the label menu and time spans by dragging on the waveform, anything else only reads and plays.
 *
 * Keyboard (not while typing in a field or with a menu open): p actor change (left/right choose, Enter saves,
 * Escape resets), ] extract the rest of the utterance, e extract the selection, up/down move the extracted
 * block (Enter saves, Escape restores), left/right traverse tokens (Shift extends the selection), Space plays
 * or pauses (mode NONE only), Enter edits the selected word, Delete deletes the selected tag and Enter or l
 * retypes it through the label menu (labelling),
 * h (the frame) shows hidden tokens; Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y) undo and redo the saved transcript edits
 * (editing, mode NONE; useTranscriptHistory) or the tags created, deleted, retyped and resized (labelling;
 * useSpeechTagHistory).
 */
import { usePrefetchQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { modeSatisfies } from '@domain';
import type { DocumentStateDTO } from '@domain/document-state-types';
import type { NerTagDTO, TagTypeOption } from '@domain/tags';
import { supportsLabelling } from '@domain/tags';
import { clickedSegment, tokenAt } from '@domain/transcript-edit';
import type { Anchor } from '../../../components/floatingMenu';
import { toast } from '../../../components/toast';
import { processQueries } from '../../processes/api';
import { ClassifierPanel } from '../../workspace/components/ClassifierPanel';
import { HotkeyLegend } from '../../workspace/components/HotkeyLegend';
import { IssueForm } from '../../workspace/components/IssueForm';
import { LabelMenu } from '../../workspace/components/LabelMenu';
import { Relations, relationsPanelShown } from '../../workspace/components/Relations';
import {
  typing,
  StepLoading,
  WorkspaceFrame,
  type FrameContext,
} from '../../workspace/components/WorkspaceFrame';
import { useIssuesFollowTags } from '../../workspace/issuesApi';
import { relationQueries } from '../../workspace/relationsApi';
import { tagCalls, tagKeys, tagQueries } from '../../workspace/tagsApi';
import { FIT_WINDOWS, speechQueries } from '../api';
import { transcriptCalls, transcriptKeys, transcriptQueries, type TokenDTO } from '../transcriptApi';
import { useTranscriptEditor } from '../hooks/useTranscriptEditor';
import { useTranscriptRelations } from '../hooks/useTranscriptRelations';
import { useUndoShortcuts } from '../hooks/useUndoShortcuts';
import { useSpeechTagHistory } from '../hooks/useSpeechTagHistory';
import { useOptionEditing } from '../../workspace/hooks/useOptionEditing';
import { useLabelHotkeys } from '../../workspace/hooks/useLabelHotkeys';
import { UndoRedoButtons } from '../../workspace/components/UndoRedoButtons';
import {
  actorOptions,
  selectedTokens,
  tagTimeMs,
  tagsByToken,
  timeline,
  timespanRegions,
  transcriptTagTexts,
  traverse,
  windowOf,
} from '../transcript';
import { EditingMenu } from './EditingMenu';
import { HintsMenu } from './HintsMenu';
import { AudioPlayer, type AudioPlayerHandle, type RegionId } from './AudioPlayer';
import { TokenEditor } from './TokenEditor';
import { TokenTimeRange } from './TokenTimeRange';
import { UtteranceList, type TokenEvents } from './UtteranceList';
import '../editor.css';

export function SpeechWorkspace({ state }: { state: DocumentStateDTO }) {
  // The player's first peaks (16 KB) asked for at once, before the transcript and the player are drawn.
  usePrefetchQuery(speechQueries.peaks(state.document.id, FIT_WINDOWS));
  return (
    <WorkspaceFrame state={state} kind="speech">
      {(ctx) => <SpeechMain state={state} ctx={ctx} />}
    </WorkspaceFrame>
  );
}

type Menu =
  | { kind: 'editing'; x: number; y: number }
  | { kind: 'hints'; x: number; y: number; anchor?: Anchor; token: TokenDTO; previous: TokenDTO | null }
  | { kind: 'label'; x: number; y: number; anchor?: Anchor; tokens: TokenDTO[] }
  | { kind: 'timespan'; x: number; y: number; start: number; end: number }
  | { kind: 'retype'; x: number; y: number; tag: NerTagDTO }
  | { kind: 'issue'; x: number; y: number; tokens: TokenDTO[] };

const PLAYING = 'sp-token-playing';

function SpeechMain({ state, ctx }: { state: DocumentStateDTO; ctx: FrameContext }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const doc = state.document;
  const { step, mode } = ctx;
  const utterances = useQuery(transcriptQueries.utterances(doc.id));
  const process = useQuery(processQueries.detail(doc.processId));
  const tags = useQuery(tagQueries.ner(doc.id));
  const graphs = useQuery(relationQueries.graphs(doc.id));
  useIssuesFollowTags(doc.id);
  const editing = mode === 'EDITING';
  const labeling = mode === 'LABELING';
  const nodeId = step?.nodeId ?? null;

  const actors = useMemo(
    () => actorOptions(process.data?.actors ?? [], t('speech.artifact')),
    [process.data?.actors, t],
  );
  const editor = useTranscriptEditor({
    documentId: doc.id,
    nodeId,
    stepId: step?.id ?? null,
    editable: ctx.editable && editing,
    saved: utterances.data ?? [],
    actors: useMemo(() => actors.map((a) => a.actor), [actors]),
  });
  const { list, selection } = editor;
  const [menu, setMenu] = useState<Menu | null>(null);
  const [editingTokenId, setEditingTokenId] = useState<number | null>(null);
  const [selectedTagId, setSelectedTagId] = useState<number | null>(null);
  const hasGraphs = (graphs.data?.length ?? 0) > 0;
  const downloadBlocked = ctx.settings['source-download-blocked'];
  const canTag = ctx.editable && labeling && nodeId !== null;

  const byToken = useMemo(() => tagsByToken(tags.data ?? []), [tags.data]);
  const times = useMemo(() => timeline(list), [list]);
  const timedTokens = useMemo(() => times.map((p) => p.token), [times]);
  const indexOf = useMemo(() => new Map(list.map((u, i) => [u.id, i])), [list]);
  const chosen = useMemo(() => selectedTokens(list, selection), [list, selection]);

  const rootRef = useRef<HTMLDivElement>(null);
  const playerRef = useRef<AudioPlayerHandle | null>(null);
  /** A time-span tag chosen in the relation views: the player in view, seeking to its region (drawn there). */
  const showRegion = (tag: NerTagDTO) => {
    if (tag.tsStart === null) return;
    playerRef.current?.seek(tag.tsStart / 1000);
    rootRef.current?.parentElement
      ?.querySelector('[data-testid="audio-player"]')
      ?.scrollIntoView({ block: 'nearest' });
  };

  const relations = useTranscriptRelations({
    documentId: doc.id,
    processId: doc.processId,
    stepId: step?.id ?? null,
    nodeId,
    editable: ctx.editable && labeling,
    list,
    tags: tags.data ?? [],
    byToken,
    selectedTagId,
    onSelect: (tagId, words) => {
      setSelectedTagId(tagId);
      editor.setSelection(words);
    },
    rootRef,
    canReportIssue: modeSatisfies(ctx.processMode, 'WRITE'),
    highlightUnrelated: ctx.highlightUnrelated,
    showTimespan: showRegion,
  });
  const regionRelations = labeling ? relations.regionRelations : undefined;
  const regions = useMemo(
    () => timespanRegions(tags.data ?? [], canTag, regionRelations),
    [tags.data, canTag, regionRelations],
  );

  // --- playback: the spoken word marked on the DOM and kept in view ---
  const playingId = useRef<number | null>(null);
  const onTimeUpdate = useCallback(
    (seconds: number) => {
      const at = tokenAt(timedTokens, seconds * 1000);
      const id = at >= 0 ? times[at].token.id : null;
      const root = rootRef.current;
      if (!root) return;
      if (playingId.current !== id && playingId.current !== null)
        root.querySelector(`[data-token-id="${playingId.current}"]`)?.classList.remove(PLAYING);
      playingId.current = id;
      if (id === null) return;
      // The word, else its window (not drawn while far from the viewport: scrolled to, it is drawn).
      const el =
        root.querySelector<HTMLElement>(`[data-token-id="${id}"]`) ??
        root.querySelector<HTMLElement>(
          `[data-window="${windowOf(indexOf.get(times[at].utteranceId) ?? 0)}"]`,
        );
      if (!el) return;
      if (el.dataset.tokenId) el.classList.add(PLAYING);
      const r = el.getBoundingClientRect();
      const box = root.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) el.scrollIntoView({ block: 'center' });
    },
    [times, timedTokens, indexOf],
  );

  // --- tokens: click, context menu, double click ---
  const tokenOf = (utteranceId: number, index: number) =>
    list.find((u) => u.id === utteranceId)?.tokens[index] ?? null;

  const onTokenClick = (utteranceId: number, index: number, e: MouseEvent) => {
    if (editor.mode !== 'NONE') return;
    if (labeling && relations.linkClick(tokenOf(utteranceId, index), e)) return;
    const extend = e.shiftKey && selection?.utteranceId === utteranceId;
    editor.setSelection(
      extend ? { ...selection!, focus: index } : { utteranceId, anchor: index, focus: index },
    );
    const token = tokenOf(utteranceId, index);
    const tag = token ? byToken.get(token.id)?.[0] : undefined;
    setSelectedTagId(tag?.id ?? null);
    if (token && !extend) {
      const seg = clickedSegment(token);
      playerRef.current?.seek(seg.start);
    }
  };

  const onTokenContextMenu = (utteranceId: number, index: number, e: MouseEvent) => {
    e.preventDefault();
    if (editor.mode !== 'NONE') return;
    const inSelection =
      selection?.utteranceId === utteranceId &&
      index >= Math.min(selection.anchor, selection.focus) &&
      index <= Math.max(selection.anchor, selection.focus);
    const sel = inSelection ? selection! : { utteranceId, anchor: index, focus: index };
    if (!inSelection) editor.setSelection(sel);
    const tokens = selectedTokens(list, sel);
    if (editing) setMenu({ kind: 'editing', x: e.clientX, y: e.clientY });
    else if (labeling && canTag) {
      // Below (or above) the selected words, at the pointer's x: the menu never covers them.
      const boxes = tokens
        .map((x) => rootRef.current?.querySelector(`[data-token-id="${x.id}"]`)?.getBoundingClientRect())
        .filter((r): r is DOMRect => !!r);
      const anchor = boxes.length
        ? {
            left: e.clientX,
            right: e.clientX,
            top: Math.min(...boxes.map((r) => r.top)),
            bottom: Math.max(...boxes.map((r) => r.bottom)),
          }
        : undefined;
      setMenu({ kind: 'label', x: e.clientX, y: e.clientY, anchor, tokens });
    }
  };

  const onTokenDoubleClick = (utteranceId: number, index: number) => {
    if (!editor.canWrite || editor.mode !== 'NONE') return;
    const token = tokenOf(utteranceId, index);
    if (token) setEditingTokenId(token.id);
  };

  const openHints = (x: number, y: number) => {
    const token = chosen[0];
    if (!token || !selection) return;
    const u = list.find((x) => x.id === selection.utteranceId);
    const at = u ? u.tokens.indexOf(token) : -1;
    const previous = u && at > 0 ? u.tokens[at - 1] : null;
    // Below the word (not at the pointer, over it).
    const anchor = rootRef.current?.querySelector(`[data-token-id="${token.id}"]`)?.getBoundingClientRect();
    setMenu({ kind: 'hints', x, y, anchor, token, previous });
  };

  // --- tags ---
  const tagUndo = useSpeechTagHistory(doc.id, step?.id ?? null, () => setSelectedTagId(null));
  const refetchTags = () => queryClient.invalidateQueries({ queryKey: tagKeys.ner(doc.id) });
  // Adding and editing options from the label menu (spec 2 sections 2 and 6), as in the text workspace.
  const optionEditing = useOptionEditing(canTag ? ctx.stepNodeMode : null, nodeId, [
    transcriptKeys.options(doc.id, nodeId ?? 0, 'ASR_NER_TAG'),
    transcriptKeys.options(doc.id, nodeId ?? 0, 'TIMESPAN_TAG'),
    tagKeys.ner(doc.id),
  ]);
  const tagOptions = useQuery({
    ...transcriptQueries.options(
      doc.id,
      nodeId ?? 0,
      menu?.kind === 'timespan' || (menu?.kind === 'retype' && menu.tag.type === 'TIMESPAN_TAG')
        ? 'TIMESPAN_TAG'
        : 'ASR_NER_TAG',
    ),
    enabled:
      nodeId !== null && (menu?.kind === 'label' || menu?.kind === 'timespan' || menu?.kind === 'retype'),
  });

  /** Spec 2 section 5 "Time-span tag save": a tag-type node and an active step are needed. */
  const timespanRefusal = (): string | null => {
    if (!step || !supportsLabelling(step.nodeDTO.activityType, 'TIMESPAN_TAG'))
      return t('speech.tags.noNode');
    if (!ctx.editable) return t('speech.tags.noStep');
    return null;
  };

  const chooseTag = async (option: TagTypeOption) => {
    const m = menu;
    setMenu(null);
    if (!m) return;
    try {
      if (m.kind === 'label')
        tagUndo.created(
          await transcriptCalls.tagTokens(
            doc.id,
            option.optionId,
            m.tokens.map((x) => x.id),
          ),
        );
      else if (m.kind === 'timespan')
        tagUndo.created(
          await transcriptCalls.tagTimespan(doc.id, option.optionId, tagTimeMs(m.start), tagTimeMs(m.end)),
        );
      else if (m.kind === 'retype' && option.optionId !== m.tag.nerTagTypeId)
        tagUndo.updated(m.tag, await transcriptCalls.updateTag(m.tag.id, { nerTagTypeId: option.optionId }));
    } catch {
      /* the API's toast */
    }
    await refetchTags();
  };

  const onRegionCreate = (start: number, end: number) => {
    const refusal = timespanRefusal();
    if (refusal) {
      toast.error(refusal);
      return;
    }
    const box = rootRef.current?.getBoundingClientRect();
    setMenu({
      kind: 'timespan',
      x: (box?.left ?? 100) + 40,
      y: (box?.bottom ?? 300) - 320,
      start,
      end,
    });
  };

  const onRegionUpdate = async (id: RegionId, start: number, end: number) => {
    const refusal = timespanRefusal();
    if (refusal) {
      toast.error(refusal);
      await refetchTags();
      return;
    }
    const before = tags.data?.find((x) => x.id === Number(id));
    await transcriptCalls
      .updateTag(Number(id), { tsStart: tagTimeMs(start), tsEnd: tagTimeMs(end) })
      .then((after) => before && tagUndo.updated(before, after))
      .catch(() => undefined);
    await refetchTags();
  };

  /** The label menu for the selected tag's type (Enter or l, as the text workspace's). */
  const openRetype = () => {
    const tag = tags.data?.find((x) => x.id === selectedTagId);
    if (!tag) return false;
    const word = tag.utteranceTokens[0]
      ? rootRef.current?.querySelector(`[data-token-id="${tag.utteranceTokens[0].id}"]`)
      : null;
    const r = word?.getBoundingClientRect();
    const box = rootRef.current?.getBoundingClientRect();
    setMenu({
      kind: 'retype',
      x: r?.left ?? (box?.left ?? 100) + 40,
      y: r ? r.bottom + 4 : (box?.bottom ?? 300) - 320,
      tag,
    });
    return true;
  };

  const removeSelectedTag = async () => {
    if (!canTag || selectedTagId === null) return;
    const id = selectedTagId;
    if (relations.rel.refuseRemoval(id)) return; // the 'cannot remove tag' modal
    const tag = tags.data?.find((x) => x.id === id);
    setSelectedTagId(null);
    await tagCalls.remove(id).then(
      () => tag && tagUndo.deleted(tag),
      (e: unknown) => relations.rel.removalRefused(e, id),
    );
    await refetchTags();
  };

  // The rows are memoised: they get stable callbacks that call the latest handlers.
  const latest = useRef({
    onTokenClick,
    onTokenContextMenu,
    onTokenDoubleClick,
    editorOf: (_: TokenDTO): ReactNode => null,
  });
  latest.current = {
    onTokenClick,
    onTokenContextMenu,
    onTokenDoubleClick,
    editorOf: (token: TokenDTO) => (
      <TokenEditor
        token={token}
        deletionAllowed={!hasGraphs}
        onCancel={() => setEditingTokenId(null)}
        onSave={(value) => {
          setEditingTokenId(null);
          void editor.saveTokenEdit(token, value, !hasGraphs);
        }}
      />
    ),
  };
  const events = useMemo<TokenEvents>(
    () => ({
      onTokenClick: (u, i, e) => latest.current.onTokenClick(u, i, e),
      onTokenContextMenu: (u, i, e) => latest.current.onTokenContextMenu(u, i, e),
      onTokenDoubleClick: (u, i) => latest.current.onTokenDoubleClick(u, i),
    }),
    [],
  );
  const renderEditor = useCallback((token: TokenDTO) => latest.current.editorOf(token), []);

  // --- label hotkeys (issue 30): the label on the selected words, else on the selected tag ---
  const applyHotkey = async (typeId: number) => {
    const tag = tags.data?.find((x) => x.id === selectedTagId);
    try {
      if (chosen.length && !(tag && tag.utteranceTokens.length === chosen.length))
        tagUndo.created(
          await transcriptCalls.tagTokens(
            doc.id,
            typeId,
            chosen.map((x) => x.id),
          ),
        );
      else if (tag && tag.nerTagTypeId !== typeId)
        tagUndo.updated(tag, await transcriptCalls.updateTag(tag.id, { nerTagTypeId: typeId }));
      else if (!tag) toast.info(t('workspace.hotkeys.nothingSelected'));
    } catch {
      /* the API's toast */
    }
    await refetchTags();
  };
  const pendingKeys = useLabelHotkeys(
    ctx.labels.labels,
    canTag && editor.mode === 'NONE' && !menu && editingTokenId === null,
    (label) => void applyHotkey(label.id),
  );

  // --- keyboard (spec 2 section 4) ---
  const keyHandler = useRef<(e: KeyboardEvent) => void>(() => undefined);
  keyHandler.current = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey || menu || editingTokenId !== null) return;
    if (typing(window.document.activeElement)) return;
    const key = e.key;
    const handled = () => e.preventDefault();
    if (editor.mode === 'ACTOR_CHANGE') {
      if (key === 'ArrowLeft' || key === 'ArrowRight') editor.stepActor(key === 'ArrowRight' ? 1 : -1);
      else if (key === 'Enter') void editor.apply();
      else if (key === 'Escape') editor.cancel();
      else return;
      return handled();
    }
    if (editor.mode === 'EXTRACT_TOKEN' || editor.mode === 'EXTRACT_NEW_UTTERANCE') {
      if (key === 'ArrowUp' || key === 'ArrowDown') editor.moveBlock(key === 'ArrowDown' ? 1 : -1);
      else if (key === 'Enter') void editor.apply();
      else if (key === 'Escape') editor.cancel();
      else return;
      return handled();
    }
    if (key === ' ') {
      playerRef.current?.togglePlay();
      return handled();
    }
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      const next = traverse(list, selection, key === 'ArrowRight' ? 1 : -1, e.shiftKey);
      editor.setSelection(next);
      if (next) {
        const el = rootRef.current?.querySelector(
          `[data-utterance-id="${next.utteranceId}"] [data-testid="token"]`,
        );
        el?.closest('[data-utterance-id]')?.scrollIntoView({ block: 'nearest' });
      }
      return handled();
    }
    if (key === 'Escape') {
      editor.setSelection(null);
      setSelectedTagId(null);
      return;
    }
    if (editing && key === 'p') {
      if (editor.startActorChange()) handled();
    } else if (editing && key === ']') {
      if (editor.startExtract('rest')) handled();
    } else if (editing && key === 'e') {
      if (editor.startExtract('selection')) handled();
    } else if (editing && key === 'Enter' && chosen.length === 1 && editor.canWrite) {
      setEditingTokenId(chosen[0].id);
      handled();
    } else if (labeling && (key === 'Delete' || key === 'Backspace') && selectedTagId !== null) {
      void removeSelectedTag();
      handled();
    } else if (canTag && (key === 'Enter' || key === 'l') && selectedTagId !== null) {
      if (openRetype()) handled();
    }
  };
  // Undo / redo: the transcript edits while editing, the tag changes while labelling.
  const undoable = editing ? editor.history : tagUndo;
  const undoIdle = editor.mode === 'NONE' && !menu && editingTokenId === null;
  const undoShown = editing ? editor.canWrite : canTag;
  useUndoShortcuts(undoShown && undoIdle, undoable.undo, undoable.redo);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => keyHandler.current(e);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (!step || step.status === 'PROCESSING' || utterances.isPending) return <StepLoading step={step} />;

  return (
    <div
      // The panel's column as a class, not `:has()` (which restyles the whole transcript at each change).
      className={`sp${labeling && relationsPanelShown(relations.views) ? ' sp-with-relations' : ''}`}
      data-testid="speech-workspace"
      data-editing-mode={editor.mode}
      data-editable={ctx.editable}
      data-busy={editor.busy}
    >
      <div className="sp-bar small text-body-secondary" data-testid="speech-mode">
        {editor.mode === 'NONE' ? (
          <span>
            {t(editing ? 'speech.hint.editing' : labeling ? 'speech.hint.labeling' : 'speech.hint.reading')}
          </span>
        ) : (
          <span className="fw-semibold text-body">{t(`speech.mode.${editor.mode}`)}</span>
        )}
        {editor.busy && <span className="ms-2">{t('speech.saving')}</span>}
        {canTag && (
          <HotkeyLegend labels={ctx.labels.labels} conflicts={ctx.labels.conflicts} pending={pendingKeys} />
        )}
        {undoShown && (
          <span className="sp-bar-actions">
            <UndoRedoButtons
              canUndo={undoable.stack.past.length > 0 && editor.mode === 'NONE'}
              canRedo={undoable.stack.future.length > 0 && editor.mode === 'NONE'}
              onUndo={undoable.undo}
              onRedo={undoable.redo}
              undoHint={t(editing ? 'speech.history.undoHint' : 'workspace.labeling.undoHint')}
              testId="speech"
            />
          </span>
        )}
      </div>
      {step.nodeDTO.activityType === 'CLF' && (
        <ClassifierPanel
          key={step.id}
          documentId={doc.id}
          nodeId={step.nodeId}
          editable={ctx.editable}
          hotkeys={ctx.labels}
        />
      )}
      <div
        className={`sp-list${labeling && relations.rel.arcs.length ? ' sp-rel-space' : ''}`}
        ref={rootRef}
        data-testid="utterances"
        data-focus-text
        tabIndex={0}
        aria-label={t('speech.transcriptLabel')}
        style={{
          fontSize: 'var(--ws-font-size)',
          lineHeight: 'var(--ws-line-height)',
          color: 'var(--ws-font-color)',
        }}
      >
        <UtteranceList
          list={list}
          actors={actors}
          selection={selection}
          actorDraft={editor.actorDraft}
          draftBlock={editor.draftBlock}
          tagsByToken={byToken}
          selectedTagId={selectedTagId}
          showHidden={ctx.showHidden}
          editingTokenId={editingTokenId}
          renderEditor={renderEditor}
          rootRef={rootRef}
          events={events}
        />
      </div>
      {labeling && (
        <Relations {...relations.views} highlightUnrelated={ctx.highlightUnrelated} version={tags.data} />
      )}
      <AudioPlayer
        ref={playerRef}
        documentId={doc.id}
        mimeType={doc.mimeType}
        playbackEnabled={editor.mode === 'NONE'}
        downloadBlocked={downloadBlocked}
        regions={regions}
        selectedRegionId={selectedTagId}
        regionCreationEnabled={canTag}
        onRegionClick={(id, e) => {
          // Alt/Ctrl+click: a relation from the selected tag to the region's (as on a word)
          if (labeling && editor.mode === 'NONE' && relations.linkRegionClick(Number(id), e)) return;
          setSelectedTagId(Number(id));
        }}
        onTimeUpdate={onTimeUpdate}
        onRegionCreate={onRegionCreate}
        onRegionUpdate={(id, s, e) => void onRegionUpdate(id, s, e)}
      />
      {menu?.kind === 'editing' && (
        <EditingMenu
          x={menu.x}
          y={menu.y}
          tokens={chosen}
          canWrite={editor.canWrite}
          downloadBlocked={downloadBlocked}
          canExtract={editor.canExtractSelection}
          hasGraphs={hasGraphs}
          canReportIssue={modeSatisfies(ctx.processMode, 'WRITE')}
          renderTimeRange={(token, done) => (
            <TokenTimeRange
              token={token}
              onSave={(s, e) => {
                done();
                void editor.setTimes(token, s, e);
              }}
            />
          )}
          onHints={() => openHints(menu.x, menu.y)}
          onEdit={() => {
            setMenu(null);
            setEditingTokenId(chosen[0]?.id ?? null);
          }}
          onExtract={() => {
            setMenu(null);
            editor.startExtract('selection');
          }}
          onDelete={() => {
            setMenu(null);
            void editor.deleteTokens(chosen);
          }}
          onUnclear={(unclear) => {
            setMenu(null);
            void editor.setUnclear(chosen, unclear);
          }}
          onProperty={(p) => {
            setMenu(null);
            void editor.toggleProperty(chosen, p);
          }}
          onReportIssue={() => setMenu({ kind: 'issue', x: menu.x, y: menu.y, tokens: chosen })}
          onClose={() => setMenu(null)}
        />
      )}
      {menu?.kind === 'hints' && (
        <HintsMenu
          x={menu.x}
          y={menu.y}
          anchor={menu.anchor}
          documentId={doc.id}
          token={menu.token}
          previous={menu.previous}
          onPick={(value) => {
            const token = menu.token;
            setMenu(null);
            void editor.setValue(token, value);
          }}
          onClose={() => setMenu(null)}
        />
      )}
      {(menu?.kind === 'label' || menu?.kind === 'timespan' || menu?.kind === 'retype') && (
        <LabelMenu
          x={menu.x}
          y={menu.y}
          anchor={menu.kind === 'label' ? menu.anchor : undefined}
          options={tagOptions.data}
          purpose={menu.kind === 'retype' ? 'retype' : 'new'}
          selectedText={
            menu.kind === 'label'
              ? menu.tokens.map((x) => x.value).join(' ')
              : menu.kind === 'retype'
                ? transcriptTagTexts(list, [menu.tag])(menu.tag.id)
                : `${menu.start.toFixed(2)} s – ${menu.end.toFixed(2)} s`
          }
          occurrences={0}
          editing={optionEditing}
          issueUnsaved={!!relations.rel.draft}
          onReportIssue={
            menu.kind === 'label' && modeSatisfies(ctx.processMode, 'WRITE')
              ? () => setMenu({ kind: 'issue', x: menu.x, y: menu.y, tokens: menu.tokens })
              : undefined
          }
          onChoose={(option) => void chooseTag(option)}
          onClose={() => setMenu(null)}
        />
      )}
      {menu?.kind === 'issue' && (
        <IssueForm
          x={menu.x}
          y={menu.y}
          documentId={doc.id}
          stepId={step.id}
          anchor={{ tokenIds: menu.tokens.map((x) => x.id) }}
          subject={menu.tokens.map((x) => x.value).join(' ')}
          onClose={() => setMenu(null)}
        />
      )}
      {relations.issueDraft && (
        <IssueForm
          {...relations.issueDraft}
          documentId={doc.id}
          stepId={step.id}
          onClose={relations.closeIssue}
        />
      )}
    </div>
  );
}
