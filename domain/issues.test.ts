import {
  formatCommentDate,
  groupIssues,
  issueTextRule,
  issueTitle,
  ISSUE_TEXT_MAX,
  matchesIssueFilter,
  parseStatusChange,
  statusChangeText,
  type IssueReplyDTO,
} from './issues';

const reply = (timestamp: string, automatic = false): IssueReplyDTO => ({
  id: 1,
  text: 'r',
  userId: 1,
  userName: null,
  automatic,
  timestamp,
  lastModified: null,
});

const issue = (
  id: number,
  title: string,
  over: Partial<{
    text: string;
    status: 'ACTIVE' | 'RESOLVED';
    timestamp: string;
    replies: IssueReplyDTO[];
  }> = {},
) => ({
  id,
  title,
  text: over.text ?? '',
  status: over.status ?? 'ACTIVE',
  timestamp: over.timestamp ?? `2026-01-0${id}T10:00:00.000Z`,
  replies: over.replies ?? [],
});

describe('issue rules', () => {
  it('computes the title from the anchor', () => {
    expect(issueTitle({ type: 'TEXT', content: 'Ala ma kota', startOffset: 4, endOffset: 11 })).toBe(
      'ma kota',
    );
    expect(issueTitle({ type: 'TOKEN', words: ['dzień', 'dobry'] })).toBe('dzień dobry');
    expect(issueTitle({ type: 'TAG', labels: ['Jan', 'Warszawa'] })).toBe('Jan - Warszawa');
    expect(issueTitle({ type: 'RELATION', labels: ['a', 'b'] })).toBe('a - b');
    expect(issueTitle({ type: 'TAG', labels: ['Jan'] })).toBe('Jan');
  });

  it('refuses blank and too long texts', () => {
    expect(issueTextRule(' \n\t')?.key).toBe('soaApp.issue.textRequired');
    expect(issueTextRule('', 'soaApp.issue.replyRequired')?.key).toBe('soaApp.issue.replyRequired');
    expect(issueTextRule('x'.repeat(ISSUE_TEXT_MAX + 1))?.key).toBe('soaApp.issue.tooLong');
    expect(issueTextRule('ok')).toBeNull();
  });

  it('writes and recognises the automatic reply of a status change', () => {
    const text = statusChangeText('ACTIVE', 'RESOLVED');
    expect(text).toBe('Status changed from Active to Resolved');
    expect(parseStatusChange(text)).toEqual({ from: 'ACTIVE', to: 'RESOLVED' });
    expect(parseStatusChange('Status changed from Active to Something')).toBeNull();
  });

  it('filters from 2 characters, case-insensitively on title and text', () => {
    const i = { title: 'Jan Kowalski', text: 'Zła Odmiana' };
    expect(matchesIssueFilter(i, 'x')).toBe(true);
    expect(matchesIssueFilter(i, 'ko')).toBe(true);
    expect(matchesIssueFilter(i, 'ODMIANA')).toBe(true);
    expect(matchesIssueFilter(i, 'zła o')).toBe(true);
    expect(matchesIssueFilter(i, 'xy')).toBe(false);
  });

  it('sorts, filters by status and groups active before resolved', () => {
    const list = [
      issue(1, 'b', { status: 'RESOLVED' }),
      issue(2, 'c', {
        replies: [reply('2026-01-09T00:00:00.000Z'), reply('2026-01-09T00:00:00.000Z', true)],
      }),
      issue(3, 'a', { replies: [reply('2026-01-04T00:00:00.000Z'), reply('2026-01-05T00:00:00.000Z')] }),
    ];
    const ids = (g: ReturnType<typeof groupIssues>) => g.map((x) => [x.status, x.issues.map((i) => i.id)]);
    expect(ids(groupIssues(list, { query: '', status: 'ALL', sort: 'newest' }))).toEqual([
      ['ACTIVE', [3, 2]],
      ['RESOLVED', [1]],
    ]);
    expect(ids(groupIssues(list, { query: '', status: 'ALL', sort: 'oldest' }))[0]).toEqual([
      'ACTIVE',
      [2, 3],
    ]);
    expect(ids(groupIssues(list, { query: '', status: 'ALL', sort: 'title' }))[0]).toEqual([
      'ACTIVE',
      [3, 2],
    ]);
    expect(ids(groupIssues(list, { query: '', status: 'ALL', sort: 'comments' }))[0]).toEqual([
      'ACTIVE',
      [3, 2],
    ]);
    expect(ids(groupIssues(list, { query: '', status: 'ALL', sort: 'activity' }))[0]).toEqual([
      'ACTIVE',
      [2, 3],
    ]);
    expect(ids(groupIssues(list, { query: '', status: 'RESOLVED', sort: 'newest' }))).toEqual([
      ['RESOLVED', [1]],
    ]);
    expect(groupIssues(list, { query: 'zz', status: 'ALL', sort: 'newest' })).toEqual([]);
  });

  it('formats a comment date as HH:mm - DD.MM.YYYY', () => {
    const d = new Date(2026, 0, 5, 9, 7);
    expect(formatCommentDate(d.toISOString())).toBe('09:07 - 05.01.2026');
  });
});
