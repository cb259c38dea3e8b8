/**
 * The document list's search (spec 2 section 7 `POST {documents base}/_search/document`;
 * domain/document-search.ts): the paging and the body validated with the spec's messages (field errors of
 * object `documentSearch`), the caller's READ on the process checked first, then one page query and one count
 * (db/queries/document-search.ts), paged as the document-info list is (api/services/list-paging.ts).
 */
import type { Knex } from 'knex';
import { z } from 'zod';
import {
  CONTENT_SEARCH_MIN,
  DEFAULT_DOCUMENT_SEARCH_SORT,
  DOCUMENT_SEARCH_PAGE_SIZE,
  DocumentSearchSorts,
  SEARCH_MAX_TYPES,
  SEARCH_MAX_VALUES,
  SearchModes,
  searchValues,
  type DocumentListEntryDTO,
  type DocumentSearchSort,
} from '../../domain/document-search';
import { RESULT_WINDOW } from '../../domain/paging';
import {
  documentSearchCount,
  documentSearchPage,
  type DocumentSearchCriteria,
} from '../../db/queries/document-search';
import { assertProcessMode, type AuthUser } from '../auth';
import { FieldErrorCollector } from '../errors';
import { MAX_ID, parse } from '../validate';
import { firstValue as first } from '../validate';
import { listPageRequest, pageAndCount, type ListAnswer, type ListPageRequest } from './list-paging';

const id = z.number().int().min(0).max(MAX_ID);
export const documentSearchBodySchema = z.object({
  processId: id,
  discriminator: z.enum(SearchModes),
  content: z.string().max(255).nullish(),
  typeList: z.array(id).max(SEARCH_MAX_TYPES).nullish(),
  tagTypeContentMap: z
    .record(z.string().regex(/^\d{1,10}$/), z.array(z.string().max(255)).max(SEARCH_MAX_VALUES))
    .nullish(),
});

export interface SearchPageRequest extends ListPageRequest {
  sort: DocumentSearchSort;
}

/**
 * `?page&size&sort&after&before&last` (cacheBuster ignored; api/services/list-paging.ts, the result `window`
 * of domain/paging.ts): field errors of object `documentSearch` when wrong.
 */
export function searchPageRequest(
  query: Record<string, string | string[] | undefined>,
  window: number = RESULT_WINDOW,
): SearchPageRequest {
  const errors = new FieldErrorCollector('documentSearch');
  const paging = listPageRequest(query, errors, DOCUMENT_SEARCH_PAGE_SIZE, window);
  const sortRaw = (first(query.sort) ?? DEFAULT_DOCUMENT_SEARCH_SORT).replace(/\s/g, '').toLowerCase();
  const sort = DocumentSearchSorts.find((s) => s === sortRaw);
  errors.check('sort', sort ? null : { code: 'Pattern', key: 'entity.validation.searchSort' }).throwIfAny();
  return { ...paging, sort: sort! };
}

/** The process a raw body names, for the access check before validation. */
function processIdOf(raw: unknown): number | undefined {
  const v = (raw as { processId?: unknown } | null)?.processId;
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined;
}

/** The body as criteria: the mode's own input only (the others are ignored), with the spec's rules. */
export function searchCriteriaOf(raw: unknown): DocumentSearchCriteria {
  const body = parse(documentSearchBodySchema, raw, 'documentSearch');
  const c: DocumentSearchCriteria = { processId: body.processId };
  const errors = new FieldErrorCollector('documentSearch');
  switch (body.discriminator) {
    case 'BY_CONTENT': {
      const content = (body.content ?? '').trim();
      errors.check(
        'content',
        content !== '' && content.length < CONTENT_SEARCH_MIN
          ? { code: 'Size', key: 'entity.validation.searchMin', params: { min: CONTENT_SEARCH_MIN } }
          : null,
      );
      if (content) c.content = content;
      break;
    }
    case 'BY_NER_TAG': {
      const entries = Object.entries(body.tagTypeContentMap ?? {});
      errors.check(
        'tagTypeContentMap',
        entries.length > SEARCH_MAX_TYPES || entries.some(([k]) => Number(k) > MAX_ID)
          ? { code: 'Size', key: 'entity.validation.searchTypes', params: { max: SEARCH_MAX_TYPES } }
          : null,
      );
      if (entries.length)
        c.nerTags = entries.map(([typeId, values]) => ({
          typeId: Number(typeId),
          values: searchValues(values),
        }));
      break;
    }
    case 'BY_CLASSIFIER_TAG':
      if (body.typeList?.length) c.classifierTypeIds = [...new Set(body.typeList)];
      break;
  }
  errors.throwIfAny();
  return c;
}

/** The caller's page: READ on the process (403 otherwise, before the body is validated). */
export async function searchDocuments(
  knex: Knex,
  user: AuthUser,
  raw: unknown,
  paging: SearchPageRequest,
): Promise<ListAnswer<DocumentListEntryDTO>> {
  const processId = processIdOf(raw);
  if (processId !== undefined) assertProcessMode(user, processId, 'READ');
  const criteria = searchCriteriaOf(raw);
  assertProcessMode(user, criteria.processId, 'READ');
  const page = {
    offset: paging.page * paging.size,
    limit: paging.size,
    sort: paging.sort,
    after: paging.after?.id,
    before: paging.before?.id,
    last: paging.last,
  };
  return pageAndCount(
    paging,
    (total) => documentSearchPage(knex, criteria, { ...page, total }),
    () => documentSearchCount(knex, criteria),
    false,
  );
}
