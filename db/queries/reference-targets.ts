/**
 * Where a reference leads: the process (and the node, when it names one or something of one) of a row a
 * route names by id, read by the access gate (api/access-gate.ts) before the route runs.
 */
import type { Knex } from 'knex';
import { documentById } from './documents';
import { nodeRef } from './nodes';
import { stepNode } from './steps';

const NODE_OF = (table: string, alias: string) => (knex: Knex, id: number) =>
  knex(`${table} as ${alias}`)
    .join('nodes as n', 'n.id', `${alias}.node_id`)
    .where(`${alias}.id`, id)
    .first('n.id as nodeId', 'n.process_id as processId');
/** The node of a row that belongs to a NER tag type (`ner_tag_type_id`). */
const NODE_OF_TAG_TYPE = (table: string, alias: string) => (knex: Knex, id: number) =>
  knex(`${table} as ${alias}`)
    .join('ner_tag_types as t', 't.id', `${alias}.ner_tag_type_id`)
    .join('nodes as n', 'n.id', 't.node_id')
    .where(`${alias}.id`, id)
    .first('n.id as nodeId', 'n.process_id as processId');
const PROCESS_OF = (table: string) => (knex: Knex, id: number) =>
  knex(table).where('id', id).first('process_id as processId');

/** One query per kind of reference a route declares (api/routes/access.ts), by the kind's name. */
export const REFERENCE_TARGETS = {
  process: (knex, id) => knex('processes').where('id', id).first('id as processId'),
  node: async (knex, id) => {
    const node = await nodeRef(knex, id);
    return node && { nodeId: node.id, processId: node.processId };
  },
  document: documentById,
  edge: PROCESS_OF('edges'),
  secret: PROCESS_OF('secrets'),
  ragTemplate: PROCESS_OF('rag_templates'),
  webhook: PROCESS_OF('webhooks'),
  predicate: (knex, id) =>
    knex('predicates as p')
      .join('edges as e', 'e.id', 'p.edge_id')
      .where('p.id', id)
      .first('e.process_id as processId'),
  step: stepNode,
  classifierType: NODE_OF('classifier_types', 'c'),
  nerTagType: NODE_OF('ner_tag_types', 't'),
  nerTag: NODE_OF_TAG_TYPE('ner_tags', 'g'),
  classifierTag: NODE_OF('classifier_tags', 'c'),
  relationType: NODE_OF('ner_relation_types', 'r'),
  issue: (knex, id) =>
    knex('issues as i')
      .join('documents as d', 'd.id', 'i.document_id')
      .where('i.id', id)
      .first('d.process_id as processId'),
  relationGraph: NODE_OF('ner_tag_relation_graphs', 'g'),
  utteranceToken: (knex, id) =>
    knex('utterance_tokens as k')
      .join('utterances as u', 'u.id', 'k.utterance_id')
      .join('documents as d', 'd.id', 'u.document_id')
      .where('k.id', id)
      .first('d.process_id as processId'),
  emailConnection: NODE_OF('email_upload_connections', 'c'),
  sftpConnection: NODE_OF('sftp_connections', 'c'),
  matchingRule: NODE_OF_TAG_TYPE('matching_rules', 'm'),
} satisfies Record<string, (knex: Knex, id: number) => Promise<unknown>>;
