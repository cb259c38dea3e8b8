/**
 * Documents (spec 2 sections 6 and 7): read (READ on the process), filename edit and creation from text
 * (WRITE), deletes of one, many or all of a process's documents (ADMIN; the workflows are ended and the
 * files removed), the content update (WRITE; 423 while another user blocks the document), the document block
 * (ADMIN) and its assignees, the document list's search (READ) (and who may be assigned: WRITE), and the parser's output: page images, the audio file with range requests,
 * its waveform peaks, utterances with tokens, token hints.
 */
import { fileResponse, NO_CONTENT, route, type Route } from '../route';
import { documentDto, id as intId, userRefDto, utteranceDto } from '../responses';
import { documentReader, inBody, onProcess, param } from './access';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../app';
import {
  assertNodeMode,
  assertProcessMode,
  currentUser,
  loadAuthUser,
  mayReadDocumentOf,
  unreachable,
  type AuthUser,
} from '../auth';
import { FieldErrorCollector, forbidden, HttpError, locked, notFound, setAlert } from '../errors';
import { sanitizeFilename } from '../../server/document-intake';
import * as documents from '../services/documents';
import { searchDocuments, searchPageRequest } from '../services/document-search';
import { listHeaders } from '../services/list-paging';
import { documentPeaks } from '../services/audio-peaks';
import { indexedOnEdit, startRagIndex } from '../services/rag';
import {
  addAssignee,
  blockDocument,
  removeAssignee,
  replaceAssignees,
} from '../../db/queries/document-assignees';
import { pageCount, pagePath } from '../../db/queries/document-pages';
import { documentById, findDocuments, renameDocument, setBlockedBy } from '../../db/queries/documents';
import { obligatoryUploadNode } from '../../db/queries/nodes';
import { assignableUsers } from '../../db/queries/users';
import { FileMissing, openFileStore } from '../../server/files';
import {
  checkUpload,
  extensionOf,
  filenameCharactersRule,
  isWellFormedText,
} from '../../domain/upload-check';
import { firstValue, idParam, intParam, MAX_ID, parse } from '../validate';
import { MAX_WINDOWS } from '../../domain/audio-peaks';
import { modeSatisfies, processMode } from '../../domain/access';
import { DocumentTypes, type AccessMode } from '../../domain/enums';
import { StepStatuses } from '../../domain/steps';
import type { DocumentListEntryDTO } from '../../domain/document-search';
import { documentFilenameRule } from '../../domain/validation';
import { documentEditViolations } from '../../domain/document-edit';
import { refused, unsupported } from './file-upload';
import { processExists } from '../../db/queries/processes';

/** An id in a body: the same range as a path parameter (idParam), so a huge number is a 400. */
const id = z.number().int().min(0).max(MAX_ID);
export const updateSchema = z.object({
  id,
  filename: z.string().nullish(),
  path: z.string().nullish(),
  documentType: z.string().nullish(),
  processId: id.nullish(),
});
export const createSchema = z.object({
  processId: id,
  filename: z.string(),
  content: z.string(),
});
const bulkDeleteSchema = z.object({
  documentIds: z.array(id).min(1),
  processId: id,
});
export const contentSchema = z.object({
  id,
  docId: id,
  content: z.string(),
});
export const userIdList = z.array(z.union([id, z.object({ id })]));

/**
 * The spec's "filename required" (and the column's limit), and one name that UTF-8 and a header can carry
 * (no path, no control characters, no lone surrogates), as a field error of the document form.
 */
function checkFilename(filename: string): void {
  new FieldErrorCollector('document')
    .check('filename', documentFilenameRule(filename) ?? filenameCharactersRule(filename))
    .throwIfAny();
}

/** Text the database can store: no NUL and no lone surrogate. */
function checkContent(objectName: string, content: string): void {
  const bad = content.includes('\u0000') || !isWellFormedText(content);
  new FieldErrorCollector(objectName)
    .check('content', bad ? { code: 'Pattern', key: 'entity.validation.pattern' } : null)
    .throwIfAny();
}

/** A JSON body on a DELETE (the body parser reads POST, PUT and PATCH only). */
async function deleteBody(ctx: Context, limit = 1024 * 1024): Promise<unknown> {
  const parsed = (ctx.request as unknown as { body?: unknown }).body;
  if (parsed !== undefined) return parsed;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, { message: 'error.http.413' });
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, { message: 'error.http.400', detail: 'The body is not valid JSON' });
  }
}

