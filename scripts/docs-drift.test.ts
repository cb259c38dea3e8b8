/**
 * The documents checked against the code (issue 28): every repository path that README.md and docs/*.md
 * name exists, every relative link leads to a file (and its #anchor to a heading of it), every environment
 * variable they name is read by the code, and every other UPPER_SNAKE name they put in backticks (an enum
 * value, a constant) still occurs in the code. A file deleted or renamed, a variable no longer read, fails
 * here until the documents follow.
 *
 * What counts as a path: a run of path characters starting with a top-level folder of the repository
 * (`api/routes/x.ts`, `db/queries/`, `.ci/run`); under `api/` only with a file extension or a trailing slash,
 * because the documents also name the API's URLs (`api/file-upload`). A path followed by a placeholder
 * (`{id}`, `<scenario>`, `*`) is a pattern, not a file, and is skipped; so are generated places (`.data/`,
 * `dist/`). What counts as an environment variable: a name of the first column of the tables of
 * docs/configuration.md, a `NAME=value`, or a `$NAME`.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

/** Top-level folders whose paths the documents name (generated ones, .data and dist, are not checked). */
const FOLDERS = [
  '.ci',
  'activities',
  'api',
  'db',
  'deploy',
  'docs',
  'domain',
  'scripts',
  'server',
  'tests',
  'web',
  'workflows',
];

/**
 * Variables the documents name that our code does not read itself: read by the Temporal SDK and CLI from
 * the environment (their client configuration), or by the images of docker-compose.yml.
 */
const THIRD_PARTY_VARIABLES = [
  /^TEMPORAL_API_KEY$/,
  /^TEMPORAL_TLS\w*$/,
  /^TEMPORAL_CONFIG_FILE$/,
  /^TEMPORAL_PROFILE$/,
  /^POSTGRES_(PASSWORD|USER|DB)$/,
  /^NODE_EXTRA_CA_CERTS$/,
  /^AWS_\w+$/,
];

export function documents(root = ROOT): string[] {
  const docs = fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f));
  return ['README.md', ...docs.sort()];
}

/** The repository paths a document names (see the module header for what counts). */
export function namedPaths(text: string): string[] {
  const found = new Set<string>();
  const re = new RegExp(
    `(?<=^|[\\s(\`'"|])((?:${FOLDERS.map((f) => f.replace('.', '\\.')).join('|')})/[\\w./-]*)`,
    'gm',
  );
  for (const m of text.matchAll(re)) {
    let p = m[1];
    const next = text[m.index! + m[0].length] ?? '';
    if ('{<*$['.includes(next) && next !== '') continue;
    p = p.replace(/[.,;:]+$/, '');
    // `tests/artifacts/` is written by the e2e suites; `workflows/s` is a rate, not a path.
    if (p.startsWith('tests/artifacts') || /^[\w.]+\/\w$/.test(p)) continue;
    const hasExtension = /\.[a-z0-9]+$/i.test(path.basename(p));
    if (p.startsWith('api/') && !hasExtension && !p.endsWith('/')) continue;
    found.add(p);
  }
  return [...found];
}

/** Relative link targets of a document: [text](target) and ![alt](target), without web addresses. */
export function namedLinks(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = m[1];
    if (/^[a-z]+:/i.test(target)) continue;
    found.add(target);
  }
  return [...found];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1])));
}

const UPPER = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;

/**
 * The UPPER_SNAKE names of a document that it uses as environment variables, and the other ones. `known`:
 * the variables of docs/configuration.md, which are variables wherever a document names them.
 */
