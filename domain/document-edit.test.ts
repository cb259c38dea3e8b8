import { documentEditViolations } from './document-edit';

const stored = { path: 'ab/cdef', documentType: 'TEXTFILE', processId: 7 };
const valid = { filename: 'a.txt', path: 'ab/cdef', documentType: 'TEXTFILE', processId: 7 };
const keys = (input: Parameters<typeof documentEditViolations>[0], s = stored) =>
  documentEditViolations(input, s).map((v) => [v.field, v.violation.key]);

describe('documentEditViolations', () => {
  it('accepts a new filename with the rest unchanged', () => {
    expect(documentEditViolations({ ...valid, filename: 'renamed.pdf' }, stored)).toEqual([]);
  });

  it('requires filename, path, documentType and process with entity.validation.required', () => {
    expect(keys({ filename: ' ', path: '', documentType: null })).toEqual([
      ['filename', 'entity.validation.required'],
      ['path', 'entity.validation.required'],
      ['documentType', 'entity.validation.required'],
      ['processId', 'entity.validation.required'],
    ]);
  });

  it('checks the filename length and characters, and the document type', () => {
    expect(keys({ ...valid, filename: `${'a'.repeat(256)}` })).toEqual([
      ['filename', 'entity.validation.maxlength'],
    ]);
    expect(keys({ ...valid, filename: 'a/b.txt' })).toEqual([['filename', 'entity.validation.pattern']]);
    expect(keys({ ...valid, documentType: 'VIDEO' })).toEqual([
      ['documentType', 'entity.validation.pattern'],
    ]);
  });

  it('refuses a different path, type or process of a stored document, and not without one', () => {
    expect(keys({ ...valid, path: 'x', documentType: 'AUDIOFILE', processId: 8 })).toEqual([
      ['path', 'soaApp.document.validation.pathImmutable'],
      ['documentType', 'soaApp.document.validation.documentTypeImmutable'],
      ['processId', 'soaApp.document.validation.processImmutable'],
    ]);
    expect(documentEditViolations({ ...valid, path: 'x', processId: 8 })).toEqual([]);
  });
});
