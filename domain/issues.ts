/**
 * Issues (comment threads) on a document (spec 2 sections 2 to 7, issue 12 section 2): the payload types of
 * `api/document/{id}/issues` and `api/issues` (docs/api-issues.md), the rules the API and the workspace's
 * issues panel share, and their message keys.
 *
 * Decisions where the spec is silent:
 * - The title is computed by the API from the anchor, never taken from the client: the selected words
 *   joined by spaces (TOKEN), the selected text (TEXT), the tag labels joined by ' - ' (TAG: one or two tags;
 *   RELATION: from and to tag). A tag's label is the text it covers (its words for a token tag), which is
 *   what the annotator sees.
 * - A status change adds an automatic reply whose text is `statusChangeText(from, to)` (English, for API
 *   readers); the workspace recognises it with `parseStatusChange` and shows it translated.
 * - "Writers" and "process write access" (spec 2 section 6) are WRITE on the document's process: raising an
 *   issue, commenting and changing the status; editing or deleting a reply (and the issue's description)
 *   needs ADMIN on the process.
 * - Visibility: a user sees the steps of the nodes they hold a mode on (READ or more on the process gives
 *   every node). An issue on a tag (TAG, RELATION) whose step's node the user holds no mode on is hidden,
 *   unless the user is ADMIN on the process.
 */
import type { Violation } from './validation';

export const IssueTypes = ['RELATION', 'TAG', 'TOKEN', 'TEXT'] as const;
export type IssueType = (typeof IssueTypes)[number];

export const IssueStatuses = ['ACTIVE', 'RESOLVED'] as const;
export type IssueStatus = (typeof IssueStatuses)[number];

/** Longest issue description or reply. */
export const ISSUE_TEXT_MAX = 10_000;
/** Most tokens one TOKEN issue names. */
export const ISSUE_TOKENS_MAX = 1_000;
/** Spec 2 section 9: the issue text filter applies from 2 characters. */
export const ISSUE_FILTER_MIN = 2;

export interface IssueTagDTO {
  id: number;
  /** the text the tag covers (its label in the title) */
  label: string;
  startOffset: number | null;
  endOffset: number | null;
  nerTagTypeId: number;
  nerTagTypeName: string;
}

export interface IssueRelationDTO {
  fromId: number;
  toId: number;
  relationTypeId: number;
  relationTypeName: string;
}

export interface IssueReplyDTO {
  id: number;
  text: string;
  userId: number | null;
  /** the author's name, or login, for display */
  userName: string | null;
  automatic: boolean;
  /** ISO timestamp, set by the server */
  timestamp: string;
  lastModified: string | null;
}

export interface IssueDTO {
  id: number;
  docId: number;
  stepId: number | null;
  type: IssueType;
  status: IssueStatus;
  title: string;
  text: string;
  userId: number | null;
  userName: string | null;
  timestamp: string;
  lastModified: string | null;
  /** TEXT */
  startOffset: number | null;
  endOffset: number | null;
  /** TOKEN: the tokens, in text order */
  tokens: { id: number; value: string }[];
  /** TAG: from (and to); RELATION: from and to */
  tags: IssueTagDTO[];
  /** RELATION */
  relation: IssueRelationDTO | null;
  replies: IssueReplyDTO[];
}

/** POST api/issues. */
export type IssueInput = { docId: number; text: string; stepId?: number | null } & (
  | { type: 'TEXT'; startOffset: number; endOffset: number }
  | { type: 'TOKEN'; tokens: { id: number }[] }
  | { type: 'TAG'; tags: { id: number }[] }
  | { type: 'RELATION'; relation: { fromId: number; toId: number; relationTypeId: number } }
);

/** PUT api/issues: the whole issue as the client holds it (only status, text and replies are read). */
export interface IssueUpdate {
  id: number;
  status: IssueStatus;
  text?: string;
  replies: { id?: number | null; text: string }[];
}

/**
 * Message keys of the issue rules and refusals, with their English text (the web's translation files hold
 * them in both languages). The API answers field errors with these keys.
 */
export const ISSUE_MESSAGES = {
  'soaApp.issue.textRequired': 'The description cannot be empty.',
  'soaApp.issue.replyRequired': 'The comment cannot be empty.',
  'soaApp.issue.tooLong': 'The text is too long.',
  'soaApp.issue.tagNotInDocument': 'The tag is not a tag of this document.',
  'soaApp.issue.tokenNotInDocument': 'The word is not a word of this document.',
  'soaApp.issue.sameTag': 'A relation needs two different tags.',
  'soaApp.issue.relationType': 'The relation type does not fit these tags.',
  'soaApp.issue.stepNotInDocument': 'The step is not a step of this document.',
  'soaApp.issue.adminOnly': 'Only a process administrator may edit or delete comments.',
  'soaApp.issue.replyNotFound': 'The comment does not exist.',
} as const;
export type IssueMessageKey = keyof typeof ISSUE_MESSAGES;