export function namedNames(
  text: string,
  known: ReadonlySet<string>,
  isConfiguration = false,
): { variables: string[]; others: string[] } {
  const variables = new Set<string>();
  const others = new Set<string>();
  if (isConfiguration)
    for (const row of text.matchAll(/^\| ([^|]+) \|/gm))
      for (const n of row[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)) if (UPPER.test(n[1])) variables.add(n[1]);
  for (const m of text.matchAll(/(?<![\w$])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=/g)) variables.add(m[1]);
  for (const m of text.matchAll(/\$\{?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g)) variables.add(m[1]);
  for (const m of text.matchAll(/`([^`\n]+)`/g))
    for (const n of m[1].matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g))
      (known.has(n[1]) ? variables : others).add(n[1]);
  return { variables: [...variables], others: [...others].filter((n) => !variables.has(n)) };
}

/** The code's text: sources, scripts and deployment files, without documents and generated folders. */
function codeText(root = ROOT): string {
  const parts: string[] = [];
  const skip = new Set(['node_modules', 'dist', '.data', '.git', 'docs', 'artifacts']);
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (skip.has(e.name)) continue;
      const f = path.join(dir, e.name);
      if (e.isDirectory()) walk(f);
      else if (
        /\.(ts|tsx|js|cjs|mjs|sh|ya?ml|conf|json)$|^Dockerfile$|^run$/.test(e.name) &&
        !f.endsWith('.md')
      )
        parts.push(fs.readFileSync(f, 'utf8'));
    }
  };
  walk(root);
  return parts.join('\n');
}

/** Whether the code reads the variable from the environment. */
export function readsVariable(code: string, name: string): boolean {
  const patterns = [
    `env\\??\\.${name}\\b`, // process.env.X, env.X, env?.X
    `env\\[['"\`]${name}['"\`]\\]`, // env['X']
    `[Ee]nv\\w*\\(\\s*['"\`]${name}['"\`]`, // sizeFromEnv('X'), intEnv('X')
    `\\benv,\\s*['"\`]${name}['"\`]`, // positive(env, 'X', 5)
    `pathEnv:\\s*['"]${name}['"]`, // scripts/lib/system-deps.ts
    `\\$\\{?${name}\\b`, // shell and compose: $X, \${X}
  ];
  return patterns.some((p) => new RegExp(p).test(code));
}

/** A file or folder of the repository, or a module named without its extension (`domain/validation`). */
function exists(p: string): boolean {
  return ['', '.ts', '.tsx'].some((ext) => fs.existsSync(path.join(ROOT, p + ext)));
}

describe('the documents name what exists', () => {
  const code = codeText();
  const docs = documents();
  const configuration = fs.readFileSync(path.join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const known = new Set(namedNames(configuration, new Set(), true).variables);

  it('finds the documents', () => {
    expect(docs).toContain('README.md');
    expect(docs).toContain('docs/status.md');
    expect(docs.length).toBeGreaterThan(10);
  });

  it.each(docs)('%s: every repository path it names exists', (doc) => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    const missing = namedPaths(text).filter((p) => !exists(p));
    expect(missing).toEqual([]);
  });

  it.each(docs)('%s: every link leads to a file, and its anchor to a heading', (doc) => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    const broken: string[] = [];
    for (const link of namedLinks(text)) {
      const [file, anchor] = link.split('#');
      const target = file ? path.resolve(path.dirname(path.join(ROOT, doc)), file) : path.join(ROOT, doc);
      if (!fs.existsSync(target)) broken.push(link);
      else if (anchor && target.endsWith('.md') && !anchorsOf(target).has(anchor)) broken.push(link);
    }
    expect(broken).toEqual([]);
  });

  it.each(docs)('%s: every environment variable it names is read by the code', (doc) => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    const { variables } = namedNames(text, known);
    const unread = variables.filter(
      (v) => !THIRD_PARTY_VARIABLES.some((re) => re.test(v)) && !readsVariable(code, v),
    );
    expect(unread).toEqual([]);
  });

  it.each(docs)('%s: every other UPPER_SNAKE name it puts in backticks occurs in the code', (doc) => {
    const text = fs.readFileSync(path.join(ROOT, doc), 'utf8');
    const { others } = namedNames(text, known);
    const absent = others.filter(
      (n) => !THIRD_PARTY_VARIABLES.some((re) => re.test(n)) && !new RegExp(`\\b${n}\\b`).test(code),
    );
    expect(absent).toEqual([]);
  });
});

describe('what the drift check counts', () => {
  it('takes folder paths, skips URLs of the API and patterns', () => {
    const text = [
      'See `api/routes/x.ts` and `db/queries/`, run `bash scripts/install-system-deps.sh runtime`.',
      'Routes `POST api/file-upload`, `GET api/asr-documents/{id}/audio`, `tests/replay/histories/<s>.json`,',
      'and http://host/api/x.ts; [link](docs/status.md). `.data/bench/results.json` is generated.',
    ].join('\n');
    expect(namedPaths(text).sort()).toEqual(
      ['api/routes/x.ts', 'db/queries/', 'docs/status.md', 'scripts/install-system-deps.sh'].sort(),
    );
  });

  it('fails on a path to a deleted file', () => {
    const missing = namedPaths('the module `server/no-such-module.ts`, `domain/validation`').filter(
      (p) => !exists(p),
    );
    expect(missing).toEqual(['server/no-such-module.ts']);
  });

  it('tells variables from other names', () => {
    const text = '| `PORT`, `SMTP_HOST` | x |\n`ASR_ENGINE=whisper`, `$DATA_DIR/keys`, `WORK_TIMER`';
    const none = new Set<string>();
    expect(namedNames(text, none, true).variables.sort()).toEqual(['ASR_ENGINE', 'DATA_DIR', 'SMTP_HOST']);
    expect(namedNames(text, none, true).others).toEqual(['WORK_TIMER']);
    expect(namedNames('a server in `TEMPORAL_ADDRESS`', new Set(['TEMPORAL_ADDRESS']))).toEqual({
      variables: ['TEMPORAL_ADDRESS'],
      others: [],
    });
  });

  it('sees a variable read in the ways the code reads them', () => {
    expect(readsVariable("const x = process.env.FILES_DIR ?? '.data/files';", 'FILES_DIR')).toBe(true);
    expect(readsVariable("sizeFromEnv('BENCH_ROUNDS', 3)", 'BENCH_ROUNDS')).toBe(true);
    expect(readsVariable("positive(env, 'LOGIN_MAX_FAILURES', 5)", 'LOGIN_MAX_FAILURES')).toBe(true);
    expect(readsVariable('echo "${TEMPORAL_NAMESPACE:-default}"', 'TEMPORAL_NAMESPACE')).toBe(true);
    expect(readsVariable("const x = 'FILES_DIR';", 'FILES_DIR')).toBe(false);
  });

  it('makes the anchors GitHub makes', () => {
    expect(anchorOf('Document list search at 1,000,000 documents')).toBe(
      'document-list-search-at-1000000-documents',
    );
    expect(anchorOf('The engine, the API and the lexicon')).toBe('the-engine-the-api-and-the-lexicon');
  });
});
