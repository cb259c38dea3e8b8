/**
 * Asr documents (spec 2 sections 2, 3 and 7): the AUDIOFILE documents of a process as the asr-document entity
 * screens list, search, create, edit and delete them. An asr document is a document of type AUDIOFILE
 * ({id, processId}, with its filename and status for the screens).
 *
 * Decisions where the spec is silent:
 * - Creating one (the entity screen's "new") makes an AUDIOFILE document of one second of silence through
 *   the process's obligatory Upload node, so it walks the process like an upload and its transcript can be
 *   written by hand in the workspace.
 * - Editing one changes its filename only (the document edit rule, domain/document-edit.ts).
 * - The search matches the id exactly (a number) or the filename (case-insensitive, anywhere), in one
 *   process when `processId` is given, else in every process the caller reads.
 */

export {
  asrDocumentPage as listAsrDocuments,
  findAsrDocument,
  type AsrDocumentDTO,
  type Page,
} from '../../db/queries/documents';

/** A WAV file of one second of silence (16 kHz, 16-bit mono). */
export function silentWav(seconds = 1, rate = 16000): Buffer {
  const data = rate * 2 * seconds;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVE', 8, 'ascii');
  b.write('fmt ', 12, 'ascii');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(data, 40);
  return b;
}
