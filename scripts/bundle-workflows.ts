/**
 * Writes the workflow bundle (workflows/index.ts with the workflow interceptors, as `npm test` builds it) to
 * a file, for a worker started with WORKFLOW_BUNDLE_PATH pointing at it: the Dockerfile builds it into the
 * image, so a worker does not bundle at each start.
 *
 *   npx tsx scripts/bundle-workflows.ts dist/workflow-bundle.js
 */
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../server/temporal-context';

async function main(out: string | undefined): Promise<void> {
  if (!out) throw new Error('usage: tsx scripts/bundle-workflows.ts <output file>');
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows/index'),
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
  });
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  fs.writeFileSync(out, bundle.code);
  console.log(`[bundle] ${out}: ${(bundle.code.length / 1024).toFixed(0)} KiB`);
}

main(process.argv[2]).catch((err) => {
  console.error('[bundle] failed:', err);
  process.exit(1);
});
