/**
 * The document-info list (spec 2 section 7, domain/document-info.ts): the request's paging and filters
 * validated with the spec's messages, the caller's visibility applied (process admins list everything;
 * others their own or the unassigned documents; node-only grantees only documents passing through their
 * nodes), then one page query and one count (db/queries/document-info.ts). With an issue filter the same
 * request is the issues dashboard's issue view (domain/document-info.ts): its own scope rule, the issue
 * visibility of node-only grantees, and the query of db/queries/document-issues.ts.
 */
import type { Knex } from 'knex';
import { z } from 'zod';
import { grantedNodeIds, processMode } from '../../domain/access';
import {
  DEFAULT_DOCUMENT_INFO_SORT,
  DOCUMENT_INFO_PAGE_SIZE,
  DocumentInfoSorts,
  ISSUE_FILTER_TYPES,
  isDocumentSort,
  IssueStatuses,
  issueScopeRefusal,
  scopeRefusal,
  type DocumentInfoCriteria,
  type DocumentInfoDTO,
  type DocumentInfoSort,
  type IssueDocumentInfoDTO,
} from '../../domain/document-info';
import { StepStatuses } from '../../domain/steps';
import { RESULT_WINDOW } from '../../domain/paging';
import { documentInfoCount, documentInfoPage } from '../../db/queries/document-info';
import { nodeIdsOfProcess } from '../../db/queries/nodes';
import { issueDocumentCount, issueDocumentPage } from '../../db/queries/document-issues';
import type { AuthUser } from '../auth';
import { mayReadDocumentOf, unreachable } from '../auth';
import { FieldErrorCollector, fieldErrors, HttpError } from '../errors';
import { MAX_ID, parse } from '../validate';
import { firstValue as first } from '../validate';
import { listPageRequest, pageAndCount, type ListAnswer, type ListPageRequest } from './list-paging';

const id = z.number().int().min(0).max(MAX_ID);
const ids = z.array(id).min(1).max(1000);
const filterSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('PROCESS'), value: id }),
  z.object({ type: z.literal('ASSIGNEE'), value: ids }),
  z.object({ type: z.literal('MINE'), value: id }),
  z.object({ type: z.literal('UNASSIGNED'), value: z.literal(true) }),
  z.object({ type: z.literal('STATUS'), value: z.enum(['WAITING', 'DONE']) }),
  z.object({ type: z.literal('NAME'), value: z.string().max(255) }),
  z.object({
    type: z.literal('STEP'),
    value: z.object({ nodeId: id, statuses: z.array(z.enum(StepStatuses)).min(1).max(5) }),
  }),
  z.object({ type: z.literal('DOCUMENT_IDS'), value: ids }),
  z.object({ type: z.literal('ISSUES'), value: z.literal(true) }),
  z.object({ type: z.literal('ISSUE_USER'), value: id }),
  z.object({ type: z.literal('ISSUE_STATUS'), value: z.enum(IssueStatuses) }),
  z.object({ type: z.literal('ISSUE_EMPTY_REPLIES'), value: z.literal(true) }),
]);
export const documentInfoBodySchema = z.object({
  paged: z.boolean().optional(),
  filters: z.array(filterSchema).max(50),
});
export type DocumentInfoBody = z.infer<typeof documentInfoBodySchema>;

/** The process a raw body names (its PROCESS filter), for the access check before validation. */
export function processIdOf(raw: unknown): number | undefined {
  const filters = (raw as { filters?: unknown } | null)?.filters;
  if (!Array.isArray(filters)) return undefined;
  const f = filters.find((x) => (x as { type?: unknown })?.type === 'PROCESS') as
    { value?: unknown } | undefined;
  return typeof f?.value === 'number' && Number.isSafeInteger(f.value) ? f.value : undefined;
}

export interface PageRequest extends ListPageRequest {
  sort: DocumentInfoSort;
}

/**
 * `?page&size&sort&paged&after&before&last` (cacheBuster ignored; api/services/list-paging.ts, the result
 * `window` of domain/paging.ts): field errors of object `documentInfo` when wrong.
 */
export function pageRequest(
  query: Record<string, string | string[] | undefined>,
  window: number = RESULT_WINDOW,
): PageRequest {
  const errors = new FieldErrorCollector('documentInfo');
  const paging = listPageRequest(query, errors, DOCUMENT_INFO_PAGE_SIZE, window);
  const sortRaw = (first(query.sort) ?? DEFAULT_DOCUMENT_INFO_SORT).replace(/\s/g, '').toLowerCase();
  const sort = DocumentInfoSorts.find((s) => s.toLowerCase() === sortRaw);
  const paged = first(query.paged);
  errors
    .check('sort', sort ? null : { code: 'Pattern', key: 'entity.validation.sort' })
    .check(
      'paged',
      paged === undefined || paged === 'true' || paged === 'false'
        ? null
        : { code: 'Pattern', key: 'entity.validation.pattern' },
    )
    .throwIfAny();
  return { ...paging, sort: sort! };
}

