/**
 * Undo / redo of the speech workspace's tag changes in the LABELING view (spec 2 section 4, as the text
 * workspace has it): a token tag (ASR_NER_TAG) or time-span tag (TIMESPAN_TAG) created through the label
 * menu, deleted with Delete, retyped through the label menu, or (a time span) resized by its region's edges.
 * The text workspace's history (useTagHistory: queued writes, id remapping) with the speech tags' own create
 * and update calls; the stack is emptied when the step changes.
 */
import { useCallback, useEffect } from 'react';
import type { NerTagDTO } from '@domain/tags';
import { useTagHistory, type CreateTags, type UpdateTag } from '../../workspace/hooks/useTagHistory';
import { emptyStack, pushOp, type TagSnapshot } from '../../workspace/labelling';
import { transcriptCalls } from '../transcriptApi';

/** What the stack keeps of a speech tag to create it again. */
const speechSnapshot = (tag: NerTagDTO): TagSnapshot => ({
  id: tag.id,
  startOffset: 0,
  endOffset: 0,
  nerTagTypeId: tag.nerTagTypeId,
  ...(tag.type === 'TIMESPAN_TAG'
    ? { tsStart: tag.tsStart ?? 0, tsEnd: tag.tsEnd ?? 0 }
    : { tokenIds: tag.utteranceTokens.map((x) => x.id) }),
});

export function useSpeechTagHistory(documentId: number, stepId: number | null, onStep: () => void) {
  const create = useCallback<CreateTags>(
    async (typeId, group) => {
      const made: { id: number }[] = [];
      for (const s of group)
        made.push(
          s.tokenIds
            ? await transcriptCalls.tagTokens(documentId, typeId, s.tokenIds)
            : await transcriptCalls.tagTimespan(documentId, typeId, s.tsStart ?? 0, s.tsEnd ?? 0),
        );
      return made;
    },
    [documentId],
  );
  // A token tag keeps its tokens; a time span is written with its times.
  const update = useCallback<UpdateTag>(
    (s) =>
      transcriptCalls.updateTag(s.id, {
        nerTagTypeId: s.nerTagTypeId,
        ...(s.tokenIds ? {} : { tsStart: s.tsStart ?? 0, tsEnd: s.tsEnd ?? 0 }),
      }),
    [],
  );
  const history = useTagHistory(documentId, onStep, create, update);
  const { setStack } = history;
  useEffect(() => setStack(emptyStack), [documentId, stepId, setStack]);
  return {
    ...history,
    created: (tag: NerTagDTO) => setStack((s) => pushOp(s, { kind: 'create', tags: [speechSnapshot(tag)] })),
    deleted: (tag: NerTagDTO) => setStack((s) => pushOp(s, { kind: 'delete', tags: [speechSnapshot(tag)] })),
    /** A retype or a resize, as the tag was and as the server saved it. */
    updated: (before: NerTagDTO, after: NerTagDTO) =>
      setStack((s) =>
        pushOp(s, { kind: 'update', before: speechSnapshot(before), after: speechSnapshot(after) }),
      ),
  };
}
