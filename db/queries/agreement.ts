/**
 * What the agreement of a multiprocessed node is computed from (domain/agreement-report.ts): the documents of
 * the node whose steps of it last changed in [start, end), those with at least two finished steps (DONE or
 * ACCEPTED) with each finished step's own classes or spans, and the count of the others. A few statements over
 * `steps (node_id)` and the tags' `step_id` indexes (docs/benchmarks.md, `agreement.p99Ms`).
 */
import type { Knex } from 'knex';
import type { Span } from '../../domain/agreement';
import type { AgreementDocument, AgreementStep } from '../../domain/agreement-report';

const FINISHED = `('DONE', 'ACCEPTED')`;

/** The node's documents in the range: `finished` steps of the node each. */
const DOCS = `docs as (
  select s.document_id, count(*) filter (where s.status in ${FINISHED}) as finished
    from steps s
   where s.node_id = :node
   group by s.document_id
  having max(coalesce(s.last_modified_date, s.created_date)) >= :start
     and max(coalesce(s.last_modified_date, s.created_date)) < :end)`;

/** The finished steps of the documents with two or more. */
const STEPS = `st as (
  select s.id, s.document_id, s.blocked_by_id, s."order"
    from steps s join docs d on d.document_id = s.document_id and d.finished >= 2
   where s.node_id = :node and s.status in ${FINISHED})`;

const TAGS = {
  CLASSES: `select c.step_id, c.classifier_type_id as v
              from st join classifier_tags c on c.step_id = st.id
             order by c.step_id, c.classifier_type_id`,
  SPANS: `select t.step_id, tt.name as label, t.start_offset as start, t.end_offset as "end"
            from st join ner_tags t on t.step_id = st.id join ner_tag_types tt on tt.id = t.ner_tag_type_id
           where t.start_offset is not null and t.end_offset is not null
           order by t.step_id, t.start_offset, t.end_offset`,
};

type Row = Record<string, any>;

export async function agreementData(
  knex: Knex,
  node: { id: number; kind: 'CLASSES' | 'SPANS' },
  start: Date,
  end: Date,
): Promise<{ documents: AgreementDocument[]; leftOut: number }> {
  const b = { node: node.id, start, end };
  const [counts, steps, tags] = await Promise.all([
    knex.raw(`with ${DOCS} select count(*) filter (where finished < 2)::int as "leftOut" from docs`, b),
    knex.raw(
      `with ${DOCS}, ${STEPS}
       select st.id, st.document_id, st.blocked_by_id, d.filename, coalesce(char_length(c.content), 0)::int as length
         from st join documents d on d.id = st.document_id
         left join document_contents c on c.document_id = st.document_id and :spans
        order by st.document_id, st."order", st.id`,
      { ...b, spans: node.kind === 'SPANS' },
    ),
    knex.raw(`with ${DOCS}, ${STEPS} ${TAGS[node.kind]}`, b),
  ]);
  const leftOut: number = counts.rows[0]?.leftOut ?? 0;
  const own = new Map<number, { classes: number[]; spans: Span[] }>();
  for (const t of tags.rows as Row[]) {
    const id = Number(t.step_id);
    let s = own.get(id);
    if (!s) own.set(id, (s = { classes: [], spans: [] }));
    if (node.kind === 'CLASSES') s.classes.push(Number(t.v));
    else s.spans.push({ label: t.label, start: Number(t.start), end: Number(t.end) });
  }
  const out = new Map<number, AgreementDocument & { steps: AgreementStep[] }>();
  for (const r of steps.rows as Row[]) {
    const id = Number(r.document_id);
    let d = out.get(id);
    if (!d) out.set(id, (d = { documentId: id, filename: r.filename, length: r.length, steps: [] }));
    const s = own.get(Number(r.id));
    d.steps.push({
      stepId: Number(r.id),
      userId: r.blocked_by_id === null ? null : Number(r.blocked_by_id),
      ...(node.kind === 'CLASSES' ? { classes: s?.classes ?? [] } : { spans: s?.spans ?? [] }),
    });
  }
  return { documents: [...out.values()], leftOut };
}
