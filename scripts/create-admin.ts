/**
 * `npm run create-admin`: creates the first administrator of a database seeded with the `prod` profile (which
 * has no account), once: when an activated administrator exists it changes nothing and says who. The values come
 * from `--username`, `--password`, `--email`, else ADMIN_USERNAME, ADMIN_PASSWORD, ADMIN_EMAIL, else a prompt
 * on a terminal (the password not echoed). Exit codes: 0 created, 1 refused (an administrator exists, a rule is
 * broken), 2 usage (DATABASE_URL or a value missing without a terminal).
 */
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { createKnex } from '../db/connection';
import { createFirstAdmin, StartRefused } from '../server/first-admin';

async function ask(question: string, hidden = false): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (hidden) {
    // Echo nothing of what is typed after the question.
    const out = rl as unknown as { _writeToOutput: (s: string) => void };
    out._writeToOutput = (s: string) => {
      if (s.startsWith(question)) process.stdout.write(question);
    };
  }
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    rl.close();
    if (hidden) process.stdout.write('\n');
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { username: { type: 'string' }, password: { type: 'string' }, email: { type: 'string' } },
  });
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('create-admin: DATABASE_URL is not set');
    return 2;
  }
  const tty = Boolean(process.stdin.isTTY);
  let username = values.username ?? process.env.ADMIN_USERNAME;
  let password = values.password ?? process.env.ADMIN_PASSWORD;
  const email = values.email ?? (process.env.ADMIN_EMAIL || undefined);
  if (!username && tty) username = (await ask('Administrator user name: ')).trim();
  if (!password && tty) {
    password = await ask('Password: ', true);
    if ((await ask('Password again: ', true)) !== password) {
      console.error('create-admin: the two passwords differ');
      return 1;
    }
  }
  if (!username || !password) {
    console.error(
      'create-admin: give --username and --password (or ADMIN_USERNAME and ADMIN_PASSWORD), or run it on a terminal',
    );
    return 2;
  }
  const knex = createKnex(url, { min: 0, max: 1 });
  try {
    const r = await createFirstAdmin(knex, { username, password, email }, 'create-admin');
    if (!r.created) {
      console.error(
        `create-admin: an administrator exists already ("${r.existing}"): nothing created; add users from Administration > Users`,
      );
      return 1;
    }
    console.log(`create-admin: administrator "${username.toLowerCase()}" created`);
    return 0;
  } catch (err) {
    if (err instanceof StartRefused) {
      console.error(`create-admin: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await knex.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('create-admin failed:', err);
    process.exit(1);
  },
);