const violation = (code: Violation['code'], key: IssueMessageKey): Violation => ({ code, key });

/** An issue description or a comment: not blank, at most ISSUE_TEXT_MAX characters. */
export function issueTextRule(text: string, emptyKey: IssueMessageKey = 'soaApp.issue.textRequired') {
  if (text.trim() === '') return violation('NotBlank', emptyKey);
  if (text.length > ISSUE_TEXT_MAX) return violation('Size', 'soaApp.issue.tooLong');
  return null;
}

/** The title of an issue from its anchor (see the module header). */
export function issueTitle(
  anchor:
    | { type: 'TEXT'; content: string; startOffset: number; endOffset: number }
    | { type: 'TOKEN'; words: readonly string[] }
    | { type: 'TAG' | 'RELATION'; labels: readonly string[] },
): string {
  switch (anchor.type) {
    case 'TEXT':
      return anchor.content.slice(anchor.startOffset, anchor.endOffset);
    case 'TOKEN':
      return anchor.words.join(' ');
    default:
      return anchor.labels.join(' - ');
  }
}

const STATUS_WORD: Record<IssueStatus, string> = { ACTIVE: 'Active', RESOLVED: 'Resolved' };

/** The automatic reply of a status change. */
export const statusChangeText = (from: IssueStatus, to: IssueStatus): string =>
  `Status changed from ${STATUS_WORD[from]} to ${STATUS_WORD[to]}`;

/** The statuses of an automatic reply written by statusChangeText, or null. */
export function parseStatusChange(text: string): { from: IssueStatus; to: IssueStatus } | null {
  const m = /^Status changed from (Active|Resolved) to (Active|Resolved)$/.exec(text);
  if (!m) return null;
  const back = (w: string) => (w === 'Active' ? 'ACTIVE' : 'RESOLVED') as IssueStatus;
  return { from: back(m[1]), to: back(m[2]) };
}

// --- the issues panel ---

export const IssueSorts = ['newest', 'oldest', 'title', 'comments', 'activity'] as const;
export type IssueSort = (typeof IssueSorts)[number];
export type IssueStatusFilter = 'ALL' | IssueStatus;

type Listed = Pick<IssueDTO, 'id' | 'title' | 'text' | 'status' | 'timestamp' | 'replies'>;

/** Spec 2 section 5: from 2 characters, case-insensitive on the title and the text. */
export function matchesIssueFilter(issue: Pick<IssueDTO, 'title' | 'text'>, query: string): boolean {
  const q = query.trim().toLocaleLowerCase();
  if (q.length < ISSUE_FILTER_MIN) return true;
  return issue.title.toLocaleLowerCase().includes(q) || issue.text.toLocaleLowerCase().includes(q);
}

const comments = (i: Listed) => i.replies.filter((r) => !r.automatic).length;
const lastActivity = (i: Listed) =>
  i.replies.reduce((last, r) => (r.timestamp > last ? r.timestamp : last), i.timestamp);

/** The issues the panel lists: filtered, sorted, and grouped by status (active first). */
export function groupIssues<T extends Listed>(
  issues: readonly T[],
  options: { query: string; status: IssueStatusFilter; sort: IssueSort },
): { status: IssueStatus; issues: T[] }[] {
  const byNewest = (a: T, b: T) => b.timestamp.localeCompare(a.timestamp) || b.id - a.id;
  const compare: Record<IssueSort, (a: T, b: T) => number> = {
    newest: byNewest,
    oldest: (a, b) => -byNewest(a, b),
    title: (a, b) => a.title.localeCompare(b.title) || byNewest(a, b),
    comments: (a, b) => comments(b) - comments(a) || byNewest(a, b),
    activity: (a, b) => lastActivity(b).localeCompare(lastActivity(a)) || byNewest(a, b),
  };
  const kept = issues
    .filter((i) => options.status === 'ALL' || i.status === options.status)
    .filter((i) => matchesIssueFilter(i, options.query))
    .sort(compare[options.sort]);
  return IssueStatuses.map((status) => ({ status, issues: kept.filter((i) => i.status === status) })).filter(
    (g) => g.issues.length > 0,
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Spec 2 section 9: a comment's date as HH:mm - DD.MM.YYYY (local time). */
export function formatCommentDate(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())} - ${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${d.getFullYear()}`;
}
