/**
 * The workflows' domain rules have a version (domain/rules-version.ts): this fails when their code changed
 * (here, not beside it in domain/, because it reads files: domain/ is pure)
 * and the change was not announced, by a new version or by the current version's fingerprint updated.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { RULES_FINGERPRINTS, RULES_VERSION, knownRules } from '../domain/rules-version';

const ROOT = path.resolve(__dirname, '..');
const WORKFLOWS = path.join(ROOT, 'workflows');
const DOMAIN = path.join(ROOT, 'domain');

/** The relative imports of a module (type-only ones included: they cost nothing and change nothing). */
function importsOf(file: string): string[] {
  const src = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const out: string[] = [];
  for (const s of src.statements) {
    if ((ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) && s.moduleSpecifier) {
      if (ts.isImportDeclaration(s) && s.importClause?.isTypeOnly) continue;
      const spec = (s.moduleSpecifier as ts.StringLiteral).text;
      if (!spec.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), spec);
      const found = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f));
      if (found) out.push(found);
    }
  }
  return out;
}

/**
 * The domain modules the document workflow decides by: reached by imports from workflows/document.ts (through
 * its contracts), kept inside domain/.
 */
export function rulesModules(): string[] {
  const seen = new Set<string>();
  const queue = [path.join(WORKFLOWS, 'document.ts')];
  const domain = new Set<string>();
  while (queue.length) {
    const f = queue.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    // the version and its fingerprints are not rules (and would change the fingerprint they hold)
    if (f.startsWith(DOMAIN + path.sep) && f !== path.join(DOMAIN, 'rules-version.ts')) domain.add(f);
    for (const i of importsOf(f)) if (i.startsWith(DOMAIN + path.sep) || i.startsWith(WORKFLOWS + path.sep)) queue.push(i);
  }
  return [...domain].sort();
}

/** sha256 over the modules' JavaScript (types and comments gone, printed the compiler's way). */
export function rulesFingerprint(files: readonly string[]): string {
  const hash = crypto.createHash('sha256');
  for (const f of files) {
    const js = ts.transpileModule(fs.readFileSync(f, 'utf8'), {
      compilerOptions: { removeComments: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    hash.update(path.relative(ROOT, f)).update('\0').update(js.replace(/\s+/g, ' ')).update('\0');
  }
  return hash.digest('hex');
}

describe('the rules version of the workflows', () => {
  it('covers the transition, the step rules and the predicates', () => {
    const names = rulesModules().map((f) => path.relative(ROOT, f));
    expect(names).toEqual(
      expect.arrayContaining(['domain/document-transition.ts', 'domain/steps.ts', 'domain/predicate-eval.ts']),
    );
    expect(names).not.toContain('domain/rules-version.ts');
    expect(names.every((n) => n.startsWith('domain/') && !n.endsWith('.test.ts'))).toBe(true);
  });

  it('is the version whose fingerprint the rules have now (a changed rule needs a new version)', () => {
    const now = rulesFingerprint(rulesModules());
    const announced = RULES_FINGERPRINTS[RULES_VERSION];
    if (now !== announced)
      throw new Error(
        `The workflows' domain rules changed (fingerprint ${now}, version ${RULES_VERSION} has ${announced}).\n` +
          'If the change can make a running document decide otherwise: keep the old rule beside the new one, ' +
          "raise RULES_VERSION with a patched('rules-<N>') choice in workflows/document.ts, record a history " +
          'and add the new fingerprint under the new version. If no decision changes, update the current ' +
          "version's fingerprint in domain/rules-version.ts and say so in the commit.",
      );
    // every version up to the current one has its fingerprint
    for (let v = 1; v <= RULES_VERSION; v++) expect(RULES_FINGERPRINTS[v]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes when a rule changes, not when a comment does', () => {
    const file = path.join(DOMAIN, 'document-transition.ts');
    // a copy outside the tree: the test never writes into domain/
    const tmp = path.join(os.tmpdir(), `rules-probe-${process.pid}.ts`);
    const src = fs.readFileSync(file, 'utf8');
    try {
      fs.writeFileSync(tmp, src);
      const base = rulesFingerprint([tmp]);
      fs.writeFileSync(tmp, `// a new comment\n${src.replace('/**', '/** more words,')}`);
      expect(rulesFingerprint([tmp])).toBe(base);
      fs.writeFileSync(tmp, src.replace("holds ? 'WAITING' : 'ACCEPTED'", "holds ? 'ACCEPTED' : 'WAITING'"));
      expect(src).toContain("holds ? 'WAITING' : 'ACCEPTED'");
      expect(rulesFingerprint([tmp])).not.toBe(base);
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  });

  it('refuses a version newer than the code', () => {
    expect(knownRules(undefined)).toBe(1);
    expect(knownRules(RULES_VERSION)).toBe(RULES_VERSION);
    expect(() => knownRules(RULES_VERSION + 1)).toThrow(/newer than this worker/);
    expect(() => knownRules(0)).toThrow();
  });
});
