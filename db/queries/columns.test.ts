import { except, nameOf, only, qualify, unprefix } from './columns';

const COLUMNS = ['id', 'process_id as processId', 'first_name as firstName', 'email'];

describe('column lists', () => {
  it('names a column by its alias, else by itself', () => {
    expect(nameOf('process_id as processId')).toBe('processId');
    expect(nameOf('email')).toBe('email');
  });

  it('picks and drops columns by their result names, keeping the list order', () => {
    expect(only(COLUMNS, 'email', 'id')).toEqual(['id', 'email']);
    expect(except(COLUMNS, 'id', 'firstName')).toEqual(['process_id as processId', 'email']);
  });

  it('qualifies columns with a table alias, keeping their result names', () => {
    expect(qualify('u', COLUMNS)).toEqual([
      'u.id',
      'u.process_id as processId',
      'u.first_name as firstName',
      'u.email',
    ]);
  });

  it('prefixes the result names when asked, and takes them back out of a row', () => {
    const columns = qualify('u', COLUMNS, 'user');
    expect(columns).toEqual([
      'u.id as userId',
      'u.process_id as userProcessId',
      'u.first_name as userFirstName',
      'u.email as userEmail',
    ]);
    const row = { userId: 7, userProcessId: 3, userFirstName: 'Ada', userEmail: 'a@b.c', other: 1 };
    expect(unprefix(row, COLUMNS, 'user')).toEqual({ id: 7, processId: 3, firstName: 'Ada', email: 'a@b.c' });
  });

  it('takes unprefixed columns out of a row as they are', () => {
    expect(unprefix({ id: 1, processId: 2, firstName: null, email: 'x', more: true }, COLUMNS, '')).toEqual({
      id: 1,
      processId: 2,
      firstName: null,
      email: 'x',
    });
  });
});
