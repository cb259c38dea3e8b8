/**
 * Step results of a node for the export (domain/export.ts says what a row holds), read through a server-side
 * cursor (`DECLARE ... CURSOR` in a read-only transaction, `FETCH` in batches) so an export of any size holds
 * one batch in memory. pg-query-stream (what knex `.stream()` needs) is not a dependency.
 *
 * The rows: steps of the node that are DONE or ACCEPTED with their last change in [start, end), by step id.
 */
import type { Knex } from 'knex';
import type { ExportKind, StepResultRecord } from '../../domain/export';

/** Rows per FETCH: SPAN rows carry the document's text. */
export const EXPORT_BATCH = 500;

const RESULT: Record<ExportKind, string> = {
  CLF: `(select coalesce(json_agg(ct.name order by ct.name, ct.id), '[]'::json)
           from classifier_tags t join classifier_types ct on ct.id = t.classifier_type_id
          where t.document_id = s.document_id and t.node_id = s.node_id) as classes`,
  SPAN: `(select coalesce(json_agg(json_build_object('id', t.id, 'label', tt.name, 'start', t.start_offset,
                  'end', t.end_offset) order by t.start_offset, t.end_offset, t.id), '[]'::json)
           from ner_tags t join ner_tag_types tt on tt.id = t.ner_tag_type_id
          where t.document_id = s.document_id and tt.node_id = s.node_id) as tags,
         (select coalesce(json_agg(json_build_object('from', r.from_id, 'to', r.to_id, 'type', rt.name)
                  order by r.id), '[]'::json)
           from ner_tag_relation_graphs g
           join ner_tag_relations r on r.graph_id = g.id
           join ner_relation_types rt on rt.id = r.relation_type_id
          where g.document_id = s.document_id and g.node_id = s.node_id) as relations,
         coalesce((select c.content from document_contents c where c.document_id = s.document_id), '') as content`,
  LLM: `(select r.response from llm_chat_responses r where r.step_id = s.id order by r.id desc limit 1) as response`,
};

function resultSql(kind: ExportKind): string {
  return `select s.id as "stepId", s.document_id as "documentId", d.filename, s.status,
                 s.last_modified_date as "finishedAt", ${RESULT[kind]}
            from steps s join documents d on d.id = s.document_id
           where s.node_id = ? and s.status in ('DONE', 'ACCEPTED')
             and s.last_modified_date >= ? and s.last_modified_date < ?
           order by s.id`;
}

interface RawRow extends Omit<StepResultRecord, 'finishedAt' | 'stepId' | 'documentId'> {
  stepId: string | number;
  documentId: string | number;
  finishedAt: Date;
}

const toRecord = (r: RawRow): StepResultRecord => ({
  ...r,
  stepId: Number(r.stepId),
  documentId: Number(r.documentId),
  finishedAt: r.finishedAt.toISOString(),
});

/**
 * The node's step results in the range, batch by batch. The cursor's transaction ends (rolled back: it only
 * read) when the generator finishes, fails or is returned early (a client that went away).
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
      yield rows.map(toRecord);
    }
  } finally {
    await trx.rollback().catch(() => undefined);
  }
}
