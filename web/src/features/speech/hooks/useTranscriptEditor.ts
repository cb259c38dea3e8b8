/**
 * The utterance editor's state (spec 2 section 4): the selection, the editing mode (NONE, EXTRACT_TOKEN,
 * EXTRACT_NEW_UTTERANCE, ACTOR_CHANGE), the draft transcript of an extraction in progress (new utterances
 * with ids from -1 down) and the actor being chosen, and the writes: Enter saves the mode's change, Escape
 * restores what was saved. Token writes (inline edit, hints, the editing menu) go straight to the token
 * routes, but for a split word: one PUT api/utterances with the token's new value and the new token, so it
 * is saved whole or not at all. A write of token updates only puts the answers into the cached transcript
 * (the answer is the token as saved: the one utterance is re-rendered, the 20,000-token transcript is not
 * fetched again); after any other write, or a refused one, the transcript is refetched. What the write
 * changed goes on the undo stack (useTranscriptHistory: ctrl+z / ctrl+shift+z write it back).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import {
  canExtractRest,
  canExtractSelection,
  checkTokenEdit,
  cycleActor,
  dropEmpty,
  extractRest,
  extractSelection,
  moveExtracted,
  splitTokenWrite,
  transcriptBatch,
  type Extraction,
} from '@domain/transcript-edit';
import {
  transcriptCalls,
  transcriptKeys,
  type TokenDTO,
  type TokenProperty,
  type UtteranceDTO,
} from '../transcriptApi';
import { selectionRange, type Selection } from '../transcript';
import { useTranscriptHistory } from './useTranscriptHistory';

export type EditingMode = 'NONE' | 'EXTRACT_TOKEN' | 'EXTRACT_NEW_UTTERANCE' | 'ACTOR_CHANGE';

interface Draft {
  list: UtteranceDTO[];
  extraction: Extraction;
  block: TokenDTO[];
}

export interface EditorDeps {
  documentId: number;
  /** The active step's node (the writes name it); null: nothing can be written. */
  nodeId: number | null;
  /** The selected step: the undo stack is emptied when it changes. */
  stepId: number | null;
  editable: boolean;
  saved: UtteranceDTO[];
  actors: readonly string[];
}

const tokenInput = (t: TokenDTO) => ({
  id: t.id,
  utteranceId: t.utteranceId,
  value: t.value,
  tsStart: t.tsStart ?? 0,
  tsEnd: t.tsEnd ?? t.tsStart ?? 0,
  properties: t.properties,
  unclear: t.unclear,
});

