/**
 * Step results of a node for the export (domain/export.ts says what a row holds), read through a server-side
 * cursor (`DECLARE ... CURSOR` in a read-only transaction, `FETCH` in batches) so an export of any size holds
 * one batch in memory. pg-query-stream (what knex `.stream()` needs) is not a dependency.
 *
 * The rows: steps of the node that are DONE or ACCEPTED with their last change in [start, end), by step id;
 * each with its own step's tags (the master's row: the node's result), so a multiprocessed node's export holds
 * every annotator's labels.
 *
 * A SPAN row carries its document's text when it is at most INLINE_CONTENT_BYTES; a longer text stays in the
 * database and the row gets `contentPieces`, which reads it in pieces of CONTENT_PIECE characters (`substr`,
 * in the cursor's transaction) as the export walks it, so a document of any size is held a piece at a time
 * (issue 25 finding 1). A batch holds at most EXPORT_BATCH texts of INLINE_CONTENT_BYTES.
 */
import type { Knex } from 'knex';
import type { ExportKind, StepResultRecord } from '../../domain/export';
import { masterTagSql } from './tags';

/**
 * The tags of the row's step `s` (issue 31 section 1): the master step's row has the node's result (its own
 * tags and those written by no step of the node), each other step of a multiprocessed node its annotator's.
 */
const OF_STEP = (tag: string, nodeColumn: string) =>
  `(case when s.master or not exists (select 1 from steps ms
                                      where ms.document_id = s.document_id and ms.node_id = s.node_id and ms.master)
          then ${masterTagSql(tag, nodeColumn)} else ${tag}.step_id = s.id end)`;

/** Rows per FETCH: SPAN rows carry the document's text (when short). */
export const EXPORT_BATCH = 500;

/** The longest text (UTF-8 bytes) that comes with its row. */
export const INLINE_CONTENT_BYTES = 16_384;

/** Characters (code points) of a long text read at once. */
export const CONTENT_PIECE = 1_000_000;

const RESULT: Record<ExportKind, string> = {
  CLF: `(select coalesce(json_agg(ct.name order by ct.name, ct.id), '[]'::json)
           from classifier_tags t join classifier_types ct on ct.id = t.classifier_type_id
          where t.document_id = s.document_id and t.node_id = s.node_id and ${OF_STEP('t', 't.node_id')}) as classes`,
  SPAN: `(select coalesce(json_agg(json_build_object('id', t.id, 'label', tt.name, 'start', t.start_offset,
                  'end', t.end_offset) order by t.start_offset, t.end_offset, t.id), '[]'::json)
           from ner_tags t join ner_tag_types tt on tt.id = t.ner_tag_type_id
          where t.document_id = s.document_id and tt.node_id = s.node_id and ${OF_STEP('t', 'tt.node_id')}) as tags,
         (select coalesce(json_agg(json_build_object('from', r.from_id, 'to', r.to_id, 'type', rt.name)
                  order by r.id), '[]'::json)
           from ner_tag_relation_graphs g
           join ner_tag_relations r on r.graph_id = g.id
           join ner_relation_types rt on rt.id = r.relation_type_id
          where g.document_id = s.document_id and g.node_id = s.node_id) as relations,
         case when octet_length(c.content) > ${INLINE_CONTENT_BYTES} then null else coalesce(c.content, '') end
           as content`,
  LLM: `(select r.response from llm_chat_responses r where r.step_id = s.id order by r.id desc limit 1) as response`,
};

function resultSql(kind: ExportKind): string {
  return `select s.id as "stepId", s.document_id as "documentId", d.filename, s.status,
                 s.last_modified_date as "finishedAt", ${RESULT[kind]}
            from steps s join documents d on d.id = s.document_id${
              kind === 'SPAN' ? ' left join document_contents c on c.document_id = s.document_id' : ''
            }
           where s.node_id = ? and s.status in ('DONE', 'ACCEPTED')
             and s.last_modified_date >= ? and s.last_modified_date < ?
           order by s.id`;
}

interface RawRow extends Omit<StepResultRecord, 'finishedAt' | 'stepId' | 'documentId' | 'content'> {
  stepId: string | number;
  documentId: string | number;
  finishedAt: Date;
  content?: string | null;
}

/** A long text of a document, piece by piece (a piece is whole code points: no surrogate pair is cut). */
async function* contentPieces(trx: Knex.Transaction, documentId: number): AsyncGenerator<string> {
  for (let from = 1; ; from += CONTENT_PIECE) {
    const { rows } = (await trx.raw(
      'select substr(content, ?, ?) as piece from document_contents where document_id = ?',
      [from, CONTENT_PIECE, documentId],
    )) as { rows: { piece: string }[] };
    const piece = rows[0]?.piece ?? '';
    if (!piece) return;
    yield piece;
  }
}

function toRecord(trx: Knex.Transaction, { content, ...r }: RawRow): StepResultRecord {
  const documentId = Number(r.documentId);
  return {
    ...r,
    stepId: Number(r.stepId),
    documentId,
    finishedAt: r.finishedAt.toISOString(),
    ...(content === null ? { contentPieces: () => contentPieces(trx, documentId) } : {}),
    ...(typeof content === 'string' ? { content } : {}),
  };
}

/**
 * The node's step results in the range, batch by batch. The cursor's transaction ends (rolled back: it only
 * read) when the generator finishes, fails or is returned early (a client that went away); a batch's
 * `contentPieces` are read before the next batch is asked for.
 */
export async function* stepResults(
  knex: Knex,
  nodeId: number,
  kind: ExportKind,
  start: Date,
  end: Date,
  batch = EXPORT_BATCH,
): AsyncGenerator<StepResultRecord[]> {
  const trx = await knex.transaction({ readOnly: true });
  try {
    await trx.raw(`declare step_results no scroll cursor for ${resultSql(kind)}`, [nodeId, start, end]);
    for (;;) {
      const { rows } = (await trx.raw(`fetch ${Math.max(1, Math.floor(batch))} from step_results`)) as {
        rows: RawRow[];
      };
      if (!rows.length) break;
      yield rows.map((r) => toRecord(trx, r));
    }
  } finally {
    await trx.rollback().catch(() => undefined);
  }
}
