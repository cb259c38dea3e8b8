/**
 * Custom search attributes of the document workflow, so operators find a document's workflow in the Temporal
 * UI the way they think of it (`ProcessId = 12 AND DocumentStatus = 'WAITING' AND CurrentNode = 'Review'`,
 * `DocumentFilename = 'invoice.pdf'`), and the memo `filename`. Registered on the dev server by
 * scripts/lib/temporal.ts (`--search-attribute`), on a cluster with `temporal operator search-attribute
 * create` (docs/operations.md), and checked by the worker at start (server/search-attributes.ts). Workflow-safe: keys only.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const PROCESS_ID = defineSearchAttributeKey('ProcessId', SearchAttributeType.INT);
export const DOCUMENT_STATUS = defineSearchAttributeKey('DocumentStatus', SearchAttributeType.KEYWORD);
/** Names of the nodes whose steps are WAITING, PROCESSING or in ERROR. */
export const CURRENT_NODE = defineSearchAttributeKey('CurrentNode', SearchAttributeType.KEYWORD_LIST);
export const DOCUMENT_FILENAME = defineSearchAttributeKey('DocumentFilename', SearchAttributeType.KEYWORD);

/** name=type pairs as `temporal server start-dev --search-attribute` and `operator search-attribute create` take them. */
export const DOCUMENT_SEARCH_ATTRIBUTES: Record<string, 'Int' | 'Keyword' | 'KeywordList'> = {
  ProcessId: 'Int',
  DocumentStatus: 'Keyword',
  CurrentNode: 'KeywordList',
  DocumentFilename: 'Keyword',
};
