/**
 * The document list's search (domain/document-search.ts): a page of one process's documents matching one of
 * the three modes, and their total. The page walks `documents (process_id, id)` in id order; the criteria
 * are EXISTS probes served by the indexes of migration 017: the trigram index on `document_contents.content`
 * (BY_CONTENT, and for BY_NER_TAG the content must hold one of the values too, which finds the candidates
 * of a rare value), `ner_tags (ner_tag_type_id, document_id)` (BY_NER_TAG) and `classifier_tags
 * (classifier_type_id, document_id)` (BY_CLASSIFIER_TAG). The total follows documentInfoCount's rule
 * (db/queries/bounded-count.ts): exact up to EXACT_COUNT_LIMIT matches, beyond it the planner's estimate.
 */
import type { Knex } from 'knex';
import { masterTagSql } from './tags';
import type { DocumentListEntryDTO, DocumentSearchSort } from '../../domain/document-search';
import { boundedCount, type BoundedCount } from './bounded-count';
import { readPage, settle, type ListPage, type SettledPage } from './list-page';

export interface DocumentSearchCriteria {
  processId: number;
  /** BY_CONTENT: a substring of the content (trimmed, not empty) */
  content?: string;
  /** BY_NER_TAG: every entry must match (a tag of the type covering one of the values; no values: any) */
  nerTags?: { typeId: number; values: string[] }[];
  /** BY_CLASSIFIER_TAG: a classifier tag of one of the types */
  classifierTypeIds?: number[];
}

/** `%`, `_` and `\` of a user's text are literal in LIKE. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (text: string) => `%${likeLiteral(text)}%`;

/**
 * The text a NER tag covers: the content between its offsets (a span tag; the content read by the document's
 * unique key, per tag, never joined whole), or its tokens' values joined by spaces (a token tag of a speech
 * document).
 */
const COVERED = `case when t.start_offset is not null and t.end_offset is not null
    then substr((select c.content from document_contents c where c.document_id = t.document_id),
      t.start_offset + 1, greatest(t.end_offset - t.start_offset, 0))
    else (select string_agg(ut.value, ' ' order by ut.ts_start, ut.id)
      from ner_tag_tokens nt join utterance_tokens ut on ut.id = nt.utterance_token_id
      where nt.ner_tag_id = t.id) end`;

/** The document's content contains one of the patterns (the trigram index serves it). */
const contentMatchesAny = (knex: Knex, patterns: string[]) => (s: Knex.QueryBuilder) =>
  s
    .select(knex.raw('1'))
    .from('document_contents as c')
    .whereRaw('c.document_id = d.id')
    .whereRaw(`c.content ilike any (array[${patterns.map(() => '?').join(', ')}]::text[])`, patterns);

/** The process's documents the criteria select (alias `d`). */
export function searched(knex: Knex, c: DocumentSearchCriteria): Knex.QueryBuilder {
  const q = knex('documents as d').where('d.process_id', c.processId);
  if (c.content !== undefined) q.whereExists(contentMatchesAny(knex, [contains(c.content)]));
  for (const tag of c.nerTags ?? []) {
    const patterns = tag.values.map(contains);
    // LIKE's default escape character is the backslash (ANY takes no ESCAPE clause).
    q.whereExists((s) => {
      s.select(knex.raw('1'))
        .from('ner_tags as t')
        .whereRaw('t.document_id = d.id')
        .where('t.ner_tag_type_id', tag.typeId)
        .whereRaw(
          masterTagSql('t', '(select tt.node_id from ner_tag_types tt where tt.id = t.ner_tag_type_id)'),
        );
      if (patterns.length)
        s.whereRaw(`(${COVERED}) ilike any (array[${patterns.map(() => '?').join(', ')}]::text[])`, patterns);
    });
    // Text a tag covers is text of the content: the trigram index finds the few candidates of a rare value.
    if (patterns.length) q.whereExists(contentMatchesAny(knex, patterns));
  }
  if (c.classifierTypeIds)
    q.whereExists((s) =>
      s
        .select(knex.raw('1'))
        .from('classifier_tags as k')
        .whereRaw('k.document_id = d.id')
        .whereIn('k.classifier_type_id', c.classifierTypeIds!)
        .whereRaw(masterTagSql('k', 'k.node_id')),
    );
  return q;
}

/** Where a page starts (db/queries/list-page.ts); the cursors are document ids. */
export interface DocumentSearchPaging extends Omit<ListPage, 'after' | 'before'> {
  sort: DocumentSearchSort;
  /** the id of the last row of the page before */
  after?: number;
  /** the id of the first row of the page after */
  before?: number;
}

/** A page of entries in `sort` order: the ids first (index order), then the steps of those rows alone. */
export async function documentSearchPage(
  knex: Knex,
  c: DocumentSearchCriteria,
  page: DocumentSearchPaging,
): Promise<SettledPage<DocumentListEntryDTO>> {
  const dir = page.sort === 'id,desc' ? 'desc' : 'asc';
  const ids = searched(knex, c).select('d.id');
  const read = readPage(ids, [['d.id', dir]], {
    ...page,
    after: page.after === undefined ? undefined : [page.after],
    before: page.before === undefined ? undefined : [page.before],
  });
  if (!read) return settle([], null);
  const rows: (Omit<DocumentListEntryDTO, 'id' | 'processId'> & { id: string; processId: string })[] =
    await knex
      .with('page', ids)
      .from('page as p')
      .join('documents as d', 'd.id', 'p.id')
      .select(
        'd.id',
        'd.process_id as processId',
        'd.filename',
        'd.document_type as documentType',
        'd.status',
        knex.raw(`coalesce((select json_agg(json_build_object('id', s.id, 'status', s.status,
           'order', s."order", 'nodeId', s.node_id, 'nodeName', n.name) order by s."order", s.id)
         from steps s join nodes n on n.id = s.node_id where s.document_id = d.id), '[]') as steps`),
      )
      .orderBy('d.id', dir);
  return settle(
    rows.map((r) => ({ ...r, id: Number(r.id), processId: Number(r.processId) })),
    read,
  );
}

/** How many documents match (db/queries/bounded-count.ts: exact up to the limit, else estimated). */
export function documentSearchCount(knex: Knex, c: DocumentSearchCriteria): Promise<BoundedCount> {
  return boundedCount(knex, () => searched(knex, c));
}

/** The plan of the page query (EXPLAIN), for the index check. */
export async function explainDocumentSearch(knex: Knex, c: DocumentSearchCriteria): Promise<string> {
  const { sql, bindings } = searched(knex, c).select('d.id').orderBy('d.id').limit(20).toSQL();
  const { rows } = await knex.raw(`explain ${sql}`, bindings as Knex.RawBinding[]);
  return (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
}
