/**
 * `npm run workflows:refresh [-- --dry-run]`: before a release that retires old workflow branches
 * (docs/architecture.md, "Retiring a patch"), moves every open document run begun under older workflow code
 * into a fresh run: lists the open `documentWorkflow` runs, reads the first events of each for its epoch
 * marker, and signals the older ones (`freshRun`); each carries its state into a new run at its next idle
 * moment (a run executing an automatic step finishes it first). Connects as the API does (TEMPORAL_ADDRESS,
 * TEMPORAL_NAMESPACE, the TLS / API key settings: docs/configuration.md). Run it again until it reports 0
 * older runs. Exit codes: 0 done, 1 failed, 78 a Temporal setting is wrong.
 */
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { refreshDocumentRuns } from '../server/document-workflows';
import { EXIT_CONFIG } from '../server/setting-error';
import { TemporalSettingError, connectOptions, loadTemporalConnection } from '../server/temporal-connection';
import { DOCUMENT_RUN_EPOCH } from '../workflows/document-contract';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false } } });
  let settings;
  try {
    settings = loadTemporalConnection();
  } catch (err) {
    if (err instanceof TemporalSettingError) {
      console.error(`workflows:refresh: ${err.message}`);
      return EXIT_CONFIG;
    }
    throw err;
  }
  const connection = await Connection.connect(connectOptions(settings));
  try {
    const client = new Client({ connection, namespace: settings.namespace });
    const r = await refreshDocumentRuns(client, { dryRun: values['dry-run'] });
    const older = r.open - r.current;
    console.log(
      `workflows:refresh: ${r.open} open document runs, ${r.current} of epoch ${DOCUMENT_RUN_EPOCH}, ` +
        (values['dry-run']
          ? `${older} older (documents ${r.older.join(', ') || 'none'})`
          : `${r.refreshed} older asked to continue as a fresh run`),
    );
    return 0;
  } finally {
    await connection.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`workflows:refresh: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
