import type { NodeActivityRow, TagUsageRow, WorkTimeDay } from '@domain/statistics-types';
import {
  activityCells,
  formatHoursMinutes,
  hourStep,
  stackedMax,
  nodeActivitySeries,
  statisticsQuery,
  statisticsUserName,
  tagSeries,
  tagTotals,
  toggleId,
  workTimeSeries,
  workTimeTotals,
} from './figures';

const range = { from: '2026-11-01', to: '2026-11-03' };
const selection = { range, zoneId: 'Europe/Warsaw', userIds: [7, 3, 7], nodeIds: [12, 4] };
const days = ['2026-11-01', '2026-11-02', '2026-11-03'];

describe('statistics figures', () => {
  it('sends each tab only its filters, ids sorted and unique', () => {
    const base = { processId: 5, dateFrom: '2026-11-01', dateTo: '2026-11-03', zoneId: 'Europe/Warsaw' };
    expect(statisticsQuery('WORK_TIMER', 5, selection)).toEqual({
      type: 'WORK_TIMER',
      ...base,
      userIds: [3, 7],
    });
    expect(statisticsQuery('TAG_USAGE', 5, selection)).toEqual({
      type: 'TAG_USAGE',
      ...base,
      userIds: [3, 7],
      nodeIds: [4, 12],
    });
    expect(statisticsQuery('NODE_ACTIVITY', 5, selection)).toEqual({
      type: 'NODE_ACTIVITY',
      ...base,
      nodeIds: [4, 12],
    });
  });

  it('leaves an empty filter out (all users, all nodes)', () => {
    const q = statisticsQuery('TAG_USAGE', 5, { ...selection, userIds: [], nodeIds: [] });
    expect(q).not.toHaveProperty('userIds');
    expect(q).not.toHaveProperty('nodeIds');
  });

  it('toggles an id in a filter', () => {
    expect(toggleId([1, 2], 3)).toEqual([1, 2, 3]);
    expect(toggleId([1, 2, 3], 2)).toEqual([1, 3]);
  });

  it('shows time as hours and minutes', () => {
    expect(formatHoursMinutes(0)).toBe('0:00');
    expect(formatHoursMinutes(29)).toBe('0:00');
    expect(formatHoursMinutes(30)).toBe('0:01');
    expect(formatHoursMinutes(9 * 60 + 10)).toBe('0:09');
    expect(formatHoursMinutes(3600 + 5 * 60)).toBe('1:05');
    expect(formatHoursMinutes(27 * 3600 + 59 * 60 + 40)).toBe('28:00');
  });

  it('steps an hours axis by whole minutes, at most 8 steps', () => {
    expect(hourStep(0.11) * 60).toBe(1);
    expect(hourStep(0.2) * 60).toBe(2);
    expect(hourStep(1) * 60).toBe(10);
    expect(hourStep(7.5)).toBe(1);
    expect(hourStep(30)).toBe(4);
    expect(hourStep(400)).toBe(72);
    expect(stackedMax([])).toBe(0);
    expect(
      stackedMax([
        { key: 1, label: 'a', data: [1, 3] },
        { key: 2, label: 'b', data: [2, 0.5] },
      ]),
    ).toBe(3.5);
  });

  it('names users by their name, else their login', () => {
    expect(statisticsUserName({ login: 'ann', firstName: 'Ann', lastName: 'Lee' })).toBe('Ann Lee');
    expect(statisticsUserName({ login: 'bob', firstName: null, lastName: ' ' })).toBe('bob');
  });

  it('stacks work time per user and day in hours, zeros on days without work', () => {
    const rows: WorkTimeDay[] = [
      { date: '2026-11-01', userId: 2, nodeId: 9, seconds: 1800 },
      { date: '2026-11-01', userId: 2, nodeId: 10, seconds: 1800 },
      { date: '2026-11-03', userId: 1, nodeId: 9, seconds: 7200 },
      { date: '2026-10-31', userId: 1, nodeId: 9, seconds: 60 }, // outside the range: not drawn
    ];
    const names: Record<number, string> = { 1: 'Zoe', 2: 'Adam' };
    expect(workTimeSeries(rows, days, (id) => names[id])).toEqual([
      { key: 2, label: 'Adam', data: [1, 0, 0] },
      { key: 1, label: 'Zoe', data: [0, 0, 2] },
    ]);
    expect(workTimeTotals(rows.slice(0, 3))).toEqual([
      { userId: 1, seconds: 7200 },
      { userId: 2, seconds: 3600 },
    ]);
  });

  it('counts tags per day by node or by user, and per node and user in the table', () => {
    const rows: TagUsageRow[] = [
      { nodeId: 9, userId: 1, tagsCount: 3, time: '2026-11-01' },
      { nodeId: 9, userId: 2, tagsCount: 2, time: '2026-11-02' },
      { nodeId: 10, userId: 1, tagsCount: 4, time: '2026-11-02' },
    ];
    const name = (id: number) => `#${id}`;
    expect(tagSeries(rows, days, 'node', name)).toEqual([
      { key: 10, label: '#10', data: [0, 4, 0] },
      { key: 9, label: '#9', data: [3, 2, 0] },
    ]);
    expect(tagSeries(rows, days, 'user', name)).toEqual([
      { key: 1, label: '#1', data: [3, 4, 0] },
      { key: 2, label: '#2', data: [0, 2, 0] },
    ]);
    expect(tagTotals([...rows, { nodeId: 9, userId: 1, tagsCount: 1, time: '2026-11-03' }])).toEqual([
      { nodeId: 9, userId: 1, tags: 4 },
      { nodeId: 10, userId: 1, tags: 4 },
      { nodeId: 9, userId: 2, tags: 2 },
    ]);
  });

  it('draws node activity from the full document counts and lists the cells newest day first', () => {
    const rows: NodeActivityRow[] = [
      {
        date: '2026-11-01',
        nodeIdDocIdsMap: { '9': [5, 8] },
        nodeIdDocCountMap: { '9': 2 },
        tagsPerDocAndNodeCompositeMap: { '9-5': 1, '9-8': 2 },
        nodeIdTagCountMap: { '9': 3 },
      },
      {
        date: '2026-11-03',
        nodeIdDocIdsMap: { '9': [11], '10': [] },
        nodeIdDocCountMap: { '9': 150, '10': 0 },
        tagsPerDocAndNodeCompositeMap: {},
        nodeIdTagCountMap: { '10': 4 },
      },
    ];
    const name = (id: number) => `n${id}`;
    expect(nodeActivitySeries(rows, days, 'documents', name)).toEqual([
      { key: 10, label: 'n10', data: [0, 0, 0] },
      { key: 9, label: 'n9', data: [2, 0, 150] },
    ]);
    expect(nodeActivitySeries(rows, days, 'tags', name)).toEqual([
      { key: 10, label: 'n10', data: [0, 0, 4] },
      { key: 9, label: 'n9', data: [3, 0, 0] },
    ]);
    expect(activityCells(rows)).toEqual([
      { date: '2026-11-03', nodeId: 9, documents: 150, tags: 0, documentIds: [11], documentTags: { 11: 0 } },
      { date: '2026-11-03', nodeId: 10, documents: 0, tags: 4, documentIds: [], documentTags: {} },
      {
        date: '2026-11-01',
        nodeId: 9,
        documents: 2,
        tags: 3,
        documentIds: [8, 5],
        documentTags: { 5: 1, 8: 2 },
      },
    ]);
  });
});
