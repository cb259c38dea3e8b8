/**
 * A lexicon matching thread (activities/actions/lexicon-pool.ts): receives {id, rules, texts}, compiles the
 * rules and matches each text with domain/lexicon.ts, answers {id, results} or {id, error}. It registers tsx
 * itself, so it loads the TypeScript domain module under `npm start` (tsx), under jest, and anywhere else.
 */
require('tsx/cjs/api').register();
const { parentPort } = require('node:worker_threads');
const { compileLexicon, matchLexicon } = require('../../domain/lexicon.ts');

parentPort.on('message', ({ id, rules, texts }) => {
  try {
    const lexicon = compileLexicon(rules);
    parentPort.postMessage({ id, results: texts.map((text) => matchLexicon(lexicon, text)) });
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