export function useTranscriptEditor({ documentId, nodeId, stepId, editable, saved, actors }: EditorDeps) {
  const queryClient = useQueryClient();
  const history = useTranscriptHistory(documentId, nodeId, stepId);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [mode, setMode] = useState<EditingMode>('NONE');
  const [draft, setDraft] = useState<Draft | null>(null);
  const [actorDraft, setActorDraft] = useState<{ utteranceId: number; actor: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const list = draft?.list ?? saved;
  const canWrite = editable && nodeId !== null;

  const refetch = useCallback(
    () => queryClient.invalidateQueries({ queryKey: transcriptKeys.utterances(documentId) }),
    [queryClient, documentId],
  );

  /**
   * A token update whose answer is put in the cached transcript at once: the saved word shows as soon as the
   * PUT is answered (a write of such updates alone refetches nothing: writeTokens).
   */
  const updateToken = useCallback(
    async (node: number, input: Parameters<typeof transcriptCalls.updateToken>[1]) => {
      const saved = await transcriptCalls.updateToken(node, input);
      queryClient.setQueryData<UtteranceDTO[]>(transcriptKeys.utterances(documentId), (list) =>
        list?.map((u) =>
          u.id === saved.utteranceId
            ? { ...u, tokens: u.tokens.map((t) => (t.id === saved.id ? { ...t, ...saved } : t)) }
            : u,
        ),
      );
      return saved;
    },
    [queryClient, documentId],
  );

  /**
   * Runs a write once at a time; the transcript is refetched (unless the write is `cached`: token updates
   * whose answers are already in the cached transcript, and it succeeded), and what changed on the server
   * goes on the undo stack.
   */
  const { current, record, writing } = history;
  const write = useCallback(
    async (run: (node: number) => Promise<unknown>, cached = false): Promise<boolean> => {
      if (!canWrite || nodeId === null) return false;
      setBusy(true);
      const before = current();
      const done = (async () => {
        let ok = false;
        try {
          await run(nodeId);
          ok = true;
          return true;
        } catch {
          return false; // the API's toast has told the user
        } finally {
          if (!ok || !cached) await refetch();
          record(before, current());
          setBusy(false);
        }
      })();
      writing(done);
      return done;
    },
    [canWrite, nodeId, refetch, current, record, writing],
  );
  /** A write of token updates only (each answer put into the cache by updateToken): no refetch. */
  const writeTokens = (run: (node: number) => Promise<unknown>) => write(run, true);

  const selectedUtterance = useMemo(
    () => (selection ? (list.find((u) => u.id === selection.utteranceId) ?? null) : null),
    [list, selection],
  );

  // --- modes ---

  const startActorChange = () => {
    if (!canWrite || mode !== 'NONE' || !selectedUtterance || selectedUtterance.id < 0) return false;
    setActorDraft({ utteranceId: selectedUtterance.id, actor: selectedUtterance.actor });
    setMode('ACTOR_CHANGE');
    return true;
  };

  const stepActor = (dir: 1 | -1) =>
    setActorDraft((d) => (d ? { ...d, actor: cycleActor(actors, d.actor, dir) } : d));

  const canExtractRestNow =
    canWrite &&
    mode === 'NONE' &&
    !!selectedUtterance &&
    !!selection &&
    canExtractRest(selectedUtterance.tokens, selectionRange(selection)[0]);
  const canExtractSelectionNow =
    canWrite &&
    mode === 'NONE' &&
    !!selectedUtterance &&
    !!selection &&
    canExtractSelection(selectedUtterance.tokens, ...selectionRange(selection));

  const startExtract = (kind: 'rest' | 'selection') => {
    if (!selection || !selectedUtterance) return false;
    if (kind === 'rest' ? !canExtractRestNow : !canExtractSelectionNow) return false;
    const [from, to] = selectionRange(selection);
    const r =
      kind === 'rest'
        ? extractRest(saved, selectedUtterance.id, from)
        : extractSelection(saved, selectedUtterance.id, from, to);
    if (!r) return false;
    const block = r.list.find((u) => u.id === r.extraction.blockId)!.tokens;
    setDraft({ list: r.list as UtteranceDTO[], extraction: r.extraction, block });
    setMode(kind === 'rest' ? 'EXTRACT_TOKEN' : 'EXTRACT_NEW_UTTERANCE');
    setSelection({ utteranceId: r.extraction.blockId, anchor: 0, focus: block.length - 1 });
    return true;
  };

  const moveBlock = (dir: 1 | -1) => {
    if (!draft) return;
    const r = moveExtracted(draft.list, draft.extraction, draft.block, dir);
    if (!r) return;
    setDraft({ ...draft, list: r.list as UtteranceDTO[], extraction: r.extraction });
    const host = r.list.find((u) => u.tokens.includes(draft.block[0]));
    if (host) {
      const at = host.tokens.indexOf(draft.block[0]);
      setSelection({ utteranceId: host.id, anchor: at, focus: at + draft.block.length - 1 });
    }
  };

  const cancel = () => {
    setDraft(null);
    setActorDraft(null);
    setMode('NONE');
  };

  /** Enter: saves the mode's change (the actor, or the extraction's new and changed utterances). */
  const apply = async () => {
    if (mode === 'ACTOR_CHANGE' && actorDraft) {
      const u = saved.find((x) => x.id === actorDraft.utteranceId);
      const d = actorDraft;
      cancel();
      if (!u || u.actor === d.actor) return;
      await write((node) => transcriptCalls.updateUtterance(node, { id: u.id, actor: d.actor }));
      return;
    }
    if (draft) {
      const batch = transcriptBatch(saved, dropEmpty(draft.list));
      cancel();
      setSelection(null);
      if (batch.length) await write((node) => transcriptCalls.saveBatch(node, documentId, batch));
    }
  };

  // --- token writes ---

  /** The inline edit's save: the value, a second word as a new token after it, or the token deleted. */
  const saveTokenEdit = (token: TokenDTO, input: string, deletionAllowed: boolean) => {
    const check = checkTokenEdit(input, deletionAllowed);
    if (check.kind === 'error') return Promise.resolve(false);
    if (check.kind === 'delete') return write((node) => transcriptCalls.deleteToken(node, token.id));
    const [first, second] = check.words;
    if (second === undefined)
      return writeTokens(async (node) => {
        if (first !== token.value) await updateToken(node, { ...tokenInput(token), value: first });
      });
    // a split is one write of the utterance: refused, it leaves the word as it was
    const utterance = saved.find((u) => u.id === token.utteranceId);
    if (!utterance) return Promise.resolve(false);
    return write((node) =>
      transcriptCalls.updateUtterance(node, splitTokenWrite(utterance, token, first, second)),
    );
  };

  const setValue = (token: TokenDTO, value: string) =>
    writeTokens((node) => updateToken(node, { ...tokenInput(token), value }));

  const setUnclear = (tokens: readonly TokenDTO[], unclear: boolean) =>
    writeTokens(async (node) => {
      for (const t of tokens) await updateToken(node, { ...tokenInput(t), unclear });
    });

  /** Sets the property on every token, or removes it when all of them have it. */
  const toggleProperty = (tokens: readonly TokenDTO[], property: TokenProperty) => {
    const all = tokens.every((t) => t.properties.includes(property));
    return writeTokens(async (node) => {
      for (const t of tokens) {
        const properties = all
          ? t.properties.filter((p) => p !== property)
          : [...t.properties.filter((p) => p !== property), property];
        await updateToken(node, { ...tokenInput(t), properties });
      }
    });
  };

  const setTimes = (token: TokenDTO, tsStart: number, tsEnd: number) =>
    writeTokens((node) =>
      updateToken(node, {
        ...tokenInput(token),
        tsStart: Math.round(tsStart),
        tsEnd: Math.round(tsEnd),
      }),
    );

  const deleteTokens = (tokens: readonly TokenDTO[]) =>
    write(async (node) => {
      for (const t of tokens) await transcriptCalls.deleteToken(node, t.id);
    }).then((ok) => {
      setSelection(null);
      return ok;
    });

  return {
    list,
    selection,
    setSelection,
    selectedUtterance,
    mode,
    actorDraft,
    draftBlock: draft?.block ?? null,
    busy: busy || history.busy,
    canWrite,
    history,
    canExtractRest: canExtractRestNow,
    canExtractSelection: canExtractSelectionNow,
    startActorChange,
    stepActor,
    startExtract,
    moveBlock,
    apply,
    cancel,
    saveTokenEdit,
    setValue,
    setUnclear,
    toggleProperty,
    setTimes,
    deleteTokens,
  };
}

export type TranscriptEditor = ReturnType<typeof useTranscriptEditor>;
