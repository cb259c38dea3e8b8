/**
 * Intake over HTTP: `POST /api/file-upload` (form data `file` + `nodeId` of the process's obligatory Upload
 * node or an active HTTP upload node) and the HTTP upload node's own endpoint `POST /api/upload/{endpoint}`
 * (form data `file`). Both need a signed-in user with WRITE (or ADMIN) on the node; the content is checked
 * (api/services/upload-check.ts: 413 over UPLOAD_MAX_BYTES, 415 for anything not accepted), the file stored,
 * the document created and `document-<id>` started. Answer: 201 with the document summary.
 */
import { route, type Route } from '../route';
import { documentSummaryDto } from '../responses';

import { inBody, onNode, param, query } from './access';
import busboy from 'busboy';
import type { Context } from 'koa';
import type { AppDeps } from '../app';
import type { AppConfig } from '../../server/config';
import { assertNodeMode, currentUser, type AuthUser } from '../auth';
import { HttpError, notFound } from '../errors';
import { sanitizeFilename } from '../../server/document-intake';
import { createDocument, toSummary, type DocumentDeps } from '../services/documents';
import { openFileStore } from '../../server/files';
import { findNode } from '../services/nodes';
import { endpointNodeRefs } from '../../db/queries/nodes';
import { checkUpload, sizeText, type UploadCheck, type UploadRefusalReason } from '../../domain/upload-check';
import { idParam } from '../validate';
import type { NodeRow as Node } from '../../db/queries/nodes';
import { modeSatisfies, nodeMode } from '../../domain/access';

export interface MultipartUpload {
  fields: Record<string, string>;
  file: { filename: string; bytes: Buffer; truncated: boolean } | null;
}

const badRequest = (message: string, detail: string) => new HttpError(400, { message, detail });
export const tooLarge = (detail: string, reason?: UploadRefusalReason) =>
  new HttpError(413, { title: 'Payload Too Large', message: 'error.upload.tooLarge', detail, reason });
export const unsupported = (detail: string, reason?: UploadRefusalReason) =>
  new HttpError(415, {
    title: 'Unsupported Media Type',
    message: 'error.upload.unsupportedType',
    detail,
    reason,
  });
/**
 * The answer to a refused file: 413 or 415 with the English detail and the reason the UI translates
 * (`reason.key` with `reason.params`, domain/upload-check.ts).
 */
export const refused = (check: Extract<UploadCheck, { ok: false }>) =>
  check.status === 413 ? tooLarge(check.message, check.reason) : unsupported(check.message, check.reason);

/**
 * Reads a multipart/form-data body: small text fields and one file (the `file` field, else the first file),
 * kept in memory up to `maxBytes` (beyond that the file is marked truncated and the rest is drained).
 *
 * `beforeFile` runs with the fields read so far when the first file part starts, BEFORE any byte of it is
 * consumed (the part stays paused, so the client's upload stalls): the access check. When it throws, the
 * request stops being read and the promise rejects with its error (the caller answers and closes).
 * Every stream's failure (the request's error, abort or early close, busboy's malformed or truncated body,
 * a file stream's error) rejects with 400: nothing is left without an error listener (issue 9 finding 1).
 */
export function readMultipart(
  ctx: Context,
  maxBytes: number,
  beforeFile?: (fields: Record<string, string>) => Promise<void>,
): Promise<MultipartUpload> {
  return new Promise((resolve, reject) => {
    const req = ctx.req;
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: { fileSize: maxBytes, files: 5, fields: 20, fieldSize: 64 * 1024, parts: 30 },
      });
    } catch {
      reject(badRequest('error.upload.notMultipart', 'Send the file as multipart/form-data (field "file")'));
      return;
    }
    let settled = false;
    const malformed = () => badRequest('error.upload.malformed', 'The multipart body is malformed');
    const cleanup = () => {
      req.off('error', onRequestError);
      req.off('aborted', onRequestAborted);
      req.off('close', onRequestClose);
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      cleanup();
      req.unpipe(parser);
      req.pause();
      // busboy may still report the end of what it had: swallow it, the answer is decided.
      parser.on('error', () => undefined);
      parser.destroy();
      reject(err);
    };
    const onRequestError = () => fail(malformed());
    const onRequestAborted = () => fail(malformed());
    const onRequestClose = () => {
      if (!req.complete) fail(malformed());
    };
    req.on('error', onRequestError);
    req.on('aborted', onRequestAborted);
    req.on('close', onRequestClose);

    const out: MultipartUpload = { fields: {}, file: null };
    /** Settles when the kept file is fully read (and authorized); resolves at once without a file. */
    let fileDone: Promise<void> = Promise.resolve();
    let checked: Promise<void> | null = null;
    parser.on('field', (name, value) => {
      out.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      stream.on('error', () => fail(malformed()));
      if (settled || (out.file && name !== 'file')) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      const file = { filename: info.filename ?? '', bytes: Buffer.alloc(0), truncated: false };
      out.file = file;
      stream.pause();
      checked ??= beforeFile ? beforeFile({ ...out.fields }) : Promise.resolve();
      fileDone = new Promise<void>((done) => {
        stream.on('limit', () => (file.truncated = true));
        stream.on('end', () => {
          file.bytes = Buffer.concat(chunks);
          done();
        });
      });
      checked.then(
        () => {
          if (settled) return;
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.resume();
        },
        (err: Error) => fail(err),
      );
    });
    parser.on('error', () => fail(malformed()));
    parser.on('close', () => {
      Promise.all([checked ?? (beforeFile ? beforeFile({ ...out.fields }) : undefined), fileDone]).then(
        () => {
          if (settled) return;
          settled = true;
          cleanup();
          resolve(out);
        },
        (err: Error) => fail(err),
      );
    });
    req.pipe(parser);
  });
}

