// Flat ESLint config: TypeScript everywhere, React hooks in web/, the Temporal rule set for workflow code
// (no Node built-ins or I/O modules in the deterministic sandbox, no floating promises), and the layers:
// `api/` and `activities/` never import each other (what both need lives in `server/`), `server/` imports
// neither, `db/` imports `domain/` only, and the worker entry does not import the API; route modules do
// not build routers of their own (api/route.ts mounts the declared routes); and queries are built in
// db/queries/ only (NO_RAW_QUERIES: api/, activities/ and server/).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** An import of the top-level folder `name` from any depth (`../api/x`, `../../api`, ...). */
const layer = (name, message) => ({ regex: `^(\\.\\./)+${name}(/|$)`, message });
const NO_API = layer('api', 'The API is not imported here: move what both need to server/.');
const NO_ACTIVITIES = layer(
  'activities',
  'Activity code runs on the worker: start a workflow (workflows/request-contract.ts) or move what both need to server/.',
);
const NO_WEB = layer('web', 'The web app is not imported by server code.');
const DB_ONLY_DOMAIN = ['api', 'activities', 'server', 'workflows', 'web', 'scripts'].map((name) =>
  layer(name, 'db/ is below every other layer: it imports domain/ only.'),
);

/**
 * One way to the database (issue 28): a table is reached through a function of its module in db/queries/,
 * never by a query built where it is used. Forbids `knex('t')`, `trx('t')`, `deps.knex('t')` and the
 * builder's entry points on the instance (`knex.raw(...)`, `knex.select(...)`, ...); `knex.transaction` and
 * `knex.fn` stay allowed (a service decides what runs in one transaction).
 */
const DB_HANDLE = '/^(knex|trx|db|tx)$/';
const VIA_DB_QUERIES = 'Query the database through a function of db/queries/<table>.ts (issue 28), not here.';
const BUILDER_ENTRY = '/^(raw|select|from|insert|update|del|delete|with|queryBuilder|table|batchInsert)$/';
const NO_RAW_QUERIES = [
  { selector: `CallExpression[callee.type='Identifier'][callee.name=${DB_HANDLE}]`, message: VIA_DB_QUERIES },
  {
    selector: `CallExpression[callee.type='MemberExpression'][callee.property.name=${DB_HANDLE}]`,
    message: VIA_DB_QUERIES,
  },
  {
    selector: `CallExpression[callee.object.name=${DB_HANDLE}][callee.property.name=${BUILDER_ENTRY}]`,
    message: VIA_DB_QUERIES,
  },
  {
    selector: `CallExpression[callee.object.property.name=${DB_HANDLE}][callee.property.name=${BUILDER_ENTRY}]`,
    message: VIA_DB_QUERIES,
  },
  {
    selector: `MemberExpression[object.name=${DB_HANDLE}][property.name='schema']`,
    message: "The schema is db/migrations/'s: no schema queries here (issue 28).",
  },
];
/**
 * Where the rule holds: the product's code outside db/. Tests, scripts/ (benches, seeds) and migrations may
 * build queries of their own.
 */
const DB_QUERIES_ONLY = ['api/**/*.ts', 'activities/**/*.ts', 'server/**/*.ts'];
const OUTSIDE_THE_RULE = ['**/*.test.ts'];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', '.data', 'coverage', 'tests/artifacts', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '../api/*',
            '../web/*',
            '../db/*',
            '../workflows/*',
            '../activities/*',
            '../server/*',
            'node:*',
          ],
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/worker.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            'node:*',
            'fs',
            'path',
            'http',
            'https',
            'net',
            'child_process',
            'knex',
            'pg',
            'objection',
          ],
        },
      ],
    },
  },
  {
    files: ['db/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: DB_ONLY_DOMAIN }] },
  },
  {
    files: ['api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_ACTIVITIES, NO_WEB] }] },
  },
  {
    // a route is mounted only from its declaration (api/route.ts `route()`), never by a router of its own
    files: ['api/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [NO_ACTIVITIES, NO_WEB],
          paths: [
            {
              name: '@koa/router',
              message:
                'Declare the route with route() from api/route.ts: its access gate, body and OpenAPI entry.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['activities/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_API, NO_WEB] }] },
  },
  {
    files: ['server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_API, NO_ACTIVITIES, NO_WEB] }] },
  },
  {
    files: ['workflows/worker.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_API, NO_WEB] }] },
  },
  {
    files: DB_QUERIES_ONLY,
    ignores: OUTSIDE_THE_RULE,
    rules: { 'no-restricted-syntax': ['error', ...NO_RAW_QUERIES] },
  },
);
