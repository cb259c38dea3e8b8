/**
 * The speech workspace's server side (issue 14 section 2 and 4; spec 2 sections 3 to 7; contract in
 * docs/api-speech.md):
 * - transcript writes through the active step's node (`?nodeId`): `PUT api/utterances`, the batch create
 *   `POST api/utterances/batch` (with the tokens it deletes: one transaction), `POST/PUT api/utterance-tokens`, `DELETE api/utterance-tokens/{id}` (and
 *   `DELETE api/utterance-tokens?id`); each needs WRITE on the node, the document in the node's process and
 *   an editable step of the node in it; the rules of the result live in domain/utterances.ts;
 * - `GET api/utterance-tokens/{id}/ner-tags?stepIds`;
 * - the asr-document entity: `GET api/asr-documents?processId` (paged, X-Total-Count), `GET
 *   api/asr-documents/{id}`, `GET api/_search/asr-documents?query`, `POST/PUT api/asr-documents`, `DELETE
 *   api/asr-documents/{id}`.
 * A document, utterance or token of another process answers like an unknown one (403, 404 to an admin).
 */
import { NO_CONTENT, route, type Route } from '../route';
import { id as intId, nerTagDto, utteranceDto } from '../responses';

import { documentReader, inBody, onNode, onProcess, param, query } from './access';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../app';
import {
  assertNodeMode,
  assertProcessMode,
  currentUser,
  mayReadDocumentOf,
  unreachable,
  type AuthUser,
} from '../auth';
import { FieldErrorCollector, notFound, setAlert } from '../errors';
import * as asr from '../services/asr-documents';
import * as documents from '../services/documents';
import { nerTagsOfToken } from '../services/tags';
import { tagFilterFor } from '../services/tag-visibility';
import * as speech from '../services/utterances';
import { setTotal } from '../paging';
import { firstValue, idParam, MAX_ID, pageQuery, stepIdsQuery } from '../validate';
import { documentById, renameDocument } from '../../db/queries/documents';
import { nodeRef, obligatoryUploadNode } from '../../db/queries/nodes';
import { tokenById } from '../../db/queries/utterances';
import { openFileStore } from '../../server/files';
import { sanitizeFilename } from '../../server/document-intake';
import { documentEditViolations } from '../../domain/document-edit';
import { timeOrderPosition, TokenProperties } from '../../domain/utterances';
import { allProcessIds } from '../../db/queries/processes';

const id = z.number().int().min(1).max(MAX_ID);
/** An id of the write: positive for an existing row, negative for a new one (-1, -2, ...). */
const clientId = z
  .number()
  .int()
  .min(-MAX_ID)
  .max(MAX_ID)
  .refine((v) => v !== 0);
const ms = z.number().nullable();
const tokenFields = {
  value: z.string().max(1000).optional(),
  tsStart: ms.optional(),
  tsEnd: ms.optional(),
  properties: z.array(z.enum(TokenProperties)).max(TokenProperties.length).optional(),
  unclear: z.boolean().optional(),
};
const tokenPatchSchema = z.object({ id: clientId, ...tokenFields });
export const utteranceSchema = z.object({
  id: clientId,
  docId: id.nullish(),
  actor: z.string().trim().min(1).max(100).optional(),
  prevId: clientId.nullable().optional(),
  nextId: clientId.nullable().optional(),
  tokens: z.array(tokenPatchSchema).max(10000).optional(),
});
export const utteranceUpdateSchema = utteranceSchema.extend({ id });
/**
 * The batch: its utterances alone, or with the tokens it deletes (`deletedTokens`: an undo written as one
 * transaction); it names an utterance or deletes a token.
 */
export const batchSchema = z.union([
  z.array(utteranceSchema).min(1).max(1000),
  z
    .object({
      batch: z.array(utteranceSchema).max(1000),
      deletedTokens: z.array(id).max(10000).optional(),
    })
    .refine((b) => b.batch.length > 0 || (b.deletedTokens?.length ?? 0) > 0, {
      path: ['batch'],
      message: 'entity.validation.required',
    }),
]);
export const tokenCreateSchema = z.object({
  utteranceId: id,
  value: z.string().max(1000),
  tsStart: z.number(),
  tsEnd: z.number(),
  position: z.number().int().min(0).max(MAX_ID).optional(),
  properties: tokenFields.properties,
  unclear: tokenFields.unclear,
});
export const tokenUpdateSchema = z.object({ id, ...tokenFields });
export const asrCreateSchema = z.object({ processId: id, filename: z.string().max(255).nullish() });
export const asrUpdateSchema = z.object({
  id,
  processId: id.nullish(),
  filename: z.string().nullish(),
});

