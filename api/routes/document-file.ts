/**
 * `POST /api/documents/{id}/file` (issue 29 section 2): a process administrator replaces the document's
 * file (multipart form data, field `file`) and its file parser step is rerun on it
 * (api/services/document-file.ts). The file is checked like an upload (413 over UPLOAD_MAX_BYTES, 415 for a
 * type not accepted); 409 when the document has no parser step that may be rerun. Answer: 200 with the
 * document summary and the rerun steps.
 */
import { route, type Route } from '../route';
import { z } from 'zod';
import { documentSummaryDto, stepActionDto } from '../responses';

import { onProcess, param } from './access';
import type { AppDeps } from '../app';
import { assertProcessMode, currentUser, unreachable } from '../auth';
import { HttpError } from '../errors';
import { replaceDocumentFile } from '../services/document-file';
import { documentById } from '../../db/queries/documents';
import { checkUpload } from '../../domain/upload-check';
import { sanitizeFilename } from '../../server/document-intake';
import { openFileStore } from '../../server/files';
import { idParam } from '../validate';
import { readMultipart, refused, tooLarge } from './file-upload';

export function documentFileRoutes({ config, knex, temporal }: AppDeps): Route[] {
  const deps = { knex, temporal, store: openFileStore(config), taskQueue: config.taskQueue, config };

  return [
    route(
      {
        method: 'POST',
        path: '/api/documents/:id/file',
        access: onProcess('ADMIN', param('id', 'document')),
        body: 'multipart',
        response: z.object({ document: documentSummaryDto, reruns: z.array(stepActionDto) }),
      },
      async (ctx) => {
        const user = currentUser(ctx);
        const doc = await documentById(knex, idParam(ctx.params.id));
        if (!doc) throw unreachable(user, 'document');
        assertProcessMode(user, doc.processId, 'ADMIN');
        let form;
        try {
          form = await readMultipart(ctx, config.uploadMaxBytes);
        } catch (err) {
          ctx.set('Connection', 'close');
          throw err;
        }
        if (!form.file)
          throw new HttpError(400, {
            message: 'error.upload.noFile',
            detail: 'The form has no file (field "file")',
          });
        if (form.file.truncated)
          throw tooLarge(`The file is larger than the limit of ${config.uploadMaxBytes} bytes`);
        const filename = sanitizeFilename(form.file.filename);
        const check = checkUpload(
          filename,
          form.file.bytes,
          config.uploadMaxBytes,
          config.officeMaxUncompressedBytes,
        );
        if (!check.ok) throw refused(check);
        ctx.body = await replaceDocumentFile(deps, user, doc, {
          filename,
          bytes: form.file.bytes,
          mimeType: check.mime,
          documentType: check.documentType,
        });
      },
    ),
  ];
}
