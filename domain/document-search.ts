/**
 * The document list's search (spec 2 section 7: `POST {documents base}/_search/document?page&size&sort` with
 * body {processId, discriminator, and content, typeList or tagTypeContentMap}; spec 1 section 7 Documents):
 * the Predicate search modes, the list entries and the sorts. Shared by the API
 * (api/services/document-search.ts, db/queries/document-search.ts) and the document list page.
 *
 * Decisions where the spec is silent ("Document search matching: not shown beyond the three modes"):
 * - A mode without a criterion (no content, an empty type list, an empty map) lists every document of the
 *   process: the page opens on the whole list, the search narrows it.
 * - BY_CONTENT: the document's text content contains the text, case-insensitively (`%`, `_` literal); the
 *   text is trimmed and needs at least CONTENT_SEARCH_MIN characters (a trigram index serves it: shorter
 *   text has no trigram and would scan every content).
 * - BY_NER_TAG: for EVERY tag type of the map the document has a tag of that type whose covered text (the
 *   content between the tag's offsets; for a token tag its tokens' values joined by spaces) contains one of
 *   the type's values, case-insensitively; a type with no values (or only blank ones) matches any tag of it.
 *   Types of the map are ANDed (adding a type narrows), values of one type ORed. The document's content must
 *   hold the value too (always so for a span tag; for a speech document the content is the parser's
 *   transcript, so a token edited after parsing is found by its original text only).
 * - BY_CLASSIFIER_TAG: the document has a classifier tag of one of the types (ORed).
 * - Sorts `id,asc` (default) and `id,desc`; pages of 10, 20 or 50.
 */
import type { StepStatus } from './steps';

export const SearchModes = ['BY_CONTENT', 'BY_NER_TAG', 'BY_CLASSIFIER_TAG'] as const;
export type SearchMode = (typeof SearchModes)[number];

export const DocumentSearchSorts = ['id,asc', 'id,desc'] as const;
export type DocumentSearchSort = (typeof DocumentSearchSorts)[number];
export const DEFAULT_DOCUMENT_SEARCH_SORT: DocumentSearchSort = 'id,asc';
export const DOCUMENT_SEARCH_PAGE_SIZE = 20;

/** The shortest content text searched (a trigram needs three characters). */
export const CONTENT_SEARCH_MIN = 3;
/** At most this many tag types, classifier types, and values per tag type in one search. */
export const SEARCH_MAX_TYPES = 50;
export const SEARCH_MAX_VALUES = 20;

export interface DocumentSearchBody {
  processId: number;
  discriminator: SearchMode;
  content?: string | null;
  typeList?: number[] | null;
  /** NER tag type id → content values */
  tagTypeContentMap?: Record<string, string[]> | null;
}

/** A Document list entry (spec 2 section 3): id, filename, status, steps; and its process and type. */
export interface DocumentListEntryDTO {
  id: number;
  processId: number;
  filename: string;
  documentType: 'TEXTFILE' | 'AUDIOFILE';
  status: 'WAITING' | 'DONE';
  steps: { id: number; status: StepStatus; order: number; nodeId: number; nodeName: string }[];
}

/** The values of a tag type that search: trimmed, blank ones dropped, duplicates once. */
export const searchValues = (values: readonly string[]): string[] => [
  ...new Set(values.map((v) => v.trim()).filter((v) => v !== '')),
];
