/** All activities, built by a factory from their dependencies (no hard-coded hosts). */
import type { Knex } from 'knex';
import { createActionActivities } from './actions';
import { createBenchActivities } from './bench';
import { createParserActivities, type AsrSettings } from './parser';
import { createProjectionActivities } from './projection';
import { createSystemActivities } from './system';

export interface ActivityDeps {
  knex: Knex;
  /** Root of the stored files (FILES_DIR). */
  filesDir: string;
  /** Speech recognition engine of the parser; pocketsphinx when absent. */
  asr?: AsrSettings;
  /** OUTBOUND_ALLOWLIST of the deployment (net guard of mail, request and SFTP actions). */
  outboundAllowlist?: string[];
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
    ...createProjectionActivities(deps),
    ...createParserActivities(deps),
    ...createBenchActivities(),
    ...createActionActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
