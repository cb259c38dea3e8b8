/**
 * Payloads of `POST api/statistics` (issue 16 section 1; spec 3 sections 3, 5 and 8) as the API, the web
 * app and the tests see them. Field names follow spec 3 section 3 where it names them.
 */

export const STATISTICS_TYPES = ['WORK_TIMER', 'TAG_USAGE', 'NODE_ACTIVITY'] as const;
export type StatisticsType = (typeof STATISTICS_TYPES)[number];

/** Longest range of one query: at most 365 days after the start (spec 3 section 5). */
export const STATISTICS_MAX_DAYS = 365;

/** The request body. Days are calendar days in `zoneId` (the browser's IANA time zone), both inclusive. */
export interface StatisticsQuery {
  type: StatisticsType;
  processId: number;
  /** yyyy-MM-dd */
  dateFrom: string;
  /** yyyy-MM-dd, not before dateFrom, at most STATISTICS_MAX_DAYS after it */
  dateTo: string;
  /** IANA zone of the browser, e.g. Europe/Warsaw */
  zoneId: string;
  /** NODE_ACTIVITY and TAG_USAGE: only these nodes (of the process); absent or empty means all */
  nodeIds?: number[];
  /** WORK_TIMER and TAG_USAGE: only these users; absent or empty means all */
  userIds?: number[];
  /**
   * NODE_ACTIVITY only: the cell (a node on a day of the range) whose documents the answer lists. Without it
   * the answer has the counts of every cell and no document ids (listing the documents of every cell of a year
   * would cost an index walk per node and day: 1,095 for three nodes, 0.8-1.4 s at a million documents).
   */
  documentsOf?: NodeActivityCell | null;
}

/** A cell of the node activity table: a node of the process on a day (yyyy-MM-dd in zoneId). */
export interface NodeActivityCell {
  nodeId: number;
  date: string;
}

/** A user named in the answer (so the screen needs no user list of its own). */
export interface StatisticsUser {
  id: number;
  login: string;
  firstName: string | null;
  lastName: string | null;
}

/** One stretch of work of a user on a step, as recorded by the workspace (spec 3 section 3). */
export interface WorkTimeRow {
  userId: number;
  nodeId: number;
  stepId: number;
  documentId: number;
  /** ISO instants */
  startTime: string;
  endTime: string;
  /** seconds of work in the range (a stretch crossing the range's edge counts its part inside) */
  time: number;
}

/** Work per user, node and day; work spanning midnight is split in proportion across the days. */
export interface WorkTimeDay {
  /** yyyy-MM-dd in zoneId */
  date: string;
  userId: number;
  nodeId: number;
  seconds: number;
}

export interface WorkTimerAnswer {
  type: 'WORK_TIMER';
  users: StatisticsUser[];
  /** newest first, at most WORK_TIME_ROWS_LIMIT rows; `rowsTotal` says how many there are */
  rows: WorkTimeRow[];
  rowsTotal: number;
  days: WorkTimeDay[];
}

export const WORK_TIME_ROWS_LIMIT = 500;

/** Tags created per user and node on a day (spec: "Tag-in-time rows: nodeId, userId, tagsCount, time"). */
export interface TagUsageRow {
  nodeId: number;
  userId: number;
  tagsCount: number;
  /** yyyy-MM-dd in zoneId */
  time: string;
}

export interface TagUsageAnswer {
  type: 'TAG_USAGE';
  users: StatisticsUser[];
  rows: TagUsageRow[];
}

/**
 * Documents and tags per node on a day (spec: "Node activity rows: date, nodeIdDocIdsMap,
 * tagsPerDocAndNodeCompositeMap, nodeIdTagCountMap"). A document counts on a node on the days one of its
 * steps of that node finished; `nodeIdDocCountMap` has the counts. `nodeIdDocIdsMap` and
 * `tagsPerDocAndNodeCompositeMap` are filled only for the query's `documentsOf` cell (its one row then, with
 * that node only): the newest NODE_ACTIVITY_DOC_IDS_LIMIT documents finished there (by their latest finish),
 * each with its tags on the node. Without `documentsOf` they are empty objects.
 */
export interface NodeActivityRow {
  date: string;
  nodeIdDocIdsMap: Record<string, number[]>;
  nodeIdDocCountMap: Record<string, number>;
  /** key `${nodeId}-${documentId}` for the listed documents */
  tagsPerDocAndNodeCompositeMap: Record<string, number>;
  nodeIdTagCountMap: Record<string, number>;
}

/** The documents of a node activity cell are read from the documents list in pages of 5 (spec 3 section 7). */
export const STATISTICS_DOCUMENTS_PAGE_SIZE = 5;

export const NODE_ACTIVITY_DOC_IDS_LIMIT = 100;

export interface NodeActivityAnswer {
  type: 'NODE_ACTIVITY';
  rows: NodeActivityRow[];
}

export type StatisticsAnswer = WorkTimerAnswer | TagUsageAnswer | NodeActivityAnswer;

/**
 * `POST api/work-time` (the workspace's activity and idle timer): a stretch of active work of the signed-in
 * user on a step of a document. The workspace sends the stretch when it ends (idle, step change, leaving,
 * page hidden) and every 60 s while it lasts (same `clientId`, growing endTime: the server keeps one row
 * per clientId). READ on the step's node is enough: a reader reading counts as work.
 */
export interface WorkTimeReport {
  /** random id of the stretch made by the browser (uuid) */
  clientId: string;
  stepId: number;
  startTime: string;
  endTime: string;
}
