/**
 * Relations of token tags and time-span tags in the speech workspace's LABELING view (issue 14 with issue 12
 * section 1): the text workspace's relation state (../../workspace/hooks/useRelations.ts) and views
 * (../../workspace/components/Relations.tsx) fed with what is transcript-specific:
 * - a tag's text is the words of its tokens (a time-span tag's, its range; ../transcript.ts
 *   transcriptTagTexts);
 * - linking: select a tag (click a tagged word or a time-span region on the waveform), then Alt+click or
 *   Ctrl+click a word of another tag or another region (`linkClick`, `linkRegionClick`): the same candidates,
 *   relation menu and draft as between token tags;
 * - a tag chosen in the graph view (or in the relation graph window) selects its words and scrolls to them,
 *   or selects its region and shows it (`showTimespan`: the player seeks to its start);
 * - removing a tag with relations is refused with the 'cannot remove tag' modal.
 * The arcs are drawn by the same SVG layer as over the text: each tagged word carries `data-tags` (its tags)
 * and `data-tag-start` (the tags it is the first word of), and the layer draws an arc from the top of the
 * source tag's first word to the top of the target's, across utterance rows when they differ. A relation with
 * a time-span tag has no arc: its region carries a badge with its count (`regionRelations`, drawn by the
 * player) and, with 'Highlight tags without relation' on, an unrelated region is outlined.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NerTagDTO } from '@domain/tags';
import type { IssueDraft } from '../../workspace/components/IssueForm';
import { useRelations } from '../../workspace/hooks/useRelations';
import { useRelationsChannel } from '../../workspace/hooks/useRelationsChannel';
import type { GraphChoice } from '../../workspace/relationFlow';
import { relationCounts, unrelatedTagIds } from '../../workspace/relations';
import { openSeparateWindow, relationsWindowUrl } from '../../workspace/separateWindow';
import { tagSelection, transcriptTagTexts, type RegionRelations, type Selection } from '../transcript';
import type { TokenDTO, UtteranceDTO } from '../transcriptApi';

/** What a linking click needs: its modifier keys and where it was (a React or a DOM mouse event). */
type LinkClick = Pick<MouseEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'clientX' | 'clientY'>;

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
  highlightUnrelated,
  showTimespan,
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
  /** the 'Highlight tags without relation' setting */
  highlightUnrelated: boolean;
  /** shows a time-span tag chosen in the relation views (its region on the waveform) */
  showTimespan: (tag: NerTagDTO) => void;
}) {
  const { t, i18n } = useTranslation();
  const rel = useRelations({ documentId, nodeId: nodeId ?? 0, editable });
  const [issueDraft, setIssueDraft] = useState<IssueDraft | null>(null);
  const tagsById = useMemo(
    () => new Map(tags.filter((x) => x.type !== 'SPAN_TAG').map((x) => [x.id, x])),
    [tags],
  );
  const tagText = useMemo(() => transcriptTagTexts(list, tags), [list, tags]);

  /** Alt/Ctrl+click on a tag: a relation from the selected tag to it; true when it was one. */
  const linkTo = (to: NerTagDTO | undefined, e: LinkClick): boolean => {
    if (!(e.altKey || e.ctrlKey || e.metaKey) || selectedTagId === null) return false;
    const from = tagsById.get(selectedTagId);
    if (!from || !to || to.id === selectedTagId) return false;
    rel.link(from, to, e.clientX, e.clientY);
    return true;
  };
  /** Alt/Ctrl+click on a word: to the word's tag (not the selected one). */
  const linkClick = (token: TokenDTO | null, e: LinkClick): boolean =>
    linkTo(token ? byToken.get(token.id)?.find((x) => x.id !== selectedTagId) : undefined, e);
  /** Alt/Ctrl+click on a time-span region: to its tag. */
  const linkRegionClick = (tagId: number, e: LinkClick): boolean => linkTo(tagsById.get(tagId), e);

  // The regions' marks: the relations each time-span tag takes part in, the outline of those without.
  const regionRelations = useMemo<RegionRelations>(
    () => ({
      counts: relationCounts(rel.arcs),
      unrelated: highlightUnrelated ? unrelatedTagIds(tagsById.keys(), rel.graphs) : null,
      title: (count) => t('speech.relations.regionBadge', { count }),
    }),
    // the language too: the tooltip follows it
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rel.arcs, rel.graphs, highlightUnrelated, tagsById, t, i18n.language],
  );

  // Read through refs so that the memoised relations panel gets a stable callback.
  const latest = { list, tagsById, onSelect, rootRef, showTimespan };
  const ref = useRef(latest);
  ref.current = latest;
  const selectTag = useCallback(
    (tagId: number) => {
      const { list, tagsById, onSelect, rootRef, showTimespan } = ref.current;
      const tag = tagsById.get(tagId);
      if (!tag) return;
      const words = tag.type === 'ASR_NER_TAG' ? tagSelection(list, tag) : null;
      onSelect(tagId, words);
      if (tag.type === 'TIMESPAN_TAG') showTimespan(tag);
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
    linkRegionClick,
    regionRelations,
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
