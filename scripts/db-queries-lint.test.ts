/**
 * One way to the database (issue 28): ESLint (eslint.config.mjs NO_RAW_QUERIES) refuses a query built outside
 * db/ in the product's code, and lets db/queries/, tests and scripts build theirs. Run through the ESLint
 * command line (as `npm run lint` does) on code given on stdin with the path it would have.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const ESLINT = path.join(ROOT, 'node_modules', '.bin', 'eslint');

/** The messages of the rule for `code` as if it were the file `file`. */
function rawQueryMessages(file: string, code: string): string[] {
  const run = spawnSync(ESLINT, ['--format', 'json', '--stdin', '--stdin-filename', file], {
    cwd: ROOT,
    input: code,
    encoding: 'utf8',
  });
  if (run.error) throw run.error;
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const QUERIES = `
export async function f(knex: any, trx: any, deps: any) {
  await knex('documents').where('id', 1);
  await trx('steps').del();
  await deps.knex('nodes');
  await knex.raw('select 1');
  await deps.knex.raw('select 1');
  await trx.batchInsert('ner_tags', [], 10);
  await knex.schema.hasTable('steps');
}
`;

describe('no query built outside db/ (eslint)', () => {
  it.each(['api/routes/x.ts', 'api/services/x.ts', 'activities/actions/x.ts', 'server/x.ts'])(
    'refuses every raw query in %s',
    (file) => {
      expect(rawQueryMessages(file, QUERIES)).toHaveLength(7);
    },
  );

  it('lets a transaction be opened where the work is decided', () => {
    const code = 'export const f = (knex: any) => knex.transaction(async () => knex.fn.now());\n';
    expect(rawQueryMessages('activities/x.ts', code)).toEqual([]);
  });

  it.each(['db/queries/x.ts', 'scripts/x.ts', 'tests/integration/x.test.ts', 'activities/x.test.ts'])(
    'lets %s build its queries',
    (file) => {
      expect(rawQueryMessages(file, QUERIES)).toEqual([]);
    },
  );
});