const tokenDto = utteranceDto.shape.tokens.element;
const asrDocumentDto = z.object({ id: intId, processId: intId, filename: z.string(), status: z.string() });

export function speechRoutes({ config, knex, temporal }: AppDeps): Route[] {
  const store = openFileStore(config);
  const deps = documents.documentDepsOf({ knex, store, temporal }, config);

  /** The active step's node of `?nodeId`, with WRITE on it. */
  const writableNode = async (ctx: Context, user: AuthUser): Promise<speech.NodeOfWrite> => {
    const node = await nodeRef(knex, idParam(ctx.query.nodeId, 'nodeId'));
    if (!node) throw unreachable(user, 'node');
    assertNodeMode(user, node.id, node.processId, 'WRITE');
    return { nodeId: node.id, processId: node.processId };
  };

  /** The document of a write, in the node's process (another process's document answers like an unknown one). */
  const inProcess = <T extends { processId: number }>(
    user: AuthUser,
    found: T | undefined,
    node: speech.NodeOfWrite,
    entity: string,
  ): T => {
    if (!found || Number(found.processId) !== node.processId) throw unreachable(user, entity);
    return found;
  };

  const tokenRow = (tokenId: number) => tokenById(knex, tokenId);

  const deleteToken = async (ctx: Context, raw: unknown) => {
    const user = currentUser(ctx);
    const node = await writableNode(ctx, user);
    const tokenId = idParam(raw, 'id');
    const doc = inProcess(user, await speech.documentOfToken(knex, tokenId), node, 'utteranceToken');
    // no deletion while the document has relation graphs: checked by writeTranscript under the lock
    await speech.writeTranscript(knex, user, node, doc.documentId, {}, () => ({
      patches: [],
      deletedTokens: [tokenId],
    }));
    ctx.status = 204;
  };

  /** The processes a list or search covers: `?processId` (readable), else every readable process. */
  const readableProcesses = async (ctx: Context, user: AuthUser): Promise<number[]> => {
    if (ctx.query.processId !== undefined) {
      const processId = idParam(ctx.query.processId, 'processId');
      if (!(await mayReadDocumentOf(knex, user, processId))) throw unreachable(user, 'process');
      return [processId];
    }
    const all = await allProcessIds(knex);
    const out: number[] = [];
    for (const p of all) if (await mayReadDocumentOf(knex, user, p)) out.push(p);
    return out;
  };

  const respondPage = async (ctx: Context, query: string | null) => {
    const user = currentUser(ctx);
    const processIds = await readableProcesses(ctx, user);
    const { rows, total } = await asr.listAsrDocuments(knex, processIds, query, pageQuery(ctx, 20));
    setTotal(ctx, total);
    ctx.body = rows;
  };

  /** An asr document the caller holds the mode on (another process's answers like an unknown one). */
  const asrDocumentOf = async (ctx: Context, raw: unknown, mode: 'READ' | 'WRITE' | 'ADMIN') => {
    const user = currentUser(ctx);
    const doc = await documentById(knex, idParam(raw));
    const reach =
      doc &&
      (mode === 'READ'
        ? await mayReadDocumentOf(knex, user, doc.processId)
        : (assertProcessMode(user, doc.processId, mode), true));
    if (!doc || !reach) throw unreachable(user, 'asrDocument');
    if (doc.documentType !== 'AUDIOFILE') throw notFound('asrDocument');
    return doc;
  };

  return [
    // --- utterances; the speech workspace and the asr-document screens (docs/api-speech.md): transcript writes need WRITE
    // on the active step's node (`?nodeId`); the handlers then need the document in the node's process and an
    // editable step of the node in it (409 / 423), and a result that is still a transcript (400) ---
    route(
      {
        method: 'PUT',
        path: '/api/utterances',
        access: onNode('WRITE', query('nodeId', 'node')),
        body: { schema: utteranceUpdateSchema, object: 'utterance' },
        response: utteranceDto,
        status: [200, 204],
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const node = await writableNode(ctx, user);
        const input = body();
        const doc = inProcess(user, await speech.documentOfUtterance(knex, input.id), node, 'utterance');
        await speech.writeTranscript(knex, user, node, doc.documentId, {}, () => ({ patches: [input] }));
        const saved = await speech.utteranceDTO(knex, input.id);
        if (saved) ctx.body = saved;
        else ctx.status = 204;
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/utterances/batch',
        access: onNode('WRITE', query('nodeId', 'node')),
        body: { schema: batchSchema, object: 'utterances' },
        response: z.object({ utterances: z.array(utteranceDto), ids: z.record(z.string(), intId) }),
        status: [201, 200],
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const node = await writableNode(ctx, user);
        const raw = body();
        const items = Array.isArray(raw) ? raw : raw.batch;
        const deletedTokens = Array.isArray(raw) ? [] : [...new Set(raw.deletedTokens ?? [])];
        // the batch's document: that of its existing utterances, else of a token it deletes, else the docId its
        // new ones name
        const existing = items.find((u) => u.id > 0);
        const named = items.find((u) => u.docId)?.docId ?? undefined;
        new FieldErrorCollector('utterances')
          .check(
            'docId',
            existing || named || deletedTokens.length
              ? null
              : { code: 'NotBlank', key: 'entity.validation.required' },
          )
          .throwIfAny();
        const ofTokens = await speech.documentsOfTokens(knex, deletedTokens);
        const found = existing
          ? await speech.documentOfUtterance(knex, existing.id)
          : named
            ? await documentById(knex, named).then((d) => d && { documentId: d.id, processId: d.processId })
            : ofTokens.get(deletedTokens[0]);
        const doc = inProcess(user, found, node, 'document');
        if (named && named !== doc.documentId) throw unreachable(user, 'document');
        // Each deleted token as the token DELETE route takes it: another process's answers like an unknown one
        // (another document's of the process is refused by the plan: not one of this document).
        for (const tokenId of deletedTokens) inProcess(user, ofTokens.get(tokenId), node, 'utteranceToken');
        // no deletion while the document has relation graphs: checked by writeTranscript under the lock
        const { utteranceIds } = await speech.writeTranscript(knex, user, node, doc.documentId, {}, () => ({
          patches: items,
          deletedTokens,
        }));
        const saved = await Promise.all(
          items.map((u) => speech.utteranceDTO(knex, utteranceIds.get(u.id) ?? u.id)),
        );
        ctx.status = utteranceIds.size ? 201 : 200;
        ctx.body = {
          utterances: saved.filter(Boolean),
          ids: Object.fromEntries([...utteranceIds].map(([k, v]) => [String(k), v])),
        };
      },
    ),

    // --- tokens ---

    route(
      {
        method: 'POST',
        path: '/api/utterance-tokens',
        access: onNode('WRITE', query('nodeId', 'node')),
        body: { schema: tokenCreateSchema, object: 'utteranceToken' },
        response: tokenDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const node = await writableNode(ctx, user);
        const input = body();
        const doc = inProcess(
          user,
          await speech.documentOfUtterance(knex, input.utteranceId),
          node,
          'utterance',
        );
        const focus = { utterances: [input.utteranceId] };
        const { tokenIds } = await speech.writeTranscript(
          knex,
          user,
          node,
          doc.documentId,
          focus,
          (state) => {
            const u = state.utterances.find((x) => x.id === input.utteranceId);
            if (!u) throw notFound('utterance'); // removed meanwhile
            const byId = new Map(state.tokens.map((t) => [t.id, t]));
            const list = u.tokenIds.map((tid) => ({ id: tid }));
            const at =
              input.position === undefined
                ? timeOrderPosition(
                    u.tokenIds.map((tid) => byId.get(tid)!),
                    input.tsStart,
                  )
                : Math.min(input.position, list.length);
            const { utteranceId: _u, position: _p, ...fields } = input;
            list.splice(at, 0, { id: -1, ...fields });
            return { patches: [{ id: u.id, tokens: list }] };
          },
        );
        ctx.status = 201;
        ctx.body = await tokenRow(tokenIds.get(-1)!);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/utterance-tokens',
        access: onNode('WRITE', query('nodeId', 'node')),
        body: { schema: tokenUpdateSchema, object: 'utteranceToken' },
        response: tokenDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const node = await writableNode(ctx, user);
        const input = body();
        const doc = inProcess(user, await speech.documentOfToken(knex, input.id), node, 'utteranceToken');
        await speech.writeTranscript(knex, user, node, doc.documentId, { tokens: [input.id] }, (state) => {
          const t = state.tokens.find((x) => x.id === input.id);
          const u = t && state.utterances.find((x) => x.id === t.utteranceId);
          // deleted meanwhile (the document was read before the transaction)
          if (!u) throw notFound('utteranceToken');
          return {
            patches: [
              { id: u.id, tokens: u.tokenIds.map((tid) => (tid === input.id ? input : { id: tid })) },
            ],
          };
        });
        ctx.body = await tokenRow(input.id);
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/utterance-tokens/:id',
        access: onNode('WRITE', [query('nodeId', 'node'), param('id', 'utteranceToken')]),
        response: NO_CONTENT,
      },
      (ctx) => deleteToken(ctx, ctx.params.id),
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/utterance-tokens',
        access: onNode('WRITE', query('nodeId', 'node')),
        response: NO_CONTENT,
      },
      (ctx) => deleteToken(ctx, ctx.query.id),
    ),

    route(
      {
        method: 'GET',
        path: '/api/utterance-tokens/:id/ner-tags',
        access: documentReader(param('id', 'utteranceToken')),
        response: z.array(nerTagDto),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const tokenId = idParam(ctx.params.id);
        const stepIds = stepIdsQuery(ctx);
        const doc = await speech.documentOfToken(knex, tokenId);
        if (!doc || !(await mayReadDocumentOf(knex, user, Number(doc.processId))))
          throw unreachable(user, 'utteranceToken');
        if (stepIds && !stepIds.length) return void (ctx.body = []);
        const [list, visible] = await Promise.all([
          nerTagsOfToken(knex, tokenId, stepIds),
          tagFilterFor(knex, user, doc.documentId),
        ]);
        ctx.body = list.filter(visible);
      },
    ),

    // --- asr documents ---
    route(
      {
        method: 'GET',
        path: '/api/asr-documents',
        access: documentReader(query('processId', 'process')),
        response: z.array(asrDocumentDto),
      },
      async (ctx) => {
        idParam(ctx.query.processId, 'processId');
        await respondPage(ctx, null);
      },
    ),

    // without processId: the asr documents of every process the caller reads
    route(
      {
        method: 'GET',
        path: '/api/_search/asr-documents',
        access: documentReader(query('processId', 'process')),
        response: z.array(asrDocumentDto),
      },
      async (ctx) => {
        await respondPage(ctx, firstValue(ctx.query.query) ?? '');
      },
    ),

    route(
      {
        method: 'GET',
        path: '/api/asr-documents/:id',
        access: documentReader(param('id', 'document')),
        response: asrDocumentDto,
      },
      async (ctx) => {
        const doc = await asrDocumentOf(ctx, ctx.params.id, 'READ');
        ctx.body = await asr.findAsrDocument(knex, doc.id);
      },
    ),

    // READ on the process and WRITE on its obligatory Upload node (like POST /api/documents)
    route(
      {
        method: 'POST',
        path: '/api/asr-documents',
        access: onProcess('WRITE', inBody('processId', 'process')),
        body: { schema: asrCreateSchema, object: 'asrDocument' },
        response: asrDocumentDto,
        status: 201,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        assertProcessMode(user, input.processId, 'READ');
        const upload = await obligatoryUploadNode(knex, input.processId);
        if (!upload) throw notFound('process');
        assertNodeMode(user, upload.id, upload.processId, 'WRITE');
        let filename = sanitizeFilename(input.filename?.trim() || 'asr-document.wav');
        if (!/\.wav$/i.test(filename)) filename = `${filename}.wav`;
        const doc = await documents.createDocument(deps, {
          processId: input.processId,
          uploadNodeId: upload.id,
          filename,
          bytes: asr.silentWav(),
          mimeType: 'audio/wav',
          documentType: 'AUDIOFILE',
          createdById: user.id,
        });
        setAlert(ctx, 'soaApp.asrDocument.created', doc.id);
        ctx.status = 201;
        ctx.body = await asr.findAsrDocument(knex, doc.id);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/asr-documents',
        access: onProcess('WRITE', inBody('id', 'document')),
        body: { schema: asrUpdateSchema, object: 'asrDocument' },
        response: asrDocumentDto,
      },
      async (ctx, { body }) => {
        const input = body();
        const doc = await asrDocumentOf(ctx, input.id, 'WRITE');
        const errors = new FieldErrorCollector('asrDocument');
        const edit = {
          filename: input.filename ?? doc.filename,
          path: doc.path,
          documentType: doc.documentType,
          processId: input.processId ?? doc.processId,
        };
        for (const e of documentEditViolations(edit, doc)) errors.check(e.field, e.violation);
        errors.throwIfAny();
        await renameDocument(knex, doc.id, sanitizeFilename(edit.filename));
        setAlert(ctx, 'soaApp.asrDocument.updated', doc.id);
        ctx.body = await asr.findAsrDocument(knex, doc.id);
      },
    ),

    route(
      {
        method: 'DELETE',
        path: '/api/asr-documents/:id',
        access: onProcess('ADMIN', param('id', 'document')),
        response: NO_CONTENT,
      },
      async (ctx) => {
        const doc = await asrDocumentOf(ctx, ctx.params.id, 'ADMIN');
        await documents.deleteDocuments(deps, [doc]);
        setAlert(ctx, 'soaApp.asrDocument.deleted', doc.id);
        ctx.status = 204;
      },
    ),
  ];
}
