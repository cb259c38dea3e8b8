/**
 * Builders of documents and their issues inserted directly (no workflow, no API rules), for the suites of
 * lists that only read them (document-info, the issues dashboard), and of documents with a real stored file
 * for the parser's suites.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';

/** Inserts a document of a process with its assignees, blocker and steps ([nodeId, status] in order). */
export async function insertDocument(
  knex: Knex,
  processId: number,
  uploadNodeId: number,
  filename: string,
  opts: {
    status?: 'WAITING' | 'DONE';
    assignees?: number[];
    steps?: [number, string][];
    blockedBy?: number;
    createdBy?: number;
  } = {},
): Promise<number> {
  const hash = crypto.randomBytes(32).toString('hex');
  const [d] = await knex('documents')
    .insert({
      process_id: processId,
      upload_node_id: uploadNodeId,
      filename,
      path: `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
      content_hash: hash,
      mime_type: 'text/plain',
      size: 1,
      document_type: 'TEXTFILE',
      status: opts.status ?? 'WAITING',
      blocked_by_id: opts.blockedBy ?? null,
      created_by_id: opts.createdBy ?? null,
    })
    .returning('id');
  for (const u of opts.assignees ?? [])
    await knex('document_assignees').insert({ document_id: d.id, user_id: u });
  let order = 1;
  for (const [nodeId, status] of opts.steps ?? [])
    await knex('steps').insert({ document_id: d.id, node_id: nodeId, status, order: order++ });
  return Number(d.id);
}

/** The id of the document's step at a node (the first one). */
export async function stepOf(knex: Knex, documentId: number, nodeId: number): Promise<number> {
  const s = await knex('steps').where({ document_id: documentId, node_id: nodeId }).orderBy('id').first('id');
  if (!s) throw new Error(`no step of node ${nodeId} in document ${documentId}`);
  return Number(s.id);
}

/** Inserts a span tag of a tag type in a document's step. */
export async function insertTag(
  knex: Knex,
  documentId: number,
  stepId: number,
  nerTagTypeId: number,
  span: [number, number] = [0, 1],
): Promise<number> {
  const [t] = await knex('ner_tags')
    .insert({
      document_id: documentId,
      step_id: stepId,
      ner_tag_type_id: nerTagTypeId,
      type: 'SPAN_TAG',
      start_offset: span[0],
      end_offset: span[1],
    })
    .returning('id');
  return Number(t.id);
}

export interface IssueSpec {
  userId: number;
  type?: 'TEXT' | 'TOKEN' | 'TAG' | 'RELATION';
  status?: 'ACTIVE' | 'RESOLVED';
  title?: string;
  fromTagId?: number;
  toTagId?: number;
  /** replies in order: a user's comment, or an automatic one (a status change) */
  replies?: { userId: number; automatic?: boolean; text?: string }[];
}

/** Inserts an issue on a document with its replies. */
export async function insertIssue(knex: Knex, documentId: number, spec: IssueSpec): Promise<number> {
  const type = spec.type ?? 'TEXT';
  const [i] = await knex('issues')
    .insert({
      document_id: documentId,
      type,
      status: spec.status ?? 'ACTIVE',
      title: spec.title ?? `issue of ${documentId}`,
      text: '',
      start_offset: type === 'TEXT' ? 0 : null,
      end_offset: type === 'TEXT' ? 1 : null,
      from_tag_id: spec.fromTagId ?? null,
      to_tag_id: spec.toTagId ?? null,
      user_id: spec.userId,
    })
    .returning('id');
  for (const r of spec.replies ?? [])
    await knex('issue_replies').insert({
      issue_id: i.id,
      user_id: r.userId,
      automatic: r.automatic ?? false,
      text: r.text ?? (r.automatic ? 'Status changed' : 'A comment'),
    });
  return Number(i.id);
}

/**
 * Stores a file as the upload does (by content hash under `filesDir`) and inserts its document row (a
 * recording or a JSON transcript is an AUDIOFILE); its id.
 */
export async function insertStoredDocument(
  knex: Knex,
  filesDir: string,
  processId: number,
  file: { data: Buffer; filename: string; mimeType: string },
): Promise<number> {
  const hash = crypto.createHash('sha256').update(file.data).digest('hex');
  const rel = path.posix.join(hash.slice(0, 2), hash.slice(2, 4), hash);
  await fs.mkdir(path.join(filesDir, path.dirname(rel)), { recursive: true });
  await fs.writeFile(path.join(filesDir, rel), file.data);
  const audio = file.mimeType.startsWith('audio/') || file.mimeType === 'application/json';
  const [doc] = await knex('documents')
    .insert({
      process_id: processId,
      filename: file.filename,
      path: rel,
      content_hash: hash,
      mime_type: file.mimeType,
      size: file.data.length,
      document_type: audio ? 'AUDIOFILE' : 'TEXTFILE',
    })
    .returning('id');
  return doc.id;
}
