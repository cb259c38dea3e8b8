/**
 * Undo / redo of the transcript edits of the EDITING view (spec 2 section 4, issue 14): the editor hook
 * hands every write's transcript before and after (`record`), the history keeps the change on a bounded
 * stack (domain/undo-stack.ts) and undo / redo write its before or after part back in one request (POST
 * api/utterances/batch with the tokens it deletes: one transaction; domain/transcript-history.ts plans it; a
 * deleted word comes back with its tags and hints). Steps run
 * one after the other, so quick presses each take their own step. A refused step shows the API's translated
 * toast and leaves the stack as it was. The stack belongs to the document and the step: it is emptied when
 * either changes.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createdIds,
  recordChange,
  remapStack,
  replayPlan,
  type TranscriptStack,
  type UtteranceSnap,
} from '@domain/transcript-history';
import { emptyStack, pushOp, takeRedo, takeUndo } from '@domain/undo-stack';
import { toast } from '../../../components/toast';
import { transcriptCalls, transcriptKeys, type UtteranceDTO } from '../transcriptApi';

export interface TranscriptHistory {
  /** What the undo / redo buttons show. */
  stack: TranscriptStack;
  busy: boolean;
  /** The transcript as the server has it now (the query's data). */
  current: () => UtteranceDTO[];
  /** Keeps what a write changed (nothing when the lists are the same). */
  record: (before: readonly UtteranceSnap[], after: readonly UtteranceSnap[]) => void;
  /**
   * A write under way (until its change is recorded): an undo or redo pressed meanwhile runs after it, so a
   * quick Ctrl+Z right after an edit undoes that edit.
   */
  writing: (done: Promise<unknown>) => void;
  undo: () => void;
  redo: () => void;
}

export function useTranscriptHistory(
  documentId: number,
  nodeId: number | null,
  stepId: number | null,
): TranscriptHistory {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The ref is what queued steps read and change, the state what the buttons show.
  const stackRef = useRef<TranscriptStack>(emptyStack);
  const [stack, setStackState] = useState<TranscriptStack>(emptyStack);
  const [busy, setBusy] = useState(false);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const setStack = useCallback((next: TranscriptStack) => {
    stackRef.current = next;
    setStackState(next);
  }, []);

  useEffect(() => setStack(emptyStack), [documentId, stepId, setStack]);

  const key = transcriptKeys.utterances(documentId);
  const current = useCallback(
    () => queryClient.getQueryData<UtteranceDTO[]>(transcriptKeys.utterances(documentId)) ?? [],
    [queryClient, documentId],
  );

  const record = useCallback(
    (before: readonly UtteranceSnap[], after: readonly UtteranceSnap[]) => {
      const op = recordChange(before, after);
      if (op) setStack(pushOp(stackRef.current, op));
    },
    [setStack],
  );

  const writing = useCallback((done: Promise<unknown>) => {
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    queue.current = queue.current.then(() => settled);
  }, []);

  const step = (direction: 'undo' | 'redo') => {
    if (nodeId === null) return;
    queue.current = queue.current.then(async () => {
      const taken = direction === 'undo' ? takeUndo(stackRef.current) : takeRedo(stackRef.current);
      if (!taken) return;
      const plan =
        direction === 'undo'
          ? replayPlan(taken.op.after, taken.op.before)
          : replayPlan(taken.op.before, taken.op.after);
      setBusy(true);
      try {
        const answer =
          plan.batch.length || plan.deleteTokens.length
            ? await transcriptCalls.saveBatch(nodeId, documentId, plan.batch, plan.deleteTokens)
            : { ids: {} };
        setStack(remapStack(taken.stack, createdIds(plan, answer)));
        toast.success(t(direction === 'undo' ? 'speech.history.undone' : 'speech.history.redone'));
      } catch {
        // The client has shown the API's message; the stack stays as it was.
      } finally {
        await queryClient.invalidateQueries({ queryKey: key });
        setBusy(false);
      }
    });
  };

  return {
    stack,
    busy,
    current,
    record,
    writing,
    undo: () => step('undo'),
    redo: () => step('redo'),
  };
}
