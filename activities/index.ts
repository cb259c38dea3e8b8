/** All activities, built by a factory from their dependencies (no hard-coded hosts). */
import type { Knex } from 'knex';
import { createActionActivities, type ActionDeps } from './actions';
import { createBenchActivities } from './bench';
import { createParserActivities, type AsrSettings } from './parser';
import { createPollerActivities } from './pollers';
import { createTrainingActivities } from './training';
import { createProjectionActivities } from './projection';
import { createRagActivities } from './rag';
import type { EmbeddingsConfig } from './rag/embeddings';
import { createSystemActivities } from './system';

export interface ActivityDeps extends ActionDeps {
  knex: Knex;
  /** Speech recognition engine of the parser; pocketsphinx when absent. */
  asr?: AsrSettings;
  /** EMBEDDINGS_MODEL and its endpoint (dense RAG retrieval); lexical only when absent. */
  embeddings?: EmbeddingsConfig | null;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
    ...createProjectionActivities(deps),
    ...createParserActivities(deps),
    ...createBenchActivities(),
    ...createActionActivities(deps),
    ...createPollerActivities(deps),
    ...createTrainingActivities(deps),
    ...createRagActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
