/**
 * Writes a parse's results in one transaction that replaces whatever an earlier parse of the document left:
 * the content (document_contents), the utterances with their tokens and token hints, and the page rows
 * (document_pages) with their PNG files. The document row is locked first, so two parses of one document
 * (a retry racing a slow attempt, a rerun) are serialized, and a retry or a rerun never duplicates.
 * Utterance and token ids are taken from their sequences up front, so the linked list (prevId/nextId) and
 * the hints are written in single inserts.
 */
import type { Knex } from 'knex';
import { linkUtterances, type TranscriptUtterance } from '../../domain/transcript';
import { stagePages } from './pages';
import { badInput, ParserFailure } from './work';

export interface ParseOutput {
  content: string;
  utterances: TranscriptUtterance[];
  /** PNG files in the work folder, in page order. */
  pages: string[];
}

const CHUNK = 1000;

async function nextIds(trx: Knex.Transaction, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const { rows } = await trx.raw<{ rows: { id: string }[] }>(
    `select nextval(pg_get_serial_sequence(?, 'id')) as id from generate_series(1, ?::int)`,
    [table, count],
  );
  return rows.map((r) => Number(r.id));
}

async function insertChunked(trx: Knex.Transaction, table: string, rows: object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await trx(table).insert(rows.slice(i, i + CHUNK));
}

async function writeTranscript(trx: Knex.Transaction, documentId: number, utterances: TranscriptUtterance[]) {
  await trx('utterances').where({ document_id: documentId }).delete();
  const uttIds = await nextIds(trx, 'utterances', utterances.length);
  const links = linkUtterances(uttIds);
  await insertChunked(
    trx,
    'utterances',
    utterances.map((u, i) => ({
      id: links[i].id,
      document_id: documentId,
      actor: u.actor,
      prev_id: links[i].prevId,
      next_id: links[i].nextId,
    })),
  );
  const tokens = utterances.flatMap((u, i) =>
    u.tokens.map((t, position) => ({ t, position, uttId: uttIds[i] })),
  );
  const tokenIds = await nextIds(trx, 'utterance_tokens', tokens.length);
  await insertChunked(
    trx,
    'utterance_tokens',
    tokens.map(({ t, position, uttId }, i) => ({
      id: tokenIds[i],
      utterance_id: uttId,
      position,
      value: t.value,
      ts_start: t.tsStart,
      ts_end: t.tsEnd,
      confidence: t.confidence,
    })),
  );
  await insertChunked(
    trx,
    'token_hints',
    tokens.flatMap(({ t }, i) =>
      t.hints.map((h) => ({ utterance_token_id: tokenIds[i], value: h.value, confidence: h.confidence })),
    ),
  );
}

export async function storeResults(
  knex: Knex,
  filesDir: string,
  documentId: number,
  out: ParseOutput,
): Promise<void> {
  const staged = await stagePages(filesDir, documentId, out.pages);
  const swap: { done?: Awaited<ReturnType<typeof staged.swapIn>> } = {};
  try {
    await knex.transaction(async (trx) => {
      const doc = await trx('documents').where({ id: documentId }).forUpdate().first('id');
      if (!doc) throw badInput(`Document ${documentId} no longer exists.`, ParserFailure.missingDocument);
      await trx('document_contents')
        .insert({ document_id: documentId, content: out.content })
        .onConflict('document_id')
        .merge(['content']);
      await writeTranscript(trx, documentId, out.utterances);
      await trx('document_pages').where({ document_id: documentId }).delete();
      await insertChunked(
        trx,
        'document_pages',
        staged.rows.map((r) => ({ document_id: documentId, index: r.index, path: r.path })),
      );
      await trx('documents').where({ id: documentId }).update({ last_modified_date: trx.fn.now() });
      // Last, under the row lock: the files change hands only with a transaction about to commit.
      swap.done = await staged.swapIn();
    });
  } catch (err) {
    if (swap.done) await swap.done.undo();
    else await staged.discard();
    throw err;
  }
  await swap.done?.cleanup();
}
