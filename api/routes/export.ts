/**
 * Export of a node's step results (spec 3 sections 5 and 7; issue 16 section 2; docs/api-export.md):
 * `GET api/nodes/{id}/export-step-result?format&from&to&delimiter`. ADMIN on the node's process. CLF, SPAN,
 * LEXICON and LLM_PROMPT nodes; formats json (default), csv (delimiter, default ','), conll and jsonl where
 * domain/export.ts allows them; dates `YYYY-MM-DD` (UTC days), default the last month, at most 31 days, `to`
 * not after today. Refusals are field errors (400) with the spec's keys. The body is streamed from a cursor
 * (db/queries/export.ts): constant memory whatever the number of rows or the size of a document, and the event
 * loop is let go between the export's strings (each made by bounded work: domain/export.ts) so that other
 * requests are answered while a large export streams (issue 25 finding 1). The filename is in
 * content-disposition.
 */
import { fileResponse, route, type Route } from '../route';

import { onProcess, param } from './access';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  exportContentType,
  exportFilename,
  exportText,
  planExport,
  rangeInstants,
} from '../../domain/export';
import { stepResults } from '../../db/queries/export';
import type { AppDeps } from '../app';
import { currentUser } from '../auth';
import { violationErrors } from '../errors';
import { firstValue, idParam } from '../validate';
import { nodeWithAccess } from './labels';

const OBJECT = 'stepResultExport';

/** The strings of an export, each after a turn of the event loop (I/O and timers of other requests first). */
async function* takingTurns(parts: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const part of parts) {
    yield part;
    await nextTurn();
  }
}

export function exportRoutes({ knex }: AppDeps): Route[] {
  return [
    // step-result export (issue 16: statistics and export need ADMIN on the process)
    route(
      {
        method: 'GET',
        path: '/api/nodes/:id/export-step-result',
        access: onProcess('ADMIN', param('id', 'node')),
        response: fileResponse('application/json', 'text/csv', 'text/plain', 'application/x-ndjson'),
      },
      async (ctx) => {
        const node = await nodeWithAccess(knex, currentUser(ctx), idParam(ctx.params.id), 'ADMIN');
        const asked = planExport({
          activityType: node.activityType,
          format: firstValue(ctx.query.format),
          delimiter: firstValue(ctx.query.delimiter),
          from: firstValue(ctx.query.from),
          to: firstValue(ctx.query.to),
          today: new Date().toISOString().slice(0, 10),
        });
        if ('violations' in asked) throw violationErrors(OBJECT, asked.violations);
        const { plan } = asked;
        const { start, end } = rangeInstants(plan.range);
        const filename = exportFilename(node.id, plan.range, plan.format);
        ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
        ctx.set('Access-Control-Expose-Headers', 'Content-Disposition');
        ctx.set('Cache-Control', 'no-store');
        ctx.type = exportContentType(plan.format);
        ctx.body = Readable.from(
          takingTurns(exportText(stepResults(knex, node.id, plan.kind, start, end), plan)),
        );
      },
    ),
  ];
}
