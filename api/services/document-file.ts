/**
 * Replacing a document's file (issue 29 section 2): a process administrator uploads a new file for a
 * document whose parse failed (or waits for proofreading); the file is stored, the document row points at
 * it (the same id, steps, tags and history), the file nobody uses any more is removed, and each of the
 * document's file parser steps in WAITING or ERROR is rerun on it by the document's workflow, as the
 * administrator (the timeline shows the rerun). A document without such a step is refused before anything
 * changes: its parse cannot be rerun (a DONE parser step stays done, spec 2), so a new file would never be
 * read.
 */
import { recordAudit } from './audits';
import { runStepAction, type StepActionAnswer } from './step-actions';
import { toSummary, type DocumentDeps, type DocumentSummaryDTO } from './documents';
import type { AuthUser } from '../auth';
import { HttpError } from '../errors';
import { documentById, setDocumentFile, type DocumentRow } from '../../db/queries/documents';
import { documentRerunnableParserSteps } from '../../db/queries/steps';
import type { DocumentType } from '../../domain/enums';
import { keyOfHash, removeUnusedFiles, sha256, withFileLock } from '../../server/files';

export interface ReplacementFile {
  filename: string;
  bytes: Uint8Array;
  mimeType: string;
  documentType: DocumentType;
}

export interface FileReplaced {
  document: DocumentSummaryDTO;
  /** The parser steps rerun on the new file, as each rerun left them. */
  reruns: StepActionAnswer[];
}

export async function replaceDocumentFile(
  deps: DocumentDeps & { config: { auditRetentionDays: number } },
  user: AuthUser,
  doc: DocumentRow,
  file: ReplacementFile,
): Promise<FileReplaced> {
  const { knex, store } = deps;
  const steps = await documentRerunnableParserSteps(knex, doc.id);
  if (steps.length === 0)
    throw new HttpError(409, {
      message: 'error.document.noRerunnableParse',
      detail: 'The document has no file parser step waiting or in error: its file cannot be parsed again',
    });
  if (file.documentType !== doc.documentType)
    throw new HttpError(400, {
      message: 'error.document.replaceTypeMismatch',
      detail: `The new file is a ${file.documentType}, the document a ${doc.documentType}`,
    });
  const hash = sha256(file.bytes);
  await knex.transaction(async (trx) => {
    await withFileLock(trx, keyOfHash(hash));
    const stored = await store.put(file.bytes, hash);
    await setDocumentFile(trx, doc.id, {
      filename: file.filename,
      path: stored.key,
      contentHash: stored.hash,
      mimeType: file.mimeType,
      size: stored.size,
    });
  });
  if (doc.path !== keyOfHash(hash)) await removeUnusedFiles(knex, store, [doc.path]);
  await recordAudit(deps, {
    principal: user.login,
    type: 'DOCUMENT_FILE_REPLACED',
    data: { documentId: doc.id, filename: file.filename, contentHash: hash, previousHash: doc.contentHash },
  });
  const reruns: StepActionAnswer[] = [];
  for (const step of steps) reruns.push(await runStepAction(deps, user, step.id, 'rerun'));
  return { document: toSummary((await documentById(knex, doc.id))!), reruns };
}
