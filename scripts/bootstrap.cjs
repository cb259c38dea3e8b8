#!/usr/bin/env node
/**
 * Entry of `npm start`, `npm test`, `npm run bench`, `npm run chaos`, `npm run cluster`, `npm run chaos:cluster`,
 * `npm run bench:cluster` and `npm run files:migrate`: plain Node (no dependency needed), so it can install
 * the npm dependencies on a fresh clone before handing over to the TypeScript script of the command.
 */
const { spawnSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const command = process.argv[2];
const scripts = {
  start: 'scripts/start.ts',
  test: 'scripts/test.ts',
  bench: 'scripts/bench.ts',
  chaos: 'scripts/chaos.ts',
  'chaos:cluster': 'scripts/chaos-cluster.ts',
  cluster: 'scripts/cluster.ts',
  'files:migrate': 'scripts/files-migrate.ts',
  'bench:cluster': 'scripts/bench-cluster.ts',
};
if (!scripts[command]) {
  console.error(`usage: bootstrap.cjs ${Object.keys(scripts).join('|')}`);
  process.exit(2);
}

function depsInstalled() {
  const lock = path.join(root, 'package-lock.json');
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(marker) || !fs.existsSync(path.join(root, 'node_modules', '.bin', 'tsx'))) return false;
  return fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs;
}

// `npm install`, not `npm ci`: the registry mirror of these machines lacks some other-platform optional
// binaries (e.g. @swc/core-darwin-*) of the locked versions, which `npm ci` refuses; `npm install` follows
// the lock for everything it can resolve and leaves it unchanged.
if (!depsInstalled()) {
  console.log('[setup] installing npm dependencies (npm install)...');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('[setup] npm install failed');
    process.exit(r.status ?? 1);
  }
}

const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const child = spawn(tsx, [path.join(root, scripts[command]), ...process.argv.slice(3)], {
  cwd: root,
  stdio: 'inherit',
});
// The child gets Ctrl-C from the terminal itself (same process group); forward TERM from other senders.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
