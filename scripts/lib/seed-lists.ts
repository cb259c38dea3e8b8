/**
 * The data set of issue 13's list benchmark, made in SQL (generate_series, one statement per table), not by
 * a million API calls: one process HUP -> FILE_PARSER -> SPAN -> CLF -> SPAN (review) with `documents`
 * documents of about five steps each, `users` annotators, 30 % of the documents assigned (one annotator each),
 * 20 % with a NER tag, 20 % DONE. The rules are deterministic functions of the document's ordinal `i`
 * (1..documents), so a test can count what each filter must return (`expectedCounts`).
 *
 * - status: DONE when i % 5 = 0, else WAITING;
 * - steps: order 1..5 at the five nodes; DONE documents have every step ACCEPTED (the last DONE); a WAITING
 *   document has steps 1..k ACCEPTED and step k+1 WAITING with k = 1 + i % 4 (so 2..5 steps);
 * - assignee: when i % 10 < 3, annotator number (i % users) + 1, who also blocks the document's waiting step;
 * - NER tag: when i % 5 = 1, one Person tag on its SPAN step (documents with one) covering the content's first 5 characters (the
 *   name);
 * - filename `doc-<i>-<word>.txt`, the word from a small vocabulary by i % 7;
 * - content (the list's search, #13): `<name> wrote about the <word> number <i>. <md5(i)>`, the name from
 *   LIST_NAMES by floor(i / 5) % 5, the word as in the filename;
 * - classifier tag: when i % 10 = 3, the CLF node's type `Urgent` on its CLF step (documents with one).
 */
import type { Knex } from 'knex';

export interface ListsDataset {
  processId: number;
  nodeIds: number[];
  /** the SPAN node's NER tag type Person, and the CLF node's classifier type Urgent */
  nerTagTypeId: number;
  classifierTypeId: number;
  /** user ids of the annotators, annotator n (1-based) at index n - 1 */
  userIds: number[];
  documents: number;
}

export const LIST_WORDS = ['invoice', 'contract', 'letter', 'report', 'minutes', 'offer', 'claim'];
/** Five-letter names opening the contents (a NER tag covers the first 5 characters). */
export const LIST_NAMES = ['Alice', 'Bruno', 'Celia', 'Damon', 'Erika'];

const ACTIVITIES = ['HUP', 'FILE_PARSER', 'SPAN', 'CLF', 'SPAN'] as const;