export interface UploadNode {
  node: Node;
  user: AuthUser;
}

/** A HUP node may take uploads when it is the obligatory Upload node or an active HTTP upload node. */
export function assertUploadNode(node: Node): void {
  if (node.activityType !== 'HUP') {
    throw badRequest('error.upload.notUploadNode', `Node ${node.id} is not an HTTP upload (HUP) node`);
  }
  if (!node.obligatory && node.settings?.active === false) {
    throw badRequest('error.upload.nodeInactive', `The upload node ${node.name} is not active`);
  }
}

/**
 * Reads the body, checks the file and creates the document through the node; answers 201. The node (from
 * the query or a form field that precedes the file) is resolved and authorized before the first byte of
 * the file is read; a refusal answers at once and closes the connection instead of reading the rest.
 */
async function intake(
  ctx: Context,
  deps: DocumentDeps,
  limits: Pick<AppConfig, 'uploadMaxBytes' | 'officeMaxUncompressedBytes'>,
  resolveNode: NodeResolver,
) {
  const { uploadMaxBytes: maxBytes, officeMaxUncompressedBytes: officeMaxBytes } = limits;
  const user = currentUser(ctx);
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes + 1024 * 1024) {
    ctx.set('Connection', 'close');
    throw tooLarge(`The upload is larger than the limit of ${maxBytes} bytes`);
  }
  let node: Node | undefined;
  const authorize = async (fields: Record<string, string>) => {
    node = await resolveNode(user, fields);
    assertNodeMode(user, node.id, node.processId, 'WRITE');
    assertUploadNode(node);
  };
  let form: MultipartUpload;
  try {
    form = await readMultipart(ctx, maxBytes, authorize);
  } catch (err) {
    // The rest of the body is not read: the connection closes after the answer.
    ctx.set('Connection', 'close');
    throw err;
  }
  if (!node) throw badRequest('error.upload.noFile', 'The form has no file (field "file")');
  if (!form.file) throw badRequest('error.upload.noFile', 'The form has no file (field "file")');
  if (form.file.truncated) {
    throw tooLarge(`The file is larger than the limit of ${maxBytes} bytes`, {
      key: 'error.upload.reason.tooLarge',
      params: { size: `> ${sizeText(maxBytes)}`, max: sizeText(maxBytes) },
    });
  }
  const filename = sanitizeFilename(form.file.filename);
  const check = checkUpload(filename, form.file.bytes, maxBytes, officeMaxBytes);
  if (!check.ok) throw refused(check);
  const doc = await createDocument(deps, {
    processId: node.processId,
    uploadNodeId: node.id,
    filename,
    bytes: form.file.bytes,
    mimeType: check.mime,
    documentType: check.documentType,
    createdById: user.id,
  });
  ctx.status = 201;
  ctx.body = toSummary(doc);
}

type NodeResolver = (user: AuthUser, fields: Record<string, string>) => Promise<Node>;

export function fileUploadRoutes({ config, knex, temporal }: AppDeps): Route[] {
  const deps: DocumentDeps = {
    knex,
    temporal,
    store: openFileStore(config),
    taskQueue: config.taskQueue,
  };

  return [
    // multipart: the handler authorizes a form-field node before the first file byte
    route(
      {
        method: 'POST',
        path: '/api/file-upload',
        access: onNode('WRITE', [query('nodeId', 'node'), inBody('nodeId', 'node')]),
        body: 'multipart',
        response: documentSummaryDto,
        status: 201,
      },
      async (ctx) => {
        await intake(ctx, deps, config, async (_user, fields) => {
          const raw = fields.nodeId ?? ctx.query.nodeId;
          if (raw === undefined) throw badRequest('error.upload.noNode', 'The form has no nodeId');
          const node = await findNode(knex, idParam(raw, 'nodeId'));
          if (!node) throw notFound('node');
          return node;
        });
      },
    ),

    /**
     * Endpoints are unique within a process only: when several processes use the same one, the nodes the
     * caller may upload to decide, and `?processId=` picks one when that is still ambiguous.
     */
    route(
      {
        method: 'POST',
        path: '/api/upload/:endpoint',
        access: onNode('WRITE', param('endpoint', 'uploadEndpoint')),
        body: 'multipart',
        response: documentSummaryDto,
        status: 201,
      },
      async (ctx) => {
        const endpoint = String(ctx.params.endpoint);
        const processId =
          ctx.query.processId === undefined ? undefined : idParam(ctx.query.processId, 'processId');
        await intake(ctx, deps, config, async (user) => {
          const refs = await endpointNodeRefs(knex, endpoint, processId);
          const nodes = (await Promise.all(refs.map((r) => findNode(knex, r.id)))).filter(
            (n): n is Node => !!n,
          );
          if (nodes.length === 0) throw notFound('uploadEndpoint');
          if (nodes.length === 1) return nodes[0];
          const writable = nodes.filter((n) => modeSatisfies(nodeMode(user, n.id, n.processId), 'WRITE'));
          if (writable.length === 1) return writable[0];
          if (writable.length === 0) return nodes[0]; // refused by the mode check
          throw new HttpError(409, {
            message: 'error.upload.ambiguousEndpoint',
            detail: `Several processes use the endpoint ${endpoint}: add ?processId=`,
          });
        });
      },
    ),
  ];
}