/** The filters as criteria: exactly one PROCESS; lists of one type merged. */
export function criteriaOf(body: DocumentInfoBody): DocumentInfoCriteria {
  const errors = new FieldErrorCollector('documentInfo');
  const processes = body.filters.filter((f) => f.type === 'PROCESS');
  errors.check(
    'filters',
    processes.length === 1 ? null : { code: 'Required', key: 'entity.validation.processFilter' },
  );
  for (const type of ['STATUS', 'NAME', 'UNASSIGNED', 'MINE', 'ISSUE_USER', 'ISSUE_STATUS'] as const)
    errors.check(
      'filters',
      body.filters.filter((f) => f.type === type).length > 1
        ? { code: 'Pattern', key: 'entity.validation.duplicateFilter', params: { type } }
        : null,
    );
  errors.throwIfAny();
  const c: DocumentInfoCriteria = { processId: processes[0].value as number, steps: [] };
  // Any issue filter selects the issue view; the filters below fill in its conditions.
  if (body.filters.some((f) => (ISSUE_FILTER_TYPES as readonly string[]).includes(f.type)))
    c.issues = { visibleNodeIds: null };
  for (const f of body.filters) {
    switch (f.type) {
      case 'ASSIGNEE':
        c.assigneeIds = [...new Set([...(c.assigneeIds ?? []), ...f.value])];
        break;
      case 'DOCUMENT_IDS':
        c.documentIds = c.documentIds
          ? c.documentIds.filter((x) => f.value.includes(x))
          : [...new Set(f.value)];
        break;
      case 'UNASSIGNED':
        c.unassigned = true;
        break;
      case 'MINE':
        c.mineOf = f.value;
        break;
      case 'STATUS':
        c.status = f.value;
        break;
      case 'NAME':
        if (f.value.trim()) c.name = f.value.trim();
        break;
      case 'STEP':
        c.steps.push({ nodeId: f.value.nodeId, statuses: [...new Set(f.value.statuses)] });
        break;
      case 'ISSUES':
        break;
      case 'ISSUE_USER':
        c.issues!.userId = f.value;
        break;
      case 'ISSUE_STATUS':
        c.issues!.status = f.value;
        break;
      case 'ISSUE_EMPTY_REPLIES':
        c.issues!.emptyReplies = true;
        break;
    }
  }
  return c;
}

/** documents, or in the issue view (criteria.issues) documents with their issue counts (no cursors) */
export type DocumentInfoPage = ListAnswer<DocumentInfoDTO> | ListAnswer<IssueDocumentInfoDTO>;

/**
 * The caller's page. Refuses (403) a process the caller does not read, and a view beyond the caller's
 * visibility (domain/document-info.ts scopeRefusal), with the reason as the detail.
 */
export async function listDocumentInfo(
  knex: Knex,
  user: AuthUser,
  rawBody: unknown,
  paging: PageRequest,
): Promise<DocumentInfoPage> {
  const processId = processIdOf(rawBody);
  // The access check comes before the validation, so a caller learns nothing of the rules of another process.
  if (processId !== undefined && !(await mayReadDocumentOf(knex, user, processId))) throw unreachable(user);
  const criteria = criteriaOf(parse(documentInfoBodySchema, rawBody, 'documentInfo'));
  const mode = processMode(user, criteria.processId);
  if (!mode) {
    // Only grants on nodes of the process: the documents passing through those nodes.
    const granted = grantedNodeIds(user);
    const inProcess = await nodeIdsOfProcess(knex, criteria.processId, granted);
    if (!inProcess.length) throw unreachable(user);
    criteria.throughNodeIds = inProcess.map(Number);
  }
  const refusal = criteria.issues
    ? issueScopeRefusal({ ...criteria, issues: criteria.issues }, user.id, mode === 'ADMIN')
    : scopeRefusal(criteria, user.id, mode === 'ADMIN');
  if (refusal)
    throw new HttpError(403, { message: 'error.http.403', detail: refusal, key: `documentInfo.${refusal}` });
  const offset = paging.page * paging.size;
  if (criteria.issues) {
    // No keyset here (the comment count is an aggregate): page numbers from the start, or from the end of
    // the exact total (`last`), each inside the window.
    if (paging.after || paging.before)
      throw fieldErrors('documentInfo', [
        {
          field: paging.after ? 'after' : 'before',
          violation: { code: 'Pattern', key: 'entity.validation.pattern' },
        },
      ]);
    // A process mode reads every node of the process (domain/access.ts nodeMode); node-only grantees see the
    // steps of their nodes only.
    if (!mode) criteria.issues.visibleNodeIds = criteria.throughNodeIds ?? [];
    const issuePage = { offset, limit: paging.size, sort: paging.sort };
    if (paging.last) {
      const total = await issueDocumentCount(knex, criteria, criteria.issues);
      const rows = await issueDocumentPage(knex, criteria, criteria.issues, {
        ...issuePage,
        last: { total },
      });
      return { rows, total, exact: true };
    }
    const [rows, total] = await Promise.all([
      issueDocumentPage(knex, criteria, criteria.issues, issuePage),
      issueDocumentCount(knex, criteria, criteria.issues),
    ]);
    return { rows, total, exact: true };
  }
  const sort = paging.sort;
  if (!isDocumentSort(sort))
    throw fieldErrors('documentInfo', [
      { field: 'sort', violation: { code: 'Pattern', key: 'entity.validation.sort' } },
    ]);
  const page = {
    offset,
    limit: paging.size,
    sort,
    after: paging.after,
    before: paging.before,
    last: paging.last,
  };
  return pageAndCount(
    paging,
    (total) => documentInfoPage(knex, criteria, { ...page, total }),
    () => documentInfoCount(knex, criteria),
    sort.startsWith('filename'),
  );
}
