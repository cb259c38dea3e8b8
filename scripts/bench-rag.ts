/**
 * The `rag` part of `npm run bench` (issue 16 section 3): in one RAG process, BENCH_RAG_CHUNKS (100,000)
 * filler chunks seeded in SQL (1,000 documents; words of a generated vocabulary with a skewed frequency, plus
 * common English words) and BENCH_RAG_DOCUMENTS (200) documents indexed by the real indexing code
 * (activities/rag: splitter, chunks, statement triggers), each holding one fact sentence at a known offset
 * among filler paragraphs: "The <attribute> of <place> is <value>." with 12 attributes and 60 places reused
 * across facts, so a question must match both. Questions "What is the <attribute> of <place>?" are asked
 * through the lexical retrieval (BM25 in PostgreSQL); recall@10 counts a question found when the chunk
 * holding its fact's offset is among the 10 best chunks. Retrieval time is `retrieve()` as the RAG query
 * runs it (candidates, BM25, chunk rows, selection), one question at a time. Measured, never asserted.
 */
import { performance } from 'node:perf_hooks';
import { createKnex } from '../db/connection';
import { indexDocument } from '../activities/rag';
import { rankChunks, retrieve } from '../activities/rag/retrieve';
import { seededRandom } from './lib/seeded-random';

export interface RagBenchResults {
  chunks: number;
  factDocuments: number;
  questions: number;
  recallAt10: number;
  seedMs: number;
  indexMsPerDocument: number;
  retrievalMs: { p50: number; p95: number; max: number };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tu',
  'sa',
  'vo',
  'ne',
  'dra',
  'pi',
  'gu',
  'sel',
  'mo',
  'ta',
  'bri',
  'on',
];
const COMMON = ['the', 'of', 'and', 'is', 'a', 'to', 'in', 'what', 'was', 'for', 'on', 'with', 'as', 'by'];
const ATTRIBUTES = [
  'population',
  'altitude',
  'founder',
  'mascot',
  'currency',
  'harbour',
  'anthem',
  'river',
  'festival',
  'governor',
  'cathedral',
  'export',
];

