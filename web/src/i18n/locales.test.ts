/**
 * The translation files: English and Polish hold exactly the same keys (per file and merged), every key the
 * code, the domain rules and the API contract use exists, and the files merge without a key clash.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deepMerge, flattenKeys, type Messages } from './merge';

const I18N_DIR = __dirname;
const WEB_SRC = path.resolve(__dirname, '..');
const ROOT = path.resolve(__dirname, '..', '..', '..');
const LOCALES = ['en', 'pl'];

const readJson = (file: string): Messages => JSON.parse(fs.readFileSync(file, 'utf8')) as Messages;
const filesOf = (locale: string) =>
  fs
    .readdirSync(path.join(I18N_DIR, locale))
    .filter((f) => f.endsWith('.json'))
    .sort();
const merged = (locale: string): Messages =>
  filesOf(locale).reduce<Messages>((acc, f) => deepMerge(acc, readJson(path.join(I18N_DIR, locale, f))), {});

function leafValues(messages: Messages, prefix = ''): [string, string][] {
  return Object.entries(messages).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : leafValues(v, `${prefix}${k}.`),
  );
}

function sourceFiles(dir: string, exts: string[]): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full, exts);
    return exts.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const matchesOf = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => m[1]);

describe('translation files', () => {
  const en = merged('en');
  const enKeys = new Set(flattenKeys(en));

  it('has the same feature files in every locale', () => {
    for (const locale of LOCALES) expect(filesOf(locale)).toEqual(filesOf('en'));
  });

  it('has exactly the same keys in English and Polish, file by file and merged', () => {
    for (const file of filesOf('en')) {
      const enFile = flattenKeys(readJson(path.join(I18N_DIR, 'en', file))).sort();
      const plFile = flattenKeys(readJson(path.join(I18N_DIR, 'pl', file))).sort();
      expect({ file, keys: plFile }).toEqual({ file, keys: enFile });
    }
    expect(flattenKeys(merged('pl')).sort()).toEqual([...enKeys].sort());
  });

  it('merges the feature files without a key being both a text and a group', () => {
    for (const locale of LOCALES) {
      const total = filesOf(locale).reduce(
        (n, f) => n + flattenKeys(readJson(path.join(I18N_DIR, locale, f))).length,
        0,
      );
      expect(flattenKeys(merged(locale))).toHaveLength(total);
    }
  });

  it('has no empty texts and the same {{placeholders}} in both locales', () => {
    const pl = new Map(leafValues(merged('pl')));
    const vars = (s: string) => matchesOf(s, /\{\{\s*(\w+)\s*\}\}/g).sort();
    const tags = (s: string) => matchesOf(s, /<(\w+)>/g).sort();
    for (const [key, text] of leafValues(en)) {
      expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
      const other = pl.get(key) ?? '';
      expect({ key, empty: other.trim() === '' }).toEqual({ key, empty: false });
      expect({ key, vars: vars(other), tags: tags(other) }).toEqual({
        key,
        vars: vars(text),
        tags: tags(text),
      });
    }
  });

  it('holds every message key the domain validation rules return', () => {
    const source = fs.readFileSync(path.join(ROOT, 'domain', 'validation.ts'), 'utf8');
    const keys = [...matchesOf(source, /key: '([^']+)'/g), ...matchesOf(source, /\(key = '([^']+)'\)/g)];
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((k) => !enKeys.has(k))).toEqual([]);
  });

  it('holds every message key of the tag rules (domain/tags.ts TAG_MESSAGES)', () => {
    const source = fs.readFileSync(path.join(ROOT, 'domain', 'tags.ts'), 'utf8');
    const block = source.slice(source.indexOf('export const TAG_MESSAGES'));
    const keys = matchesOf(block.slice(0, block.indexOf('} as const')), /'([a-zA-Z.]+)':/g);
    expect(keys.length).toBeGreaterThan(5);
    expect(keys.filter((k) => !enKeys.has(k))).toEqual([]);
  });

  it('holds the upload refusal reasons and file kinds, and the document edit rules (domain)', () => {
    const upload = fs.readFileSync(path.join(ROOT, 'domain', 'upload-check.ts'), 'utf8');
    const reasons = matchesOf(upload, /'(error\.upload\.reason\.\w+)'/g);
    expect(reasons.length).toBeGreaterThan(8);
    const kinds = matchesOf(
      upload.slice(upload.indexOf('FILE_KINDS = ['), upload.indexOf('] as const')),
      /'(\w+)'/g,
    );
    expect(kinds.length).toBe(15);
    const found = [...kinds, 'zip', 'riff', 'binary', 'unknown'];
    const edit = fs.readFileSync(path.join(ROOT, 'domain', 'document-edit.ts'), 'utf8');
    const editKeys = matchesOf(edit, /key: '([^']+)'/g);
    expect(editKeys.length).toBeGreaterThan(3);
    const keys = [
      ...reasons,
      ...kinds.map((k) => `error.upload.kind.${k}`),
      ...found.map((k) => `error.upload.found.${k}`),
      ...editKeys,
    ];
    expect(keys.filter((k) => !enKeys.has(k))).toEqual([]);
  });

  it('holds the keys of the API contract and the error catalogue', () => {
    const keys = [
      'error.validation',
      'error.http.401',
      'error.http.403',
      'error.http.422',
      'error.http.423',
      'error.http.429',
      'error.url.not.found',
      'error.server.not.reachable',
      'error.invalidpassword',
      'error.userexists',
      'error.emailexists',
      'error.activationKeyInvalid',
      'error.emailnotfound',
      'error.resetKeyInvalid',
      'error.graph.noCohesive',
      'soaApp.processTag.createEditModal.body.error.nameNotUnique',
      'global.messages.error.dontmatch',
      'entity.validation.required',
      'password.messages.success',
      'password.messages.error',
      'settings.messages.success',
    ];
    expect(keys.filter((k) => !enKeys.has(k))).toEqual([]);
  });

  it('holds every key the API sends in X-soaApp-alert and X-soaApp-error headers', () => {
    const api = sourceFiles(path.join(ROOT, 'api'), ['.ts']).map((f) => fs.readFileSync(f, 'utf8'));
    const keys = api.flatMap((s) => [
      ...matchesOf(s, /setAlert\(\s*ctx,\s*'([^']+)'/g),
      ...matchesOf(s, /appError\(\s*'([^']+)'/g),
    ]);
    expect(keys.filter((k) => !enKeys.has(k))).toEqual([]);
  });

  it('holds every literal key the web code translates', () => {
    const code = sourceFiles(WEB_SRC, ['.ts', '.tsx']).map((f) => fs.readFileSync(f, 'utf8'));
    const keys = new Set(
      code.flatMap((s) => [...matchesOf(s, /\bt\(\s*'([^'$]+)'/g), ...matchesOf(s, /i18nKey="([^"]+)"/g)]),
    );
    expect(keys.size).toBeGreaterThan(50);
    expect([...keys].filter((k) => !enKeys.has(k))).toEqual([]);
  });
});
