/**
 * The matching_rules table: rules of NER tag types (docs/api-graph.md): reads by node, one rule's update and
 * the batch (delete, update, create in one transaction, every id belonging to the request's tag type).
 */
import type { Knex } from 'knex';
import type { MatchingRuleDTO, MatchingType } from '../../domain/label-types';

type Row = Record<string, any>;

export const toRuleDTO = (r: Row): MatchingRuleDTO => ({
  id: Number(r.id),
  nerTagTypeId: Number(r.ner_tag_type_id),
  expression: r.expression,
  matchingType: r.matching_type,
  tolerance: r.tolerance,
});

export interface RuleValues {
  nerTagTypeId: number;
  expression: string;
  matchingType: MatchingType;
  tolerance: number | null;
}

const columns = (v: RuleValues) => ({
  ner_tag_type_id: v.nerTagTypeId,
  expression: v.expression,
  matching_type: v.matchingType,
  tolerance: v.tolerance,
});

export async function findRulesOfTagTypes(
  knex: Knex,
  tagTypeIds: readonly number[],
): Promise<MatchingRuleDTO[]> {
  if (tagTypeIds.length === 0) return [];
  const rows = await knex('matching_rules').whereIn('ner_tag_type_id', tagTypeIds).orderBy('id');
  return rows.map(toRuleDTO);
}

/** Every rule of the node's tag types, by tag type then creation. */
export async function listRulesOfNode(knex: Knex, nodeId: number): Promise<MatchingRuleDTO[]> {
  const rows = await knex('matching_rules as r')
    .join('ner_tag_types as t', 't.id', 'r.ner_tag_type_id')
    .where('t.node_id', nodeId)
    .orderBy(['r.ner_tag_type_id', 'r.id'])
    .select('r.*');
  return rows.map(toRuleDTO);
}

export async function findRule(knex: Knex, id: number): Promise<MatchingRuleDTO | undefined> {
  const row = await knex('matching_rules').where({ id }).first();
  return row ? toRuleDTO(row) : undefined;
}

export async function updateRule(knex: Knex, id: number, values: RuleValues): Promise<MatchingRuleDTO> {
  const [row] = await knex('matching_rules').where({ id }).update(columns(values)).returning('*');
  return toRuleDTO(row);
}

export interface BatchValues {
  nerTagTypeId: number;
  deletedRuleIds: number[];
  updatedRules: (RuleValues & { id: number })[];
  newRules: RuleValues[];
}

/**
 * Applies the batch in one transaction. Deleted and updated ids must be rules of `nerTagTypeId` (else false
 * and nothing changes); an updated or new rule may name another tag type of the same node (the caller
 * checked that), which moves it there.
 */
export async function applyRuleBatch(knex: Knex, batch: BatchValues): Promise<boolean> {
  return knex.transaction(async (trx) => {
    const ids = [...new Set([...batch.deletedRuleIds, ...batch.updatedRules.map((r) => r.id)])];
    if (ids.length) {
      const owned = await trx('matching_rules')
        .whereIn('id', ids)
        .where('ner_tag_type_id', batch.nerTagTypeId)
        .forUpdate()
        .pluck('id');
      if (owned.length !== ids.length) return false;
    }
    if (batch.deletedRuleIds.length) await trx('matching_rules').whereIn('id', batch.deletedRuleIds).del();
    for (const rule of batch.updatedRules)
      await trx('matching_rules').where('id', rule.id).update(columns(rule));
    if (batch.newRules.length) await trx('matching_rules').insert(batch.newRules.map(columns));
    return true;
  });
}

export async function insertRule(knex: Knex, values: RuleValues): Promise<MatchingRuleDTO> {
  const [row] = await knex('matching_rules').insert(columns(values)).returning('*');
  return toRuleDTO(row);
}

/** The rules of the node's enabled tag types with their tag type's name, by id (the lexicon's input). */
export async function enabledRulesOfNode(
  knex: Knex,
  nodeId: number,
): Promise<
  {
    id: number;
    nerTagTypeId: number;
    expression: string;
    matchingType: MatchingType;
    tolerance: number | null;
    tagName: string;
  }[]
> {
  return knex('matching_rules as r')
    .join('ner_tag_types as t', 't.id', 'r.ner_tag_type_id')
    .where('t.node_id', nodeId)
    .andWhere('t.disabled', false)
    .orderBy('r.id')
    .select(
      'r.id',
      'r.ner_tag_type_id as nerTagTypeId',
      'r.expression',
      'r.matching_type as matchingType',
      'r.tolerance',
      't.name as tagName',
    );
}
