/**
 * Matching rules of NER tag types (docs/api-graph.md): the node's rules, one rule's update and the batch
 * the rule editor sends. Reading needs READ on the node; changing needs ADMIN on its process.
 */
import { route, type Route } from '../route';
import { matchingRuleDto as ruleDto } from '../responses';

import { inBody, onNode, onProcess, query } from './access';
import type { Knex } from 'knex';
import { z } from 'zod';
import { MatchingTypes, type MatchingType } from '../../domain/label-types';
import { expressionListRule, matchingRuleViolations, normalizeTolerance } from '../../domain/matching-rules';
import type { AppDeps } from '../app';
import { currentUser, unreachable } from '../auth';
import { appError, FieldErrorCollector, setAlert } from '../errors';
import * as labels from '../services/labels';
import * as rules from '../services/matching-rules';
import { idParam } from '../validate';
import { nodeWithAccess } from './labels';
import { tagTypeIdsOfNode } from '../../db/queries/labels';

const ruleSchema = z.object({
  id: z.number().int().nullish(),
  nerTagTypeId: z.number().int().nullish(),
  expression: z.string().nullish(),
  matchingType: z.enum(MatchingTypes),
  tolerance: z.number().nullish(),
});
export const ruleUpdateSchema = ruleSchema.extend({ id: z.number().int() });

export const batchSchema = z.object({
  nerTagTypeId: z.number().int(),
  deletedRuleIds: z.array(z.number().int()).nullish(),
  updatedRules: z.array(ruleUpdateSchema).nullish(),
  newRules: z.array(ruleSchema).nullish(),
});

type RuleBody = z.infer<typeof ruleSchema>;

/** Checks one rule's fields (reported under `prefix`) and shapes what is saved. */
function ruleValues(
  errors: FieldErrorCollector,
  prefix: string,
  input: RuleBody,
  nerTagTypeId: number,
): rules.RuleValues {
  const draft = {
    expression: input.expression ?? '',
    matchingType: input.matchingType,
    tolerance: input.tolerance,
  };
  for (const [field, violation] of Object.entries(matchingRuleViolations(draft)))
    errors.check(`${prefix}${field}`, violation);
  return {
    nerTagTypeId,
    expression: draft.expression.trim(),
    matchingType: draft.matchingType,
    tolerance: normalizeTolerance(draft.matchingType, draft.tolerance),
  };
}

/** A rule may only name a tag type of the node its tag type belongs to. */
async function assertSameNode(knex: Knex, tagTypeIds: readonly number[], nodeId: number): Promise<void> {
  const ids = [...new Set(tagTypeIds)];
  const found = await tagTypeIdsOfNode(knex, ids, nodeId);
  if (found.length !== ids.length) throw appError('error.idinvalid', 'matchingRule', 'idinvalid');
}

export function matchingRuleRoutes({ knex }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'GET',
        path: '/api/matching-rules',
        access: onNode('READ', query('nodeId', 'node')),
        response: z.array(ruleDto),
      },
      async (ctx) => {
        const node = await nodeWithAccess(
          knex,
          currentUser(ctx),
          idParam(ctx.query.nodeId, 'nodeId'),
          'READ',
        );
        ctx.body = await rules.listRulesOfNode(knex, node.id);
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/matching-rules',
        access: onProcess('ADMIN', inBody('id', 'matchingRule')),
        body: { schema: ruleUpdateSchema, object: 'matchingRule' },
        response: ruleDto,
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const current = await rules.findRule(knex, input.id);
        if (!current) throw unreachable(user, 'matchingRule');
        const tagType = (await labels.findTagType(knex, current.nerTagTypeId))!;
        await nodeWithAccess(knex, user, tagType.nodeId, 'ADMIN');
        const target = input.nerTagTypeId ?? current.nerTagTypeId;
        if (target !== current.nerTagTypeId) await assertSameNode(knex, [target], tagType.nodeId);
        const errors = new FieldErrorCollector('matchingRule');
        const values = ruleValues(errors, '', input, target);
        errors.throwIfAny();
        const updated = await rules.updateRule(knex, current.id, values);
        setAlert(ctx, 'soaApp.matchingRule.updated', updated.expression);
        ctx.body = updated;
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/matching-rules/batch',
        access: onProcess('ADMIN', inBody('nerTagTypeId', 'nerTagType')),
        body: { schema: batchSchema, object: 'matchingRule' },
        response: z.array(ruleDto),
      },
      async (ctx, { body }) => {
        const user = currentUser(ctx);
        const input = body();
        const tagType = await labels.findTagType(knex, input.nerTagTypeId);
        if (!tagType) throw unreachable(user, 'nerTagType');
        const node = await nodeWithAccess(knex, user, tagType.nodeId, 'ADMIN');
        const deletedRuleIds = input.deletedRuleIds ?? [];
        const updated = input.updatedRules ?? [];
        const created = input.newRules ?? [];
        const targetOf = (r: RuleBody) => r.nerTagTypeId ?? tagType.id;
        await assertSameNode(knex, [tagType.id, ...updated.map(targetOf), ...created.map(targetOf)], node.id);

        const errors = new FieldErrorCollector('matchingRule');
        const updatedRules = updated.map((r, i) => ({
          id: r.id,
          ...ruleValues(errors, `updatedRules.${i}.`, r, targetOf(r)),
        }));
        const newRules = created.map((r, i) => ruleValues(errors, `newRules.${i}.`, r, targetOf(r)));
        // The editor's list rules: something to do, and per matching type no blank or repeated expression.
        if (!deletedRuleIds.length && !updated.length && !created.length)
          errors.check('expressions', expressionListRule([]));
        const byType = new Map<MatchingType, string[]>();
        for (const r of [...updated, ...created])
          byType.set(r.matchingType, [...(byType.get(r.matchingType) ?? []), r.expression ?? '']);
        for (const expressions of byType.values())
          errors.check('expressions', expressionListRule(expressions));
        errors.throwIfAny();

        await rules.applyBatch(knex, { nerTagTypeId: tagType.id, deletedRuleIds, updatedRules, newRules });
        setAlert(ctx, 'soaApp.matchingRule.updated', tagType.name);
        ctx.body = await rules.listRulesOfNode(knex, node.id);
      },
    ),
  ];
}
