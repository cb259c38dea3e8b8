/**
 * A recording made from an imported JSON transcript, for the speech workspace suites: the parser's .json
 * import is fast and deterministic (its "audio" is the JSON file, so the player shows its cannot-play
 * notice).
 */
import type { Knex } from 'knex';
import { BASE_URL } from './support';

/** The transcript uploaded to the upload node (`POST api/file-upload`) as an AUDIOFILE document; its id. */
export async function uploadTranscript(
  knex: Knex,
  token: string,
  uploadNodeId: number,
  transcript: unknown,
  filename: string,
): Promise<number> {
  const form = new FormData();
  form.append('nodeId', String(uploadNodeId));
  form.append('file', new Blob([JSON.stringify(transcript)], { type: 'application/json' }), filename);
  const res = await fetch(`${BASE_URL}/api/file-upload`, {
    method: 'POST',
    headers: { Authorization: token },
    body: form,
  });
  expect(res.status).toBe(201);
  const documentId = ((await res.json()) as { id: number }).id;
  // The upload types a .json file TEXTFILE (domain/upload-check.ts) though the parser reads it as a
  // transcript: the recording's type is set as an audio upload would have it.
  await knex('documents').where('id', documentId).update({ document_type: 'AUDIOFILE' });
  return documentId;
}
