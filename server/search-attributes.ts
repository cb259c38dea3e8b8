/**
 * The document workflow's search attributes on the Temporal server: the worker checks at start that they are
 * registered in its namespace and registers the missing ones (the dev server gets them from
 * `--search-attribute` already; a cluster where the worker may not register them needs
 * `temporal operator search-attribute create`, docs/operations.md). A workflow upserting an unregistered
 * attribute would fail its workflow task until it is registered.
 */
import { DOCUMENT_SEARCH_ATTRIBUTES } from '../workflows/search-attributes';
import { getLogger } from './logger';

const log = getLogger('worker.search-attributes');

/** temporal.api.enums.v1.IndexedValueType (INDEXED_VALUE_TYPE_KEYWORD = 2, _INT = 3, _KEYWORD_LIST = 7). */
type IndexedValueType = number;
const TYPES: Record<string, IndexedValueType> = { Keyword: 2, Int: 3, KeywordList: 7 };

interface OperatorLike {
  operatorService: {
    listSearchAttributes(req: {
      namespace: string;
    }): Promise<{ customAttributes?: Record<string, unknown> | null }>;
    addSearchAttributes(req: {
      namespace: string;
      searchAttributes: Record<string, IndexedValueType>;
    }): Promise<unknown>;
  };
}

/** Registers what is missing; returns the names it added. Never throws (logs instead). */
export async function ensureSearchAttributes(connection: OperatorLike, namespace: string): Promise<string[]> {
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = Object.keys(DOCUMENT_SEARCH_ATTRIBUTES).filter((n) => !(customAttributes ?? {})[n]);
    if (!missing.length) return [];
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((n) => [n, TYPES[DOCUMENT_SEARCH_ATTRIBUTES[n]]])),
    });
    log.info('search attributes registered', { names: missing });
    return missing;
  } catch (err) {
    log.error(
      'the document search attributes could not be checked or registered: register them (docs/operations.md)',
      {
        error: err as Error,
      },
    );
    return [];
  }
}