function words(rand: () => number, n: number, syllables: readonly string[], parts: number): string[] {
  if (syllables.length ** parts < n) throw new Error(`${n} words cannot be made of ${parts} syllables`);
  const out = new Set<string>();
  while (out.size < n) {
    let w = '';
    for (let i = 0; i < parts; i++) w += syllables[Math.floor(rand() * syllables.length)];
    out.add(w);
  }
  return [...out];
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function benchRag(opts: {
  databaseUrl: string;
  chunks: number;
  documents: number;
}): Promise<RagBenchResults> {
  const knex = createKnex(opts.databaseUrl);
  const rand = seededRandom(16);
  try {
    const vocabulary = words(rand, 5000, SYLLABLES, 4);
    // places: 4 syllables from another set, so no filler word is a place
    const places = words(rand, 60, ['zor', 'qua', 'xen', 'yl', 'wix', 'jor', 'fev', 'hul'], 3);
    const [process] = await knex('processes')
      .insert({ name: `Bench RAG ${Date.now()}`, is_rag_enabled: true })
      .returning('id');
    const processId = Number(process.id);

    // --- filler chunks in SQL ---
    const t0 = performance.now();
    const perDoc = 100;
    const docs = Math.ceil(opts.chunks / perDoc);
    await knex.raw(
      `insert into documents (process_id, filename, path, content_hash, mime_type, size, document_type, status)
       select ?::bigint, 'filler-' || g || '.txt', 'bench/rag/' || g, md5(g::text), 'text/plain', 1, 'TEXTFILE', 'DONE'
         from generate_series(1, ?::int) g`,
      [processId, docs],
    );
    const vocab = [...COMMON, ...vocabulary];
    await knex.raw(
      `with d as (select id, row_number() over (order by id) - 1 as n from documents where process_id = ?),
       c as (select d.id as document_id, o as ordinal from d cross join generate_series(0, ? - 1) o
              where d.n * ? + o < ?),
       t as (select c.*, (select string_agg(
                 (?::text[])[1 + floor(power(random(), 3) * ?)::int], ' ')
                 from generate_series(1, 40 + (c.ordinal % 40)) w where c.ordinal >= 0) as text
               from c)
       insert into rag_chunks (process_id, document_id, ordinal, start_offset, end_offset, text, token_length)
       select ?, document_id, ordinal, 0, length(text), text,
              array_length(regexp_split_to_array(text, ' '), 1)
         from t`,
      [processId, perDoc, perDoc, opts.chunks, vocab, vocab.length, processId],
    );
    const seedMs = performance.now() - t0;

    // --- fact documents, indexed by the real code ---
    const filler = () =>
      Array.from(
        { length: 30 + Math.floor(rand() * 30) },
        () => vocab[Math.floor(rand() ** 3 * vocab.length)],
      ).join(' ') + '.';
    const facts: { docId: number; offset: number; attribute: string; place: string }[] = [];
    const used = new Set<string>();
    const [upload] = await knex('nodes')
      .insert({ process_id: processId, name: 'Upload', activity_type: 'HUP' })
      .returning('id');
    let indexMs = 0;
    for (let i = 0; i < opts.documents; i++) {
      let attribute: string;
      let place: string;
      do {
        attribute = ATTRIBUTES[Math.floor(rand() * ATTRIBUTES.length)];
        place = places[Math.floor(rand() * places.length)];
      } while (used.has(`${attribute} ${place}`));
      used.add(`${attribute} ${place}`);
      const before = Array.from({ length: 3 + Math.floor(rand() * 10) }, filler);
      const after = Array.from({ length: 3 + Math.floor(rand() * 10) }, filler);
      const fact = `The ${attribute} of ${place} is ${vocabulary[Math.floor(rand() * vocabulary.length)]}.`;
      const head = before.join('\n\n') + '\n\n';
      const content = head + fact + '\n\n' + after.join('\n\n');
      const [doc] = await knex('documents')
        .insert({
          process_id: processId,
          upload_node_id: upload.id,
          filename: `fact-${i}.txt`,
          path: `bench/rag/fact-${i}`,
          content_hash: `fact${i}`,
          mime_type: 'text/plain',
          size: content.length,
          document_type: 'TEXTFILE',
          status: 'DONE',
        })
        .returning('id');
      await knex('document_contents').insert({ document_id: doc.id, content });
      const ti = performance.now();
      await indexDocument({ knex }, Number(doc.id));
      indexMs += performance.now() - ti;
      facts.push({ docId: Number(doc.id), offset: head.length, attribute, place });
    }
    const total = Number((await knex('rag_chunks').where('process_id', processId).count({ n: '*' }))[0].n);
    console.log(`rag: ${total} chunks in the process (seeded in ${(seedMs / 1000).toFixed(1)} s)`);
    await knex.raw('analyze rag_chunks');
    await knex.raw('analyze rag_term_stats');

    // --- questions ---
    let found = 0;
    const times: number[] = [];
    for (const f of facts.slice(0, 3))
      await retrieve(knex, {
        processId,
        query: `What is the ${f.attribute}?`,
        topK: 10,
        similarityThreshold: 0,
      });
    for (const f of facts) {
      const query = `What is the ${f.attribute} of ${f.place}?`;
      const answer = await knex('rag_chunks')
        .where('document_id', f.docId)
        .where('start_offset', '<=', f.offset)
        .where('end_offset', '>', f.offset)
        .first('id');
      const top = (await rankChunks(knex, { processId, query, topK: 10, similarityThreshold: 0 })).slice(
        0,
        10,
      );
      if (top.some((t) => t.id === Number(answer.id))) found++;
      const t = performance.now();
      await retrieve(knex, { processId, query, topK: 10, similarityThreshold: 0 });
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      chunks: total,
      factDocuments: facts.length,
      questions: facts.length,
      recallAt10: Math.round((found / facts.length) * 1000) / 1000,
      seedMs: Math.round(seedMs),
      indexMsPerDocument: round(indexMs / facts.length),
      retrievalMs: {
        p50: round(percentile(times, 50)),
        p95: round(percentile(times, 95)),
        max: round(times[times.length - 1]),
      },
    };
  } finally {
    await knex.destroy();
  }
}

export function printRagResults(r: RagBenchResults): void {
  console.log('\nRAG retrieval (lexical, BM25 in PostgreSQL)');
  console.log(`chunks in the process        ${r.chunks}`);
  console.log(`questions                    ${r.questions} (one fact document each)`);
  console.log(`recall@10                    ${r.recallAt10}`);
  console.log(
    `retrieval p50 / p95 / max    ${r.retrievalMs.p50} / ${r.retrievalMs.p95} / ${r.retrievalMs.max} ms`,
  );
  console.log(`indexing                     ${r.indexMsPerDocument} ms per document`);
}
