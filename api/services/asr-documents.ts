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
import type { Knex } from 'knex';

export interface AsrDocumentDTO {
  id: number;
  processId: number;
  filename: string;
  status: string;
}

const COLUMNS = ['id', 'process_id as processId', 'filename', 'status'];

export interface Page {
  page: number;
  size: number;
}

const audio = (knex: Knex) => knex('documents').where('document_type', 'AUDIOFILE');

/** A page of the process's asr documents by id, and their count. */
export async function listAsrDocuments(
  knex: Knex,
  processIds: readonly number[],
  query: string | null,
  { page, size }: Page,
): Promise<{ rows: AsrDocumentDTO[]; total: number }> {
  const base = () => {
    const q = audio(knex).whereIn('process_id', [...processIds]);
    if (query) {
      const text = query.trim();
      q.where((w) => {
        w.whereRaw('filename ilike ?', [`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]);
        if (/^\d{1,10}$/.test(text) && Number(text) <= 2147483647) w.orWhere('id', Number(text));
      });
    }
    return q;
  };
  const [rows, count] = await Promise.all([
    base()
      .orderBy('id')
      .offset(page * size)
      .limit(size)
      .select(COLUMNS),
    base().count<{ count: string }[]>('* as count'),
  ]);
  return { rows, total: Number(count[0].count) };
}

export async function findAsrDocument(knex: Knex, id: number): Promise<AsrDocumentDTO | undefined> {
  return audio(knex).where('id', id).first(COLUMNS);
}

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
