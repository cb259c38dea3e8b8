/**
 * Runs the knex migrations from a static list, so the same code works under tsx, jest and a bundle.
 * Migrations are append-only: add a new file and a new entry, never edit a landed one.
 */
import type { Knex } from 'knex';
import * as m001 from './migrations/001_foundation';
import * as m002 from './migrations/002_graph';
import * as m003 from './migrations/003_labels';
import * as m004 from './migrations/004_integrations';
import * as m005 from './migrations/005_documents';
import * as m006 from './migrations/006_actions';
import * as m007 from './migrations/007_llm';
import * as m008 from './migrations/008_triggers_pollers';
import * as m009 from './migrations/009_training';
import * as m010 from './migrations/010_sessions';
import * as m011 from './migrations/011_encrypt_secrets';
import * as m012 from './migrations/012_tag_origin';
import * as m013 from './migrations/013_document_info';
import * as m014 from './migrations/014_relations';
import * as m015 from './migrations/015_issues';
import * as m016 from './migrations/016_document_lists';
import * as m017 from './migrations/017_document_search';
import * as m019 from './migrations/019_document_peaks';
import * as m020 from './migrations/020_audits';
import * as m021 from './migrations/021_http_logs';
import * as m022 from './migrations/022_api_keys';
import * as m023 from './migrations/023_statistics';
import * as m024 from './migrations/024_rag';
import * as m025 from './migrations/025_statistics_days';
import * as m026 from './migrations/026_deleted_tokens';
import * as m027 from './migrations/027_statistics_quarters';
import * as m028 from './migrations/028_graph_version';
import * as m029 from './migrations/029_login_refusals';
import * as m030 from './migrations/030_document_timeline';
import * as m031 from './migrations/031_webhooks';
import * as m032 from './migrations/032_sftp_host_keys';
import * as m034 from './migrations/034_oidc_sign_in';
import * as m035 from './migrations/035_tags_per_step';

const migrations: Record<string, { up(k: Knex): Promise<void>; down(k: Knex): Promise<void> }> = {
  '001_foundation': m001,
  '002_graph': m002,
  '003_labels': m003,
  '004_integrations': m004,
  '005_documents': m005,
  '006_actions': m006,
  '007_llm': m007,
  '008_triggers_pollers': m008,
  '009_training': m009,
  '010_sessions': m010,
  '011_encrypt_secrets': m011,
  '012_tag_origin': m012,
  '013_document_info': m013,
  '014_relations': m014,
  '015_issues': m015,
  '016_document_lists': m016,
  '017_document_search': m017,
  '019_document_peaks': m019,
  '020_audits': m020,
  '021_http_logs': m021,
  '022_api_keys': m022,
  '023_statistics': m023,
  '024_rag': m024,
  '025_statistics_days': m025,
  '026_deleted_tokens': m026,
  '027_statistics_quarters': m027,
  '028_graph_version': m028,
  '029_login_refusals': m029,
  '030_document_timeline': m030,
  '031_webhooks': m031,
  '032_sftp_host_keys': m032,
  '034_oidc_sign_in': m034,
  '035_tags_per_step': m035,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};

export async function migrateLatest(knex: Knex): Promise<void> {
  await knex.migrate.latest({ migrationSource: source });
}
