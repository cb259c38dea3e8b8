import fs from 'node:fs';
import path from 'node:path';
import { DatabaseError } from 'pg';
import { databaseErrorStatus } from './errors';

const pgError = (code: string, message = 'insert into "secrets" ("name") values ($1) - boom') => {
  const e = new DatabaseError(message, message.length, 'error');
  e.code = code;
  e.severity = 'ERROR';
  return e;
};

describe('database errors as HTTP answers', () => {
  it('maps data exceptions caused by input (NUL byte, out of range, too long) to 400 without the SQL', () => {
    for (const code of ['22021', '22003', '22001', '22P02', '23502', '23514', '54000']) {
      const e = databaseErrorStatus(pgError(code));
      expect(e?.status).toBe(400);
      expect(JSON.stringify(e?.body)).not.toMatch(/insert|secrets|boom/);
    }
  });

  it('maps unique and foreign-key violations to 409 and a cancelled statement to 503', () => {
    expect(databaseErrorStatus(pgError('23505'))?.status).toBe(409);
    expect(databaseErrorStatus(pgError('23503'))?.status).toBe(409);
    expect(databaseErrorStatus(pgError('57014'))?.status).toBe(503);
  });

  it('leaves other database errors (a bug in a query, a lost connection) to the 500 path', () => {
    expect(databaseErrorStatus(pgError('42P01'))).toBeNull();
    expect(databaseErrorStatus(pgError('08006'))).toBeNull();
    expect(databaseErrorStatus(new Error('not a database error'))).toBeNull();
  });
});

describe('HTTP error keys', () => {
  it('has English and Polish text for every error.http.<status> key the API and server code emit', () => {
    const root = path.join(__dirname, '..');
    const sources = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) return sources(full);
        return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
      });
    const emitted = new Set(
      [...sources(path.join(root, 'api')), ...sources(path.join(root, 'server'))].flatMap((f) =>
        [...fs.readFileSync(f, 'utf8').matchAll(/error\.http\.(\d{3})/g)].map((m) => m[1]),
      ),
    );
    expect(emitted.size).toBeGreaterThan(5);
    for (const locale of ['en', 'pl']) {
      // The app merges every feature file of the locale (api/routes/i18n.ts): a key may live in any of them.
      const dir = path.join(root, 'web', 'src', 'i18n', locale);
      const texts = new Set(
        fs.readdirSync(dir).flatMap((f) => {
          const http = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).error?.http ?? {};
          return Object.keys(http);
        }),
      );
      expect([locale, [...emitted].filter((status) => !texts.has(status))]).toEqual([locale, []]);
    }
  });
});