/** A user id in a body: a number, a numeric text, or {id} / {userId}. */
function userIdOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'object') {
    const o = value as { id?: unknown; userId?: unknown };
    return userIdOf(o.userId ?? o.id);
  }
  return idParam(value, 'userId');
}

interface Range {
  start: number;
  end: number;
}

/** A stored file gone between the row's read and the store's (a concurrent delete): 404 of its entity. */
const missingAs =
  (entity: string) =>
  (err: unknown): never => {
    throw err instanceof FileMissing ? notFound(entity) : err;
  };

/**
 * The single byte range of a Range header: null to serve the whole file (no header, another unit, or several
 * ranges), 'invalid' for a malformed or unsatisfiable bytes range (416).
 */
export function parseRange(header: string | undefined, size: number): Range | null | 'invalid' {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(header);
  if (!m) return null;
  const specs = m[1].split(',').map((s) => s.trim());
  if (specs.length > 1) return null;
  const r = /^(\d*)-(\d*)$/.exec(specs[0]);
  if (!r || (r[1] === '' && r[2] === '')) return 'invalid';
  if (r[1] === '') {
    const suffix = Number(r[2]);
    if (suffix === 0 || size === 0) return 'invalid';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(r[1]);
  const end = r[2] === '' ? size - 1 : Math.min(Number(r[2]), size - 1);
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}

/** The answers of the document routes (the document itself: api/responses.ts documentDto). */
const deletedIds = z.object({ deleted: z.array(intId) });
const documentListEntry = z.object({
  id: intId,
  processId: intId,
  filename: z.string(),
  documentType: z.enum(DocumentTypes),
  status: z.enum(['WAITING', 'DONE']),
  steps: z.array(
    z.object({
      id: intId,
      status: z.enum(StepStatuses),
      order: z.number().int(),
      nodeId: intId,
      nodeName: z.string(),
    }),
  ),
}) satisfies z.ZodType<DocumentListEntryDTO>;
const hintDto = z.object({
  id: intId,
  utteranceTokenId: intId,
  value: z.string(),
  confidence: z.number().nullable(),
});

export function documentRoutes({ config, knex, temporal }: AppDeps): Route[] {
  const store = openFileStore(config);
  const deps = documents.documentDepsOf({ knex, store, temporal }, config);

  /**
   * The document of a path parameter, after checking the caller's mode on its process; READ is the one
   * document-read rule (domain/access readsDocumentsOf: READ on the process or a mode on one of its nodes).
   */
  const documentOf = async (ctx: Context, mode: AccessMode, param = 'id') => {
    const user = currentUser(ctx);
    const doc = await documentById(knex, idParam(ctx.params[param], param));
    if (!doc) throw notFound('document');
    if (mode === 'READ') {
      if (!(await mayReadDocumentOf(knex, user, doc.processId))) throw forbidden();
    } else assertProcessMode(user, doc.processId, mode);
    return { user, doc };
  };
  const respondDocument = async (ctx: Context, id: number) => {
    ctx.body = await documents.toDocumentDTO(knex, (await documentById(knex, id))!);
  };
  /** A user who may be assigned: exists, is activated and may at least read the process. */
  const assignable = async (userId: number, processId: number): Promise<AuthUser> => {
    const u = await loadAuthUser(knex, { id: userId });
    if (!u || !u.activated) throw notFound('user');
    if (!modeSatisfies(processMode(u, processId), 'READ')) {
      throw new HttpError(400, {
        message: 'error.document.assigneeWithoutAccess',
        detail: `User ${u.login} has no access to the process`,
      });
    }
    return u;
  };

  return [
    route(
      {
        method: 'GET',
        path: '/api/documents/:id',
        access: documentReader(param('id', 'document')),
        response: documentDto,
      },
      async (ctx) => {
        const { doc } = await documentOf(ctx, 'READ');
        ctx.body = await documents.toDocumentDTO(knex, doc);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/documents',
        access: onProcess('WRITE', inBody('id', 'document')),
        body: { schema: updateSchema, object: 'document' },
        response: documentDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const doc = await documentById(knex, input.id);
        if (!doc) throw unreachable(user, 'document');
        assertProcessMode(user, doc.processId, 'WRITE');
        // The form's rules (spec 2 section 5): all four fields required; only the filename may change.
        const errors = new FieldErrorCollector('document');
        for (const e of documentEditViolations(input, doc)) errors.check(e.field, e.violation);
        errors.throwIfAny();
        const filename = sanitizeFilename(input.filename ?? '');
        await renameDocument(knex, doc.id, filename);
        setAlert(ctx, 'soaApp.document.updated', filename);
        await respondDocument(ctx, doc.id);
      },
    ),

    /** A text document created from JSON through the process's obligatory Upload node. */

    // READ on the process and WRITE on its obligatory Upload node
    route(
      {
        method: 'POST',
        path: '/api/documents',
        access: onProcess('WRITE', inBody('processId', 'process')),
        body: { schema: createSchema, object: 'document' },
        response: documentDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        assertProcessMode(user, input.processId, 'READ');
        checkFilename(input.filename);
        checkContent('document', input.content);
        const upload = await obligatoryUploadNode(knex, input.processId);
        if (!upload) throw notFound('process');
        assertNodeMode(user, upload.id, upload.processId, 'WRITE');
        let filename = sanitizeFilename(input.filename);
        if (!extensionOf(filename)) filename = `${filename}.txt`;
        const bytes = Buffer.from(input.content, 'utf8');
        const check = checkUpload(filename, bytes, config.uploadMaxBytes, config.officeMaxUncompressedBytes);
        if (!check.ok) throw refused(check);
        if (!['txt', 'json', 'eml'].includes(check.kind)) {
          throw unsupported('A document created from text must be a .txt, .json or .eml file');
        }
        const doc = await documents.createDocument(deps, {
          processId: input.processId,
          uploadNodeId: upload.id,
          filename,
          bytes,
          mimeType: check.mime,
          documentType: check.documentType,
          createdById: user.id,
          content: input.content,
        });
        // All or nothing: a failure after the document was created ends its workflow and removes it again.
        try {
          const dto = await documents.toDocumentDTO(knex, doc);
          setAlert(ctx, 'soaApp.document.created', filename);
          ctx.status = 201;
          ctx.body = dto;
        } catch (err) {
          await documents.deleteDocuments(deps, [doc]).catch(() => undefined);
          throw err;
        }
      },
    ),

    /**
     * The document list's search (spec 2 section 7): a page of the process's documents by content, NER tag or
     * classifier tag (domain/document-search.ts); the total in X-Total-Count (exact up to 1,000 matches, else
     * the planner's estimate: X-Total-Count-Exact false); paging as the document-info list's
     * (api/services/list-paging.ts: page numbers inside X-Result-Window, then cursors or `last`).
     */
    route(
      {
        method: 'POST',
        path: '/api/documents/_search/document',
        access: onProcess('READ', inBody('processId', 'process')),
        response: z.array(documentListEntry),
      },
      async (ctx) => {
        const window = config.listResultWindow;
        const paging = searchPageRequest(ctx.query, window);
        const raw = (ctx.request as unknown as { body: unknown }).body;
        const { rows, ...answer } = await searchDocuments(knex, currentUser(ctx), raw, paging);
        ctx.set(listHeaders(answer, window));
        ctx.body = rows;
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/documents/:id',
        access: onProcess('ADMIN', param('id', 'document')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const { doc } = await documentOf(ctx, 'ADMIN');
        await documents.deleteDocuments(deps, [doc]);
        setAlert(ctx, 'soaApp.document.deleted', doc.filename);
        ctx.status = 204;
      },
    ),

    /** Deletes the listed documents of the process; ids of other processes or unknown ids are left alone. */
    route(
      {
        method: 'DELETE',
        path: '/api/documents',
        access: onProcess('ADMIN', inBody('processId', 'process')),
        response: deletedIds,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const input = parse(bulkDeleteSchema, await deleteBody(ctx), 'documents');
        assertProcessMode(user, input.processId, 'ADMIN');
        const docs = await findDocuments(knex, { ids: input.documentIds, processId: input.processId });
        const deleted = await documents.deleteDocuments(deps, docs);
        ctx.body = { deleted };
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/processes/:id/documents',
        access: onProcess('ADMIN', param('id', 'process')),
        response: deletedIds,
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const processId = idParam(ctx.params.id);
        assertProcessMode(user, processId, 'ADMIN');
        if (!(await processExists(knex, processId))) throw notFound('process');
        const deleted = await documents.deleteDocuments(deps, await findDocuments(knex, { processId }));
        ctx.body = { deleted };
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/document-content',
        access: onProcess('WRITE', inBody('docId', 'document')),
        body: { schema: contentSchema, object: 'documentContent' },
        response: z.object({ id: intId, docId: intId, content: z.string() }),
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const doc = await documentById(knex, input.docId);
        if (!doc) throw unreachable(user, 'document');
        assertProcessMode(user, doc.processId, 'WRITE');
        if (documents.lockedFor(doc, user.id)) throw locked('error.document.blocked');
        checkContent('documentContent', input.content);
        ctx.body = await documents.updateContent(knex, doc.id, input.id, input.content);
        // The edited text of a DONE document of a RAG process is chunked again (not awaited).
        if (await indexedOnEdit(knex, doc.id))
          await startRagIndex(temporal, config.taskQueue, { documentId: doc.id });
      },
    ),

    // with and without the trailing slash
    ...['/api/v2/document/:id/blocked-by', '/api/v2/document/:id/blocked-by/'].flatMap((path) => [
      /** Blocks the document for the current user (the body, when given, must name that user). */
      route(
        { method: 'POST', path, access: onProcess('ADMIN', param('id', 'document')), response: documentDto },
        async (ctx) => {
          const { user, doc } = await documentOf(ctx, 'ADMIN');
          const named = userIdOf((ctx.request as unknown as { body?: unknown }).body);
          if (named !== undefined && named !== user.id) {
            throw new HttpError(400, {
              message: 'error.document.blockOthers',
              detail: 'A document is blocked by the current user only',
            });
          }
          if (documents.lockedFor(doc, user.id)) throw locked('error.document.blocked');
          await blockDocument(knex, doc.id, user.id);
          await respondDocument(ctx, doc.id);
        },
      ),
      route(
        {
          method: 'DELETE',
          path,
          access: onProcess('ADMIN', param('id', 'document')),
          response: documentDto,
        },
        async (ctx) => {
          const { doc } = await documentOf(ctx, 'ADMIN');
          await setBlockedBy(knex, doc.id, null);
          await respondDocument(ctx, doc.id);
        },
      ),
    ]),

    route(
      {
        method: 'POST',
        path: '/api/v2/document/:id/assignees/:userId',
        access: onProcess('WRITE', param('id', 'document')),
        response: documentDto,
      },
      async (ctx) => {
        const { doc } = await documentOf(ctx, 'WRITE');
        const target = await assignable(idParam(ctx.params.userId, 'userId'), doc.processId);
        await addAssignee(knex, doc.id, target.id);
        await respondDocument(ctx, doc.id);
      },
    ),

    /** Removing yourself needs WRITE, removing anybody else ADMIN; the blocking assignee unblocks first. */

    // removing yourself: WRITE; anybody else: ADMIN (the handler)
    route(
      {
        method: 'DELETE',
        path: '/api/v2/document/:id/assignee/:userId',
        access: onProcess('WRITE', param('id', 'document')),
        response: documentDto,
      },
      async (ctx) => {
        const { user, doc } = await documentOf(ctx, 'WRITE');
        const userId = idParam(ctx.params.userId, 'userId');
        if (userId !== user.id) assertProcessMode(user, doc.processId, 'ADMIN');
        await removeAssignee(knex, doc.id, userId);
        await respondDocument(ctx, doc.id);
      },
    ),

    /** Who may be assigned to the process's documents (the edit view of the assignees menu): WRITE. */
    route(
      {
        method: 'GET',
        path: '/api/processes/:id/assignable-users',
        access: onProcess('WRITE', param('id', 'process')),
        response: z.array(userRefDto),
      },
      async (ctx) => {
        const processId = idParam(ctx.params.id);
        assertProcessMode(currentUser(ctx), processId, 'WRITE');
        ctx.body = await assignableUsers(knex, processId);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/v2/document/:id/assignees',
        access: onProcess('ADMIN', param('id', 'document')),
        body: { schema: userIdList, object: 'assignees' },
        response: documentDto,
      },
      async (ctx, { body }) => {
        const { doc } = await documentOf(ctx, 'ADMIN');
        const list = body().map((v) => (typeof v === 'number' ? v : v.id));
        for (const id of new Set(list)) await assignable(id, doc.processId);
        await replaceAssignees(knex, doc.id, list);
        await respondDocument(ctx, doc.id);
      },
    ),

    // --- the parser's output ---

    route(
      {
        method: 'GET',
        path: '/api/documents/:id/images/length',
        access: documentReader(param('id', 'document')),
        response: z.object({ length: z.number().int() }),
      },
      async (ctx) => {
        const { doc } = await documentOf(ctx, 'READ');
        ctx.body = { length: await pageCount(knex, doc.id) };
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/documents/:id/images/:index',
        access: documentReader(param('id', 'document')),
        response: fileResponse('image/png'),
      },
      async (ctx) => {
        const { doc } = await documentOf(ctx, 'READ');
        const key = await pagePath(knex, doc.id, idParam(ctx.params.index, 'index'));
        if (!key) throw notFound('page');
        const image = await store.openRead(key).catch(missingAs('page'));
        ctx.type = 'image/png';
        ctx.set('Cache-Control', 'private, max-age=300');
        ctx.body = image;
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/asr-documents/:id/audio',
        access: documentReader(param('id', 'document')),
        response: fileResponse('audio/*', 'video/*', 'application/ogg', 'application/octet-stream'),
        status: [200, 206],
      },
      async (ctx) => {
        const { doc } = await documentOf(ctx, 'READ');
        if (doc.documentType !== 'AUDIOFILE') throw notFound('audio');
        // The browser seeks a long recording by ranges: only those bytes are read from the store (GetObject
        // with Range in a bucket), never the whole file.
        const size = await store.size(doc.path);
        if (size === null) throw notFound('audio');
        ctx.set('Accept-Ranges', 'bytes');
        ctx.set('Cache-Control', 'private, max-age=300');
        const range = parseRange(ctx.get('range') || undefined, size);
        if (range === 'invalid') {
          throw new HttpError(
            416,
            { title: 'Range Not Satisfiable', message: 'error.http.416' },
            { 'Content-Range': `bytes */${size}` },
          );
        }
        ctx.type = doc.mimeType;
        if (range) {
          ctx.status = 206;
          ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
          ctx.body = await store.openRead(doc.path, range).catch(missingAs('audio'));
          ctx.length = range.end - range.start + 1;
        } else {
          ctx.body = await store.openRead(doc.path).catch(missingAs('audio'));
          ctx.length = size;
        }
      },
    ),

    /**
     * The waveform peaks (domain/audio-peaks.ts `.dat`), computed on first request for older documents;
     * `?maxWindows` (1..MAX_WINDOWS) folds them to at most that many windows.
     */
    route(
      {
        method: 'GET',
        path: '/api/asr-documents/:id/peaks',
        access: documentReader(param('id', 'document')),
        response: fileResponse('application/octet-stream'),
      },
      async (ctx) => {
        const windows = firstValue(ctx.query.maxWindows);
        const maxWindows =
          windows === undefined ? undefined : intParam(windows, 'maxWindows', 1, MAX_WINDOWS);
        const { doc } = await documentOf(ctx, 'READ');
        if (doc.documentType !== 'AUDIOFILE') throw notFound('peaks');
        const bytes = await documentPeaks(knex, store, doc, maxWindows);
        if (!bytes) throw notFound('peaks');
        ctx.type = 'application/octet-stream';
        ctx.set('Cache-Control', 'private, max-age=300');
        ctx.body = bytes;
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/asr-documents/:id/utterances',
        access: documentReader(param('id', 'document')),
        response: z.array(utteranceDto),
      },
      async (ctx) => {
        const { doc } = await documentOf(ctx, 'READ');
        ctx.body = await documents.listUtterances(knex, doc.id);
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/documents/:documentId/top/hints',
        access: documentReader(param('documentId', 'document')),
        response: z.array(hintDto),
      },
      async (ctx) => {
        const { doc } = await documentOf(ctx, 'READ', 'documentId');
        const tokenId = ctx.query.utteranceTokenId;
        ctx.body = await documents.listHints(
          knex,
          doc.id,
          tokenId === undefined ? undefined : idParam(tokenId, 'utteranceTokenId'),
        );
      },
    ),
  ];
}
