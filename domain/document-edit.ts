/**
 * The document edit form (spec 2 section 5 "Document edit": filename and path required, documentType and
 * process required), one rule set for the form and for `PUT api/documents`. Only the filename can change:
 * the path is where the stored file lives (a content-hash key the parser and the audio route read), the
 * document type follows from the file's content, and a document walks its own process's graph; a different
 * value for those is refused with a field error instead of breaking the document. Pure: no I/O.
 */
import { DocumentTypes } from './enums';
import { filenameCharactersRule } from './upload-check';
import { documentFilenameRule, requiredRule, type Violation } from './validation';

export interface DocumentEditInput {
  filename?: string | null;
  path?: string | null;
  documentType?: string | null;
  processId?: number | null;
}

export type DocumentEditField = keyof DocumentEditInput;

export interface DocumentEditViolation {
  field: DocumentEditField;
  violation: Violation;
}

const required = requiredRule();

/** The field errors of an edit, in form order; `stored` (the document as it is) adds the immutability rule. */
export function documentEditViolations(
  input: DocumentEditInput,
  stored?: { path: string; documentType: string; processId: number },
): DocumentEditViolation[] {
  const out: DocumentEditViolation[] = [];
  const add = (field: DocumentEditField, violation: Violation | null) => {
    if (violation) out.push({ field, violation });
  };
  const filename = input.filename ?? '';
  add('filename', documentFilenameRule(filename) ?? filenameCharactersRule(filename));
  const path = input.path ?? '';
  add(
    'path',
    required(path) ??
      (stored && path !== stored.path
        ? { code: 'Match', key: 'soaApp.document.validation.pathImmutable' }
        : null),
  );
  const type = input.documentType ?? '';
  add(
    'documentType',
    required(type) ??
      (!(DocumentTypes as readonly string[]).includes(type)
        ? { code: 'Pattern', key: 'entity.validation.pattern' }
        : stored && type !== stored.documentType
          ? { code: 'Match', key: 'soaApp.document.validation.documentTypeImmutable' }
          : null),
  );
  add(
    'processId',
    input.processId === null || input.processId === undefined
      ? { code: 'NotBlank', key: 'entity.validation.required' }
      : stored && input.processId !== stored.processId
        ? { code: 'Match', key: 'soaApp.document.validation.processImmutable' }
        : null,
  );
  return out;
}
