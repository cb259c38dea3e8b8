/**
 * Statistics (issue 16 section 1; docs/api-statistics.md) with the real engine: `POST api/statistics` needs
 * ADMIN on the process and refuses bad ranges (365 days at most), zones and nodes; `POST api/work-time` keeps
 * one growing row per clientId and refuses bad stretches; WORK_TIMER splits work across midnight of the
 * caller's zone; TAG_USAGE counts the tags people make per user, node and day and stops counting deleted
 * ones (tag API, label deletion, document deletion); NODE_ACTIVITY counts the documents whose steps really
 * finished (workflow and projection) with their tags. The rollups are kept by database triggers.
 */
import crypto from 'node:crypto';
import { splitByDay, zoneDate } from '../../domain/statistics';
import type {
  NodeActivityAnswer,
  StatisticsQuery,
  TagUsageAnswer,
  WorkTimerAnswer,
} from '../../domain/statistics-types';
import {
  GraphBuilder,
  setupEngineSuite,
  startDocument,
  stepReaching,
  userWithNodeMode,
} from '../support/engine';
import { fieldKeys, MISSING_ID } from '../support/harness';

const DAY = 86_400_000;

describe('statistics', () => {
  const s = setupEngineSuite('statistics');
  const ask = <T>(token: string | undefined, q: Partial<StatisticsQuery>) =>
    s.send<T>('POST', '/api/statistics', token, q);
  const report = (token: string, json: Record<string, unknown>) =>
    s.send('POST', '/api/work-time', token, json);

  /** HUP, then a SPAN node with two labels; an admin, an annotator (WRITE on SPAN) and a reader of SPAN. */
  async function world() {
    const g = await GraphBuilder.create(s.knex);
    const hup = await g.node('HUP');
    const span = await g.node('SPAN');
    await g.edge(hup, span);
    const person = await g.nerTagType(span, 'Person');
    const place = await g.nerTagType(span, 'Place');
    const admin = await userWithNodeMode(s, [{ componentId: g.processId, type: 'PROCESS', mode: 'ADMIN' }]);
    const annotator = await userWithNodeMode(s, [{ componentId: span, type: 'NODE', mode: 'WRITE' }]);
    const reader = await userWithNodeMode(s, [{ componentId: span, type: 'NODE', mode: 'READ' }]);
    return { g, hup, span, person, place, admin, annotator, reader };
  }
  type World = Awaited<ReturnType<typeof world>>;

  async function documentAtSpan(w: World) {
    const doc = await startDocument(s, w.g, w.hup, { content: 'Ala ma kota w Krakowie.' });
    await s.knex('document_contents').insert({ document_id: doc.id, content: 'Ala ma kota w Krakowie.' });
    const step = await stepReaching(s.knex, doc.id, w.span, ['WAITING']);
    return { id: doc.id, step: step.id };
  }

  const query = (w: World, over: Partial<StatisticsQuery> = {}): Partial<StatisticsQuery> => ({
    type: 'WORK_TIMER',
    processId: w.g.processId,
    dateFrom: '2026-03-01',
    dateTo: '2026-03-31',
    zoneId: 'UTC',
    ...over,
  });

  it('needs ADMIN on the process', async () => {
    const w = await world();
    const writer = await userWithNodeMode(s, [
      { componentId: w.g.processId, type: 'PROCESS', mode: 'WRITE' },
    ]);
    const processReader = await userWithNodeMode(s, [
      { componentId: w.g.processId, type: 'PROCESS', mode: 'READ' },
    ]);
    const other = await world();
    for (const type of ['WORK_TIMER', 'TAG_USAGE', 'NODE_ACTIVITY'] as const)
      expect((await ask(w.admin.token, query(w, { type }))).status).toBe(200);
    expect((await ask(s.admin, query(w))).status).toBe(200);
    expect((await ask(writer.token, query(w))).status).toBe(403);
    expect((await ask(processReader.token, query(w))).status).toBe(403);
    expect((await ask(w.annotator.token, query(w))).status).toBe(403);
    expect((await ask(other.admin.token, query(w))).status).toBe(403);
    expect((await ask(undefined, query(w))).status).toBe(401);
    expect((await ask(w.admin.token, query(w, { processId: MISSING_ID }))).status).toBe(403);
    expect((await ask(s.admin, query(w, { processId: MISSING_ID }))).status).toBe(404);
  });

  it('refuses ranges longer than 365 days, reversed or unreal dates, unknown zones and nodes of another process', async () => {
    const w = await world();
    const other = await world();
    const refused = async (over: Partial<StatisticsQuery>) => {
      const res = await ask(w.admin.token, query(w, over));
      expect(res.status).toBe(400);
      return fieldKeys(res);
    };
    expect(
      (await ask(w.admin.token, query(w, { dateFrom: '2025-01-01', dateTo: '2026-01-01' }))).status,
    ).toBe(200);
    expect(await refused({ dateFrom: '2025-01-01', dateTo: '2026-01-02' })).toEqual([
      ['dateTo', 'soaApp.statistics.errors.rangeTooLong'],
    ]);
    expect(await refused({ dateFrom: '2026-03-02', dateTo: '2026-03-01' })).toEqual([
      ['dateTo', 'soaApp.statistics.errors.dateOrder'],
    ]);
    expect(await refused({ dateFrom: '2026-02-30', dateTo: '31.03.2026' })).toEqual([
      ['dateFrom', 'soaApp.statistics.errors.dateInvalid'],
      ['dateTo', 'soaApp.statistics.errors.dateInvalid'],
    ]);
    expect(await refused({ zoneId: 'Mars/Olympus' })).toEqual([
      ['zoneId', 'soaApp.statistics.errors.zoneInvalid'],
    ]);
    expect(await refused({ nodeIds: [w.span, other.span] })).toEqual([
      ['nodeIds', 'soaApp.statistics.errors.nodeNotInProcess'],
    ]);
    // the cell whose documents are listed: NODE_ACTIVITY, a day of the range, a node of the process (and of nodeIds)
    const activity = { type: 'NODE_ACTIVITY' as const };
    const cell = (date: string, nodeId = w.span) => ({ documentsOf: { nodeId, date } });
    expect((await ask(w.admin.token, query(w, { ...activity, ...cell('2026-03-31') }))).status).toBe(200);
    expect(await refused({ type: 'TAG_USAGE', ...cell('2026-03-05') })).toEqual([
      ['documentsOf', 'soaApp.statistics.errors.documentsOfType'],
    ]);
    expect(await refused({ ...activity, ...cell('2026-04-01') })).toEqual([
      ['documentsOf', 'soaApp.statistics.errors.documentsOfOutOfRange'],
    ]);
    expect(await refused({ ...activity, ...cell('2026-03-32') })).toEqual([
      ['documentsOf', 'soaApp.statistics.errors.dateInvalid'],
    ]);
    expect(await refused({ ...activity, ...cell('2026-03-05', other.span) })).toEqual([
      ['documentsOf', 'soaApp.statistics.errors.nodeNotInProcess'],
    ]);
    expect(await refused({ ...activity, nodeIds: [w.hup], ...cell('2026-03-05') })).toEqual([
      ['documentsOf', 'soaApp.statistics.errors.documentsOfNode'],
    ]);
    expect(await refused({ type: 'EVERYTHING' as never })).toEqual([
      ['type', 'entity.validation.invalid_value'],
    ]);
    expect(await refused({ dateTo: undefined })).toEqual([['dateTo', 'entity.validation.required']]);
  });

  it('records work stretches, one growing row per clientId, and splits them across midnight of the zone', async () => {
    const w = await world();
    const doc = await documentAtSpan(w);
    const clientId = crypto.randomUUID();
    const stretch = { clientId, stepId: doc.step, startTime: '2026-03-10T22:30:00Z' };
    // reported every minute: the row grows
    expect((await report(w.reader.token, { ...stretch, endTime: '2026-03-10T22:31:00Z' })).status).toBe(204);
    expect((await report(w.reader.token, { ...stretch, endTime: '2026-03-10T23:30:00Z' })).status).toBe(204);
    // an earlier, shorter report arriving late changes nothing
    expect((await report(w.reader.token, { ...stretch, endTime: '2026-03-10T23:00:00Z' })).status).toBe(204);
    expect(
      await s.knex('work_times').where({ client_id: clientId }).select('start_time', 'end_time'),
    ).toEqual([{ start_time: new Date(stretch.startTime), end_time: new Date('2026-03-10T23:30:00Z') }]);
    // 23:45 to 00:15 in India (a half-hour zone)
    const india = { clientId: crypto.randomUUID(), stepId: doc.step, startTime: '2026-03-11T18:15:00Z' };
    expect((await report(w.annotator.token, { ...india, endTime: '2026-03-11T18:45:00Z' })).status).toBe(204);

    const warsaw = await ask<WorkTimerAnswer>(w.admin.token, query(w, { zoneId: 'Europe/Warsaw' }));
    expect(warsaw.status).toBe(200);
    const start = Date.parse('2026-03-10T22:30:00Z');
    const expected = [
      ...splitByDay(start, start + 3_600_000, 'Europe/Warsaw').map((d) => ({ ...d, userId: w.reader.id })),
      ...splitByDay(Date.parse(india.startTime), Date.parse('2026-03-11T18:45:00Z'), 'Europe/Warsaw').map(
        (d) => ({
          ...d,
          userId: w.annotator.id,
        }),
      ),
    ].map((d) => ({ ...d, nodeId: w.span }));
    expect(expected.filter((d) => d.userId === w.reader.id).map((d) => d.seconds)).toEqual([1800, 1800]);
    expect(warsaw.body.days).toEqual(expect.arrayContaining(expected.map((d) => expect.objectContaining(d))));
    expect(warsaw.body.days).toHaveLength(3);
    expect(warsaw.body.rowsTotal).toBe(2);
    expect(
      warsaw.body.rows.map((r) => [r.userId, r.stepId, r.documentId, r.startTime, r.endTime, r.time]),
    ).toEqual([
      [w.annotator.id, doc.step, doc.id, '2026-03-11T18:15:00.000Z', '2026-03-11T18:45:00.000Z', 1800],
      [w.reader.id, doc.step, doc.id, '2026-03-10T22:30:00.000Z', '2026-03-10T23:30:00.000Z', 3600],
    ]);
    expect(warsaw.body.users.map((u) => u.id)).toEqual([w.annotator.id, w.reader.id].sort((a, b) => a - b));

    const kolkata = await ask<WorkTimerAnswer>(
      w.admin.token,
      query(w, { zoneId: 'Asia/Kolkata', userIds: [w.annotator.id] }),
    );
    expect(kolkata.body.days).toEqual([
      { date: '2026-03-11', userId: w.annotator.id, nodeId: w.span, seconds: 900 },
      { date: '2026-03-12', userId: w.annotator.id, nodeId: w.span, seconds: 900 },
    ]);
    expect(kolkata.body.rows.map((r) => r.userId)).toEqual([w.annotator.id]);

    // a range starting at Warsaw's midnight of the 11th counts the part of the stretch inside it
    const eleventh = await ask<WorkTimerAnswer>(
      w.admin.token,
      query(w, {
        zoneId: 'Europe/Warsaw',
        dateFrom: '2026-03-11',
        dateTo: '2026-03-11',
        userIds: [w.reader.id],
      }),
    );
    expect(eleventh.body.rows.map((r) => r.time)).toEqual([1800]);
    expect(eleventh.body.days.map((d) => [d.date, d.seconds])).toEqual([['2026-03-11', 1800]]);
  });

  it('refuses bad work-time reports and steps the caller cannot read', async () => {
    const w = await world();
    const other = await world();
    const doc = await documentAtSpan(w);
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const base = {
      clientId: crypto.randomUUID(),
      stepId: doc.step,
      startTime: iso(now - 60_000),
      endTime: iso(now),
    };
    const keys = async (token: string, over: Record<string, unknown>) => {
      const res = await report(token, { ...base, ...over });
      expect(res.status).toBe(400);
      return fieldKeys(res);
    };
    expect(await keys(w.reader.token, { endTime: iso(now - 120_000) })).toEqual([
      ['endTime', 'soaApp.statistics.errors.endBeforeStart'],
    ]);
    expect(await keys(w.reader.token, { endTime: iso(now + 3_600_000) })).toEqual([
      ['endTime', 'soaApp.statistics.errors.endInFuture'],
    ]);
    expect(await keys(w.reader.token, { startTime: iso(now - 13 * 3_600_000) })).toEqual([
      ['endTime', 'soaApp.statistics.errors.stretchTooLong'],
    ]);
    expect(await keys(w.reader.token, { startTime: 'yesterday' })).toEqual([
      ['startTime', 'soaApp.statistics.errors.instantInvalid'],
    ]);
    expect(await keys(w.reader.token, { clientId: 'stretch 1' })).toEqual([
      ['clientId', 'entity.validation.invalid_format'],
    ]);
    expect((await report(w.reader.token, base)).status).toBe(204);
    // the same clientId on another step is another stretch: refused
    const otherDoc = await documentAtSpan(w);
    expect(await keys(w.reader.token, { stepId: otherDoc.step })).toEqual([
      ['clientId', 'soaApp.statistics.errors.stretchMismatch'],
    ]);
    // the same clientId of another user is that user's own stretch
    expect((await report(w.annotator.token, base)).status).toBe(204);
    expect((await report(other.reader.token, base)).status).toBe(403);
    expect((await report(other.admin.token, base)).status).toBe(403);
    expect((await report(w.reader.token, { ...base, stepId: MISSING_ID })).status).toBe(403);
    expect((await report(s.admin, { ...base, stepId: MISSING_ID })).status).toBe(404);
  });

  it('counts the tags people make per user, node and day, and stops counting deleted ones', async () => {
    const w = await world();
    const doc = await documentAtSpan(w);
    const assign = await s.send(
      'POST',
      `/api/step/assign?docId=${doc.id}&nodeId=${w.span}`,
      w.annotator.token,
    );
    expect(assign.status).toBe(200);
    const tag = async (nerTagTypeId: number, start: number, end: number) => {
      const res = await s.send('POST', '/api/ner-tags', w.annotator.token, {
        documentId: doc.id,
        nerTagTypeId,
        startOffset: start,
        endOffset: end,
      });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const ala = await tag(w.person, 0, 3);
    const krakow = await tag(w.place, 14, 22);
    const kota = await tag(w.person, 7, 11);
    // a tag no person made (a lexicon's, a model's) is not anyone's usage
    await s.knex('ner_tags').insert({
      document_id: doc.id,
      step_id: doc.step,
      ner_tag_type_id: w.person,
      type: 'SPAN_TAG',
      start_offset: 4,
      end_offset: 6,
      origin: 'LEXICON',
    });
    const range = { dateFrom: zoneDate(Date.now() - DAY, 'UTC'), dateTo: zoneDate(Date.now() + DAY, 'UTC') };
    const usage = async () => {
      const res = await ask<TagUsageAnswer>(w.admin.token, query(w, { type: 'TAG_USAGE', ...range }));
      expect(res.status).toBe(200);
      return res.body;
    };
    const counted = (a: TagUsageAnswer) =>
      a.rows.reduce((sum, r) => {
        expect([r.userId, r.nodeId]).toEqual([w.annotator.id, w.span]);
        return sum + r.tagsCount;
      }, 0);
    const first = await usage();
    expect(counted(first)).toBe(3);
    expect(first.users.map((u) => u.id)).toEqual([w.annotator.id]);
    expect((await s.send('DELETE', `/api/ner-tags/${kota}`, w.annotator.token)).status).toBe(204);
    expect(counted(await usage())).toBe(2);
    // another user filter, another node: none
    expect(
      (
        await ask<TagUsageAnswer>(
          w.admin.token,
          query(w, { type: 'TAG_USAGE', ...range, userIds: [w.reader.id] }),
        )
      ).body.rows,
    ).toEqual([]);
    expect(
      (await ask<TagUsageAnswer>(w.admin.token, query(w, { type: 'TAG_USAGE', ...range, nodeIds: [w.hup] })))
        .body.rows,
    ).toEqual([]);
    // deleting a label takes its tags and their counts with it
    await s.knex('ner_tags').where({ id: krakow }).delete();
    await s.knex('ner_tags').insert({
      document_id: doc.id,
      step_id: doc.step,
      ner_tag_type_id: w.place,
      type: 'SPAN_TAG',
      start_offset: 14,
      end_offset: 22,
      created_by_id: w.annotator.id,
    });
    expect(counted(await usage())).toBe(2);
    await s.knex('ner_tag_types').where({ id: w.place }).delete();
    expect(counted(await usage())).toBe(1);
    expect(await s.knex('ner_tags').where({ id: ala }).first('id')).toBeDefined();
    // classifier tags are tags of their node too
    const clf = await w.g.node('CLF');
    const urgent = await w.g.classifierType(clf);
    await s.knex('classifier_tags').insert({
      document_id: doc.id,
      node_id: clf,
      classifier_type_id: urgent,
      created_by_id: w.annotator.id,
    });
    const classes = await ask<TagUsageAnswer>(
      w.admin.token,
      query(w, { type: 'TAG_USAGE', ...range, nodeIds: [clf] }),
    );
    expect(classes.body.rows.map((r) => [r.nodeId, r.userId, r.tagsCount])).toEqual([
      [clf, w.annotator.id, 1],
    ]);
  });

  it('gives the same days as the 15-minute buckets in zones whose midnight is not UTC midnight, DST days included', async () => {
    // the day rollups hold UTC days: a zone's day is corrected by the buckets between the two midnights
    const w = await world();
    const doc = await documentAtSpan(w);
    const instants = [
      // Warsaw's midnight in winter (23:00 UTC) and summer (22:00 UTC), either side
      '2026-02-10T22:59:00Z',
      '2026-02-10T23:00:00Z',
      '2026-02-10T23:14:00Z',
      '2026-02-11T00:05:00Z',
      '2026-06-15T21:55:00Z',
      '2026-06-15T22:00:00Z',
      // Kolkata's midnight (18:30 UTC)
      '2026-02-10T18:29:00Z',
      '2026-02-10T18:30:00Z',
      '2026-02-10T18:44:00Z',
      // Warsaw's DST days (29 March: 23 hours; 25 October: 25 hours) and New York's (8 March)
      '2026-03-28T22:59:00Z',
      '2026-03-28T23:00:00Z',
      '2026-03-29T00:59:00Z',
      '2026-03-29T01:00:00Z',
      '2026-03-29T21:59:00Z',
      '2026-03-29T22:00:00Z',
      '2026-10-24T21:59:00Z',
      '2026-10-24T22:00:00Z',
      '2026-10-25T00:30:00Z',
      '2026-10-25T01:30:00Z',
      '2026-10-25T22:59:00Z',
      '2026-10-25T23:00:00Z',
      '2026-03-08T04:59:00Z',
      '2026-03-08T05:00:00Z',
      '2026-03-09T03:59:00Z',
      '2026-03-09T04:00:00Z',
    ].map((t) => Date.parse(t));
    // a tag of a person (the annotator, every third the reader: some users have tags only near a midnight)
    // and one of no person at each instant, a finish of the span node at each
    const author = (i: number) => (i % 3 === 2 ? w.reader.id : w.annotator.id);
    await s.knex('ner_tags').insert(
      instants.flatMap((t, i) =>
        [author(i), null].map((user) => ({
          document_id: doc.id,
          step_id: doc.step,
          ner_tag_type_id: w.person,
          type: 'SPAN_TAG',
          start_offset: i,
          end_offset: i + 1,
          origin: user ? 'USER' : 'LEXICON',
          created_by_id: user,
          created_date: new Date(t),
        })),
      ),
    );
    await s.knex('stat_step_finishes').insert(
      instants.map((t) => ({
        node_id: w.span,
        document_id: doc.id,
        step_id: doc.step,
        finished_at: new Date(t),
      })),
    );
    // work stretches of 50 minutes starting 20 minutes before each instant (across the midnights)
    const stretches = instants.map((t) => [t - 20 * 60_000, t + 30 * 60_000]);
    await s.knex('work_times').insert(
      stretches.map(([start, end]) => ({
        client_id: crypto.randomUUID(),
        user_id: w.reader.id,
        process_id: w.g.processId,
        node_id: w.span,
        step_id: doc.step,
        document_id: doc.id,
        start_time: new Date(start),
        end_time: new Date(end),
      })),
    );

    const count = (dates: string[]) => {
      const m = new Map<string, number>();
      for (const d of dates) m.set(d, (m.get(d) ?? 0) + 1);
      return m;
    };
    for (const zoneId of ['UTC', 'Europe/Warsaw', 'Asia/Kolkata', 'America/New_York', 'Asia/Kathmandu']) {
      const dates = instants.map((t) => zoneDate(t, zoneId));
      const ranges = [
        // a year that leaves out today (the upload step of the document finished today)
        ['2025-11-02', '2026-11-01'],
        ['2026-02-11', '2026-02-11'],
        ['2026-03-29', '2026-03-29'],
        ['2026-03-08', '2026-03-09'],
        ['2026-10-25', '2026-10-26'],
      ];
      for (const [dateFrom, dateTo] of ranges) {
        const inRange = (d: string) => d >= dateFrom && d <= dateTo;
        const q = query(w, { zoneId, dateFrom, dateTo });
        const days = [...count(dates.filter(inRange))].sort(([a], [b]) => a.localeCompare(b));

        const byUser = [
          ...count(instants.flatMap((t, i) => (inRange(dates[i]) ? [`${dates[i]} ${author(i)}`] : []))),
        ]
          .map(([key, n]) => {
            const [time, user] = key.split(' ');
            return { time, nodeId: w.span, userId: Number(user), tagsCount: n };
          })
          .sort((a, b) => a.time.localeCompare(b.time) || a.userId - b.userId);
        const tags = await ask<TagUsageAnswer>(w.admin.token, { ...q, type: 'TAG_USAGE' });
        expect([zoneId, dateFrom, tags.body.rows]).toEqual([zoneId, dateFrom, byUser]);

        const activity = await ask<NodeActivityAnswer>(w.admin.token, { ...q, type: 'NODE_ACTIVITY' });
        const cellRow = (date: string, n: number, listed: boolean) => ({
          date,
          nodeIdDocIdsMap: listed ? { [w.span]: [doc.id] } : {},
          nodeIdDocCountMap: { [w.span]: n },
          tagsPerDocAndNodeCompositeMap: listed ? { [`${w.span}-${doc.id}`]: instants.length * 2 } : {},
          nodeIdTagCountMap: { [w.span]: n * 2 },
        });
        expect([zoneId, dateFrom, activity.body.rows]).toEqual([
          zoneId,
          dateFrom,
          days.map(([date, n]) => cellRow(date, n, false)),
        ]);
        // the documents of a cell: that day and node only, with the document's tags on the node
        for (const [date, n] of new Map([days[0], days[days.length - 1]].filter(Boolean))) {
          const documentsOf = { nodeId: w.span, date };
          const one = await ask<NodeActivityAnswer>(w.admin.token, {
            ...q,
            type: 'NODE_ACTIVITY',
            documentsOf,
          });
          expect([zoneId, date, one.body.rows]).toEqual([zoneId, date, [cellRow(date, n, true)]]);
        }

        const seconds = new Map<string, number>();
        for (const [start, end] of stretches)
          for (const d of splitByDay(start, end, zoneId))
            if (inRange(d.date)) seconds.set(d.date, (seconds.get(d.date) ?? 0) + d.seconds);
        const work = await ask<WorkTimerAnswer>(w.admin.token, { ...q, type: 'WORK_TIMER' });
        expect([zoneId, dateFrom, work.body.days]).toEqual([
          zoneId,
          dateFrom,
          [...seconds]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([date, n]) => ({ date, userId: w.reader.id, nodeId: w.span, seconds: n })),
        ]);
      }
    }
    // the day rollups hold exactly the buckets' sums per UTC day
    for (const [days, buckets, value] of [
      ['stat_tag_days', 'stat_tag_buckets', 'tags'],
      ['stat_node_days', 'stat_node_buckets', 'documents'],
      ['stat_work_days', 'stat_work_buckets', 'seconds'],
    ]) {
      const { rows } = await s.knex.raw(
        `select count(*)::int as n from (
           select node_id, (bucket at time zone 'UTC')::date as day, sum(${value}) as v from ${buckets}
            where node_id = ? group by 1, 2) b
         full join (select node_id, day, sum(${value}) as v from ${days} where node_id = ? group by 1, 2) d
           using (node_id, day)
         where b.v is distinct from d.v`,
        [w.span, w.span],
      );
      expect([days, rows[0].n]).toEqual([days, 0]);
      // and the running sums of each day's quarters (migration 027) are those of its buckets
      const keys = days === 'stat_node_days' ? 'node_id, day' : 'node_id, day, user_id';
      const { rows: sums } = await s.knex.raw(
        `select count(*)::int as n, count(*) filter (where d.cum is distinct from b.cum)::int as differ from (
           select ${keys}, stat_cum(array_agg(q), array_agg(v)) as cum from (
             select node_id, (bucket at time zone 'UTC')::date as day,
                    ${days === 'stat_node_days' ? '' : 'user_id,'}
                    ((extract(epoch from bucket)::bigint % 86400) / 900)::int as q, ${value}::float8 as v
               from ${buckets} where node_id = ?) x group by ${keys}) b
         full join (select * from ${days} where node_id = ?) d using (${keys})`,
        [w.span, w.span],
      );
      expect([days, sums[0].differ, sums[0].n > 0]).toEqual([days, 0, true]);
    }
  });

  it('counts the documents whose steps finished per node and day, with their tags; deleting a document uncounts them', async () => {
    const w = await world();
    const doc = await documentAtSpan(w);
    const idle = await documentAtSpan(w);
    expect(
      (await s.send('POST', `/api/step/assign?docId=${doc.id}&nodeId=${w.span}`, w.annotator.token)).status,
    ).toBe(200);
    for (const [start, end] of [
      [0, 3],
      [14, 22],
    ])
      expect(
        (
          await s.send('POST', '/api/ner-tags', w.annotator.token, {
            documentId: doc.id,
            nerTagTypeId: w.person,
            startOffset: start,
            endOffset: end,
          })
        ).status,
      ).toBe(201);
    expect((await s.send('PUT', `/api/steps/${doc.step}/complete`, w.annotator.token)).status).toBe(200);
    await stepReaching(s.knex, doc.id, w.span, ['DONE']);

    const today = zoneDate(Date.now(), 'Europe/Warsaw');
    const range = {
      type: 'NODE_ACTIVITY' as const,
      zoneId: 'Europe/Warsaw',
      dateFrom: zoneDate(Date.now() - DAY, 'Europe/Warsaw'),
      dateTo: zoneDate(Date.now() + DAY, 'Europe/Warsaw'),
    };
    const activity = async (over: Partial<StatisticsQuery> = {}) => {
      const res = await ask<NodeActivityAnswer>(w.admin.token, query(w, { ...range, ...over }));
      expect(res.status).toBe(200);
      return res.body.rows;
    };
    const rows = await activity();
    const sum = (pick: (r: (typeof rows)[number]) => number | undefined) =>
      rows.reduce((n, r) => n + (pick(r) ?? 0), 0);
    // the span step of `doc` finished; both documents passed the upload node (its step is ACCEPTED)
    expect(sum((r) => r.nodeIdDocCountMap[w.span])).toBe(1);
    expect(sum((r) => r.nodeIdDocCountMap[w.hup])).toBe(2);
    expect(sum((r) => r.nodeIdTagCountMap[w.span])).toBe(2);
    expect(rows.some((r) => r.date === today)).toBe(true);
    // no document ids without a cell; the cells' documents, newest finish first, with their tags on the node
    expect(rows.every((r) => !Object.keys(r.nodeIdDocIdsMap).length)).toBe(true);
    const documentsOf = async (nodeId: number, over: Partial<StatisticsQuery> = {}) => {
      const listed = [];
      for (const r of rows.filter((r) => r.nodeIdDocCountMap[nodeId]))
        listed.push(...(await activity({ ...over, documentsOf: { nodeId, date: r.date } })));
      expect(listed.every((r) => Object.keys(r.nodeIdDocCountMap).join() === String(nodeId))).toBe(true);
      return listed;
    };
    const spanCells = await documentsOf(w.span);
    expect(spanCells.flatMap((r) => r.nodeIdDocIdsMap[w.span] ?? [])).toEqual([doc.id]);
    expect(spanCells.map((r) => r.tagsPerDocAndNodeCompositeMap[`${w.span}-${doc.id}`])).toEqual([2]);
    const hupCells = await documentsOf(w.hup);
    expect(hupCells.flatMap((r) => r.nodeIdDocIdsMap[w.hup] ?? []).sort()).toEqual([doc.id, idle.id].sort());
    // only the nodes asked for
    const onlySpan = await activity({ nodeIds: [w.span] });
    expect(onlySpan.every((r) => !(String(w.hup) in r.nodeIdDocCountMap))).toBe(true);
    expect(onlySpan.reduce((n, r) => n + (r.nodeIdDocCountMap[w.span] ?? 0), 0)).toBe(1);
    expect(
      (await documentsOf(w.span, { nodeIds: [w.span] })).flatMap((r) => r.nodeIdDocIdsMap[w.span]),
    ).toEqual([doc.id]);

    const deleted = await s.send('DELETE', '/api/documents', w.admin.token, {
      processId: w.g.processId,
      documentIds: [doc.id],
    });
    expect(deleted.status).toBe(200);
    const after = await activity();
    expect(after.reduce((n, r) => n + (r.nodeIdDocCountMap[w.span] ?? 0), 0)).toBe(0);
    expect((await documentsOf(w.hup)).flatMap((r) => r.nodeIdDocIdsMap[w.hup] ?? [])).toEqual([idle.id]);
    expect(after.reduce((n, r) => n + (r.nodeIdTagCountMap[w.span] ?? 0), 0)).toBe(0);
    expect(await s.knex('stat_document_node_tags').where({ document_id: doc.id })).toEqual([]);
  });
});