export async function seedListsDataset(
  knex: Knex,
  o: { documents: number; users: number; name?: string; log?: (line: string) => void },
): Promise<ListsDataset> {
  const log = o.log ?? (() => undefined);
  const n = o.documents;
  const [proc] = await knex('processes')
    .insert({ name: o.name ?? `Lists ${Date.now()}` })
    .returning('id');
  const processId = Number(proc.id);
  const nodeIds: number[] = [];
  for (const [i, activityType] of ACTIVITIES.entries()) {
    const [row] = await knex('nodes')
      .insert({
        process_id: processId,
        name: `${activityType} ${i + 1}`,
        activity_type: activityType,
        automatic: i < 2,
        auto_step_status: i < 2 ? 'ACCEPTED' : 'WAITING',
        obligatory: i === 0,
      })
      .returning('id');
    nodeIds.push(Number(row.id));
  }
  for (let i = 1; i < nodeIds.length; i++)
    await knex('edges').insert({ process_id: processId, from_id: nodeIds[i - 1], to_id: nodeIds[i] });
  const [tagType] = await knex('ner_tag_types')
    .insert({ node_id: nodeIds[2], name: 'Person', background_color: '#ffcc00', text_color: '#000000' })
    .returning('id');

  const [clfType] = await knex('classifier_types')
    .insert({ node_id: nodeIds[3], name: 'Urgent', background_color: '#cc0000' })
    .returning('id');

  const hash = (await knex('users').where({ login: 'user' }).first('password_hash'))?.password_hash ?? 'x';
  const stamp = `${processId}`;
  const users: { id: string }[] = (
    await knex.raw(
      `insert into users (login, email, password_hash, first_name, last_name, activated)
       select 'lists' || ? || '-' || g, 'lists' || ? || '-' || g || '@example.org', ?, 'Anna' || g,
              'Nowak' || g, true
         from generate_series(1, ?) g order by g
       returning id`,
      [stamp, stamp, hash, o.users],
    )
  ).rows;
  const userIds = users.map((u) => Number(u.id)).sort((a, b) => a - b);
  const role = await knex('roles').where({ name: 'ROLE_USER' }).first('id');
  if (role)
    await knex.raw(`insert into user_roles (user_id, role_id) select u, ? from unnest(?::bigint[]) u`, [
      role.id,
      userIds,
    ]);
  // Annotator 1 may write in the process (the benchmark's non-admin caller).
  const [auth] = await knex('authorities')
    .insert({ component_id: processId, type: 'PROCESS', mode: 'WRITE' })
    .onConflict(['component_id', 'type', 'mode'])
    .merge()
    .returning('id');
  await knex('user_authorities').insert({ user_id: userIds[0], authority_id: auth.id });
  log(`lists: ${userIds.length} users`);

  const t0 = Date.now();
  const docs = await knex.raw(
    `insert into documents (process_id, upload_node_id, filename, path, content_hash, mime_type, size,
                            document_type, status, created_date)
     select ?, ?, 'doc-' || g || '-' || (array[${LIST_WORDS.map(() => '?').join(',')}])[g % 7 + 1] || '.txt',
            'lists/' || g, md5(g::text), 'text/plain', 100, 'TEXTFILE',
            case when g % 5 = 0 then 'DONE' else 'WAITING' end, now()
       from generate_series(1, ?) g order by g
     returning id`,
    [processId, nodeIds[0], ...LIST_WORDS, n],
  );
  if (docs.rows.length !== n) throw new Error('the documents were not all inserted');
  log(`lists: ${n} documents in ${Date.now() - t0} ms`);

  // Ordinal i: the rank of the document's id in the process (ids follow the series' order, other writers'
  // documents may sit between them); `ord` is the step's order (1..5).
  const ORD = `with x as (select d.id, row_number() over (order by d.id) as i from documents d where d.process_id = ?)`;
  const t1 = Date.now();
  await knex.raw(
    `${ORD}
     insert into steps (document_id, node_id, status, master, blocked_by_id, "order")
     select x.id, (?::bigint[])[o.ord],
            case when x.i % 5 = 0 then 'ACCEPTED'
                 when o.ord <= 1 + x.i % 4 then 'ACCEPTED'
                 else 'WAITING' end,
            true,
            case when x.i % 5 <> 0 and o.ord = 2 + x.i % 4 and x.i % 10 < 3
                 then (?::bigint[])[x.i % ? + 1] end,
            o.ord
       from x cross join lateral generate_series(1, case when x.i % 5 = 0 then 5 else 2 + x.i % 4 end) o(ord)`,
    [processId, nodeIds, userIds, userIds.length],
  );
  log(`lists: steps in ${Date.now() - t1} ms`);
  const t2 = Date.now();
  await knex.raw(
    `${ORD}
     insert into document_assignees (document_id, user_id)
     select x.id, (?::bigint[])[x.i % ? + 1] from x where x.i % 10 < 3`,
    [processId, userIds, userIds.length],
  );
  await knex.raw(
    `${ORD}
     insert into ner_tags (document_id, step_id, ner_tag_type_id, type, start_offset, end_offset)
     select s.document_id, s.id, ?, 'SPAN_TAG', 0, 5
       from steps s join x on x.id = s.document_id
      where s.node_id = ? and x.i % 5 = 1`,
    [processId, tagType.id, nodeIds[2]],
  );
  await knex.raw(
    `${ORD}
     insert into classifier_tags (document_id, step_id, node_id, classifier_type_id)
     select s.document_id, s.id, s.node_id, ?
       from steps s join x on x.id = s.document_id
      where s.node_id = ? and x.i % 10 = 3`,
    [processId, clfType.id, nodeIds[3]],
  );
  log(`lists: assignees and tags in ${Date.now() - t2} ms`);
  const t3 = Date.now();
  await knex.raw(
    `${ORD}
     insert into document_contents (document_id, content)
     select x.id, (array[${LIST_NAMES.map(() => '?').join(',')}])[(x.i / 5) % 5 + 1] || ' wrote about the ' ||
            (array[${LIST_WORDS.map(() => '?').join(',')}])[x.i % 7 + 1] || ' number ' || x.i || '. ' || md5(x.i::text)
       from x`,
    [processId, ...LIST_NAMES, ...LIST_WORDS],
  );
  log(`lists: contents in ${Date.now() - t3} ms`);
  await knex.raw(
    'analyze documents, steps, document_assignees, ner_tags, classifier_tags, document_contents, users',
  );
  return {
    processId,
    nodeIds,
    userIds,
    documents: n,
    nerTagTypeId: Number(tagType.id),
    classifierTypeId: Number(clfType.id),
  };
}

/** How many documents of the data set each rule of the seeder gives (for the tests of filters). */
export function expectedCounts(documents: number, users: number) {
  let done = 0;
  let assigned = 0;
  let assignedToFirst = 0;
  let withTag = 0;
  let waitingAtSpan = 0;
  let classified = 0;
  /** documents with a Person tag covering each name */
  const taggedByName: Record<string, number> = Object.fromEntries(LIST_NAMES.map((n) => [n, 0]));
  for (let i = 1; i <= documents; i++) {
    // a tag sits on a step: the SPAN step (order 3) exists when i % 4 >= 1, the CLF one (order 4) when >= 2
    if (i % 10 === 3 && i % 4 >= 2) classified++;
    if (i % 5 === 1 && i % 4 >= 1) taggedByName[LIST_NAMES[Math.floor(i / 5) % 5]]++;
    if (i % 5 === 0) done++;
    if (i % 10 < 3) {
      assigned++;
      if (i % users === 0) assignedToFirst++;
    }
    if (i % 5 === 1) withTag++;
    // step 3 (SPAN) is WAITING when the document waits with k = 1 + i % 4 = 2 accepted steps
    if (i % 5 !== 0 && i % 4 === 1) waitingAtSpan++;
  }
  return {
    done,
    waiting: documents - done,
    assigned,
    assignedToFirst,
    withTag,
    waitingAtSpan,
    classified,
    taggedByName,
  };
}
