/**
 * Relations between token tags in the speech workspace's LABELING view (issue 14 with issue 12 section 1):
 * the text workspace's relation state (../../workspace/hooks/useRelations.ts) and views
 * (../../workspace/components/Relations.tsx) fed with what is transcript-specific:
 * - a tag's text is the words of its tokens (a time-span tag's, its range; ../transcript.ts
 *   transcriptTagTexts);
 * - linking: select a token tag (click a tagged word), then Alt+click or Ctrl+click a word of another tag;
 * - a tag chosen in the graph view (or in the relation graph window) selects its words and scrolls to them;
 * - removing a tag with relations is refused with the 'cannot remove tag' modal.
 * The arcs are drawn by the same SVG layer as over the text: each tagged word carries `data-tags` (its tags)
 * and `data-tag-start` (the tags it is the first word of), and the layer draws an arc from the top of the
 * source tag's first word to the top of the target's, across utterance rows when they differ.
 */
import { useCallback, useMemo, useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagDTO } from '@domain/tags';
import type { IssueDraft } from '../../workspace/components/IssueForm';
import { useRelations } from '../../workspace/hooks/useRelations';
import { useRelationsChannel } from '../../workspace/hooks/useRelationsChannel';
import type { GraphChoice } from '../../workspace/relationFlow';
import { openSeparateWindow, relationsWindowUrl } from '../../workspace/separateWindow';
import { tagSelection, transcriptTagTexts, type Selection } from '../transcript';
import type { TokenDTO, UtteranceDTO } from '../transcriptApi';

export function useTranscriptRelations({
  documentId,
  processId,
  stepId,
  nodeId,
  editable,
  list,
  tags,
  byToken,
  selectedTagId,
  onSelect,
  rootRef,
  canReportIssue,
}: {
  documentId: number;
  processId: number;
  stepId: number | null;
  nodeId: number | null;
  /** an editable LABELING step */
  editable: boolean;
  list: readonly UtteranceDTO[];
  tags: readonly NerTagDTO[];
  byToken: ReadonlyMap<number, readonly NerTagDTO[]>;
  selectedTagId: number | null;
  /** selects a tag and its words in the transcript */
  onSelect: (tagId: number, words: Selection | null) => void;
  rootRef: React.RefObject<HTMLDivElement | null>;
  /** process WRITE: a RELATION issue from a relation's row */
  canReportIssue: boolean;
}) {
  const { t } = useTranslation();
  const rel = useRelations({ documentId, nodeId: nodeId ?? 0, editable });
  const [issueDraft, setIssueDraft] = useState<IssueDraft | null>(null);
  const tagsById = useMemo(
    () => new Map(tags.filter((x) => x.type !== 'SPAN_TAG').map((x) => [x.id, x])),
    [tags],
  );
  const tagText = useMemo(() => transcriptTagTexts(list, tags), [list, tags]);

  /** Alt/Ctrl+click on a word: a relation from the selected tag to the word's tag; true when it was one. */
  const linkClick = (token: TokenDTO | null, e: MouseEvent): boolean => {
    if (!(e.altKey || e.ctrlKey || e.metaKey) || !token || selectedTagId === null) return false;
    const from = tagsById.get(selectedTagId);
    const to = byToken.get(token.id)?.find((x) => x.id !== selectedTagId);
    if (!from || !to) return false;
    rel.link(from, to, e.clientX, e.clientY);
    return true;
  };

  // Read through refs so that the memoised relations panel gets a stable callback.
  const latest = { list, tagsById, onSelect, rootRef };
  const ref = useRef(latest);
  ref.current = latest;
  const selectTag = useCallback(
    (tagId: number) => {
      const { list, tagsById, onSelect, rootRef } = ref.current;
      const tag = tagsById.get(tagId);
      if (!tag) return;
      const words = tag.type === 'ASR_NER_TAG' ? tagSelection(list, tag) : null;
      onSelect(tagId, words);
      if (!words) return;
      // The selection draws its utterance's window; once drawn, centre the tag's first word.
      let frames = 0;
      const centre = () => {
        const el = rootRef.current?.querySelector<HTMLElement>(`[data-tag-start~="${tagId}"]`);
        if (el) el.scrollIntoView({ block: 'center' });
        else if (frames++ < 60) requestAnimationFrame(centre);
      };
      requestAnimationFrame(centre);
    },
    [ref],
  );

  // The relation graph window selects tags here: a card chosen in its graph.
  useRelationsChannel(documentId, (m) => {
    if (m.kind === 'selectTag') selectTag(m.tagId);
  });
  const windowUrl = useCallback(
    (choice: GraphChoice | null) => relationsWindowUrl(processId, documentId, stepId ?? 0, choice),
    [processId, documentId, stepId],
  );
  const onOpenWindow = useCallback(
    (url: string) => openSeparateWindow(url, `relations-${documentId}`, t),
    [documentId, t],
  );

  return {
    rel,
    linkClick,
    issueDraft,
    closeIssue: () => setIssueDraft(null),
    /** the props of the relation views (../../workspace/components/Relations.tsx) */
    views: {
      rel,
      root: rootRef,
      tagText,
      tagsById,
      selectedTagId,
      onSelectTag: selectTag,
      onReportIssue: canReportIssue ? setIssueDraft : undefined,
      windowUrl: stepId === null ? undefined : windowUrl,
      onOpenWindow,
    },
  };
}
