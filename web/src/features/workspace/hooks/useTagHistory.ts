/**
 * The tag writes of the LABELING view and their undo / redo (spec 2 section 4): writes are queued (they run
 * one after the other, so quick undos each take their own step) and each is followed by a refetch of the
 * tags; the undo stack (labelling.ts) records what a write did, and undo / redo carry out its inverse or
 * itself again on the API, remapping the ids of re-created tags. The speech workspace brings its own way
 * of creating its token and time-span tags (`create`).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagDTO } from '@domain/tags';
import { toast } from '../../../components/toast';
import {
  emptyStack,
  inverseOp,
  remapIds,
  takeRedo,
  takeUndo,
  type TagOp,
  type TagSnapshot,
  type UndoStack,
} from '../labelling';
import { tagCalls, tagKeys } from '../tagsApi';

/** What the undo stack keeps of a tag. */
export const snapshot = (
  t: Pick<NerTagDTO, 'id' | 'startOffset' | 'endOffset' | 'nerTagTypeId'>,
): TagSnapshot => ({
  id: t.id,
  startOffset: t.startOffset ?? 0,
  endOffset: t.endOffset ?? 0,
  nerTagTypeId: t.nerTagTypeId,
});

export interface TagHistory {
  /** What the undo / redo buttons show. */
  stack: UndoStack;
  setStack: (next: UndoStack | ((s: UndoStack) => UndoStack)) => void;
  /** Queues a write; a refusal shows the API's toast and leaves the stack alone. */
  write: (work: () => Promise<void>) => void;
  undo: () => void;
  redo: () => void;
}

/** Creates the tags of one type again (in the order given); answers them with their new ids. */
export type CreateTags = (nerTagTypeId: number, group: TagSnapshot[]) => Promise<{ id: number }[]>;

/** Writes a tag's type and place as the snapshot has them (an update undone or redone). */
export type UpdateTag = (tag: TagSnapshot) => Promise<unknown>;

/**
 * `onStep` runs after an undo or redo (the view drops its selection); `create` and `update` replace the text
 * tags' calls (the speech workspace's tags have times or tokens, not offsets).
 */
export function useTagHistory(
  documentId: number,
  onStep: () => void,
  create?: CreateTags,
  update?: UpdateTag,
): TagHistory {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The ref is what queued writes read and change, the state what the buttons show.
  const stackRef = useRef<UndoStack>(emptyStack);
  const [stack, setStackState] = useState<UndoStack>(emptyStack);
  const setStack = useCallback((next: UndoStack | ((s: UndoStack) => UndoStack)) => {
    stackRef.current = typeof next === 'function' ? next(stackRef.current) : next;
    setStackState(stackRef.current);
  }, []);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const onStepRef = useRef(onStep);
  onStepRef.current = onStep;

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
          const made = create
            ? await create(typeId, group)
            : group.length === 1
              ? [await tagCalls.create(documentId, typeId, group[0])]
              : await tagCalls.createMany(documentId, typeId, group);
          group.forEach((s, i) => ids.set(s.id, made[i].id));
        }
      } else if (op.kind === 'delete') {
        for (const s of op.tags) await tagCalls.remove(s.id);
      } else if (update) await update(op.after);
      else {
        const { id, ...change } = op.after;
        await tagCalls.update(id, change);
      }
      return ids;
    },
    [documentId, create, update],
  );

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

  const step = useCallback(
    (direction: 'undo' | 'redo') => {
      write(async () => {
        const taken = direction === 'undo' ? takeUndo(stackRef.current) : takeRedo(stackRef.current);
        if (!taken) return;
        const ids = await run(direction === 'undo' ? inverseOp(taken.op) : taken.op);
        setStack(remapIds(taken.stack, ids));
        onStepRef.current();
        toast.success(t(direction === 'undo' ? 'workspace.labeling.undone' : 'workspace.labeling.redone'));
      });
    },
    [run, write, setStack, t],
  );
  const undo = useCallback(() => step('undo'), [step]);
  const redo = useCallback(() => step('redo'), [step]);

  return { stack, setStack, write, undo, redo };
}
