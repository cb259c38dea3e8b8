/**
 * The agreement of a multiprocessed node's annotators (issue 31 section 2; docs/api-agreement.md):
 * `GET api/nodes/{id}/agreement?from=yyyy-MM-dd&to=yyyy-MM-dd`, ADMIN on the node's process (like the export and
 * the statistics). CLF nodes get Cohen's kappa per pair, Fleiss' kappa and Krippendorff's alpha; SPAN and
 * LEXICON nodes span F1 and unitizing alpha per label; the fields of the other kind are null. Refusals are field
 * errors (400) with the keys of `soaApp.nodePanel.agreement.errors`.
 */
import { z } from 'zod';
import { route, type Route } from '../route';
import { onProcess, param } from './access';
import type { AppDeps } from '../app';
import { currentUser } from '../auth';
import { violationErrors } from '../errors';
import { firstValue, idParam } from '../validate';
import { nodeWithAccess } from './labels';
import { agreementReportInSlices, planAgreement } from '../../domain/agreement-report';
import { rangeInstants } from '../../domain/export';
import { agreementData } from '../../db/queries/agreement';
import { userLogins } from '../../db/queries/users';

const figure = z.number().nullable();

export const agreementSchema = z.object({
  nodeId: z.number(),
  from: z.string(),
  to: z.string(),
  documents: z.number(),
  leftOut: z.number(),
  users: z.array(z.object({ id: z.number(), login: z.string() })),
  cohenKappa: z
    .array(z.object({ userA: z.number(), userB: z.number(), value: figure, documents: z.number() }))
    .nullable(),
  fleissKappa: figure,
  krippendorffAlpha: figure,
  spanF1: z.array(z.object({ label: z.string(), exact: figure, overlap: figure })).nullable(),
  unitizingAlpha: z.array(z.object({ label: z.string(), value: figure })).nullable(),
  lowest: z.array(z.object({ documentId: z.number(), filename: z.string(), value: z.number() })),
});

export function agreementRoutes({ knex }: AppDeps): Route[] {
  return [
    route(
      {
        method: 'GET',
        path: '/api/nodes/:id/agreement',
        access: onProcess('ADMIN', param('id', 'node')),
        response: agreementSchema,
      },
      async (ctx) => {
        const node = await nodeWithAccess(knex, currentUser(ctx), idParam(ctx.params.id), 'ADMIN');
        const asked = planAgreement({
          activityType: node.activityType,
          from: firstValue(ctx.query.from),
          to: firstValue(ctx.query.to),
          today: new Date().toISOString().slice(0, 10),
        });
        if ('violations' in asked) throw violationErrors('agreement', asked.violations);
        const { kind, range } = asked.plan;
        const { start, end } = rangeInstants(range);
        const { documents, leftOut } = await agreementData(knex, { id: node.id, kind }, start, end);
        // computed a slice at a time, the event loop free between slices (a node has 10,000s of documents)
        const slices = agreementReportInSlices(kind, documents, leftOut);
        let next = slices.next();
        while (!next.done) {
          await new Promise<void>((r) => setImmediate(r));
          next = slices.next();
        }
        const report = next.value;
        const ids = [...new Set(documents.flatMap((d) => d.steps.map((s) => s.userId)))].filter(
          (id): id is number => id !== null,
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { nodeId: node.id, ...range, ...report, users: await userLogins(knex, ids) };
      },
    ),
  ];
}
