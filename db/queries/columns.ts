/**
 * How the query modules write column lists: once per table, unqualified, each a column or `column as name`
 * (snake_case in the database, camelCase in code): `'activity_type as activityType'`. A query that joins
 * qualifies a list with its table alias (`qualify('n', NODE_REF_COLUMNS)`), and may prefix the names when two
 * tables of a join share them (`qualify('u', USER_REF_COLUMNS, 'user')` gives `u.first_name as userFirstName`);
 * `unprefix(row, 'user')` takes such a group back out of a row.
 */

/** The name a column has in a result row. */
export const nameOf = (column: string): string => column.split(' as ')[1] ?? column;

/** The columns of `columns` whose result names are listed, in the order of `columns`. */
export function only<N extends string>(columns: readonly string[], ...names: N[]): string[] {
  return columns.filter((c) => (names as string[]).includes(nameOf(c)));
}

/** The columns of `columns` but those whose result names are listed. */
export function except(columns: readonly string[], ...names: string[]): string[] {
  return columns.filter((c) => !names.includes(nameOf(c)));
}

const prefixed = (prefix: string, name: string) =>
  prefix ? prefix + name[0].toUpperCase() + name.slice(1) : name;

/** The columns qualified with a table alias, their result names prefixed when a prefix is given. */
export function qualify(alias: string, columns: readonly string[], prefix = ''): string[] {
  return columns.map((c) => {
    const [column, name = column] = c.split(' as ');
    const out = prefixed(prefix, name);
    return out === column ? `${alias}.${column}` : `${alias}.${column} as ${out}`;
  });
}

/** The fields of a row that `qualify(alias, columns, prefix)` selected, under their own names. */
export function unprefix<T>(row: Record<string, unknown>, columns: readonly string[], prefix: string): T {
  const out: Record<string, unknown> = {};
  for (const c of columns) {
    const name = nameOf(c);
    out[name] = row[prefixed(prefix, name)];
  }
  return out as T;
}
