/**
 * Export of a node's step results (spec 3 sections 5 and 7; issue 16 section 2; docs/api-export.md):
 * `GET api/nodes/{id}/export-step-result?format&from&to&delimiter`. ADMIN on the node's process. CLF, SPAN,
 * LEXICON and LLM_PROMPT nodes; formats json (default), csv (delimiter, default ','), conll and jsonl where
 * domain/export.ts allows them; dates `YYYY-MM-DD` (UTC days), default the last month, at most 31 days, `to`
 * not after today. Refusals are field errors (400) with the spec's keys. The body is streamed from a cursor
 * (db/queries/export.ts): constant memory whatever the number of rows; the filename is in content-disposition.
 */
import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import {
  csvHeader,
  csvLine,
  csvRow,
  conllBlock,
  delimiterViolation,
  EXPORT_LIMITS,
  exportContentType,
  exportFilename,
  exportFormatsOf,
  exportKindOf,
  exportRange,
  exportRow,
  jsonlLine,
  rangeInstants,
  type ExportFormat,
  type ExportKind,
  type ExportViolation,
  type StepResultRecord,
} from '../../domain/export';
import { stepResults } from '../../db/queries/export';
import type { AppDeps } from '../app';
import { currentUser } from '../auth';
import { fieldErrors } from '../errors';
import { firstValue, idParam } from '../validate';
import { nodeWithAccess } from './labels';

const OBJECT = 'stepResultExport';

const queryText = (ctx: Context, name: string): string | undefined => firstValue(ctx.query[name]);

/** The formatted text of a batch; `first` says whether a row was written before (JSON's commas). */
function formatBatch(
  kind: ExportKind,
  format: ExportFormat,
  delimiter: string,
  rows: StepResultRecord[],
  first: boolean,
): string {
  switch (format) {
    case 'csv':
      return rows.map((r) => csvRow(kind, r, delimiter)).join('');
    case 'conll':
      return rows.map(conllBlock).join('\n');
    case 'jsonl':
      return rows.map((r) => jsonlLine(kind, r)).join('');
    case 'json':
      return rows
        .map((r, i) => `${first && i === 0 ? '\n' : ',\n'}${JSON.stringify(exportRow(kind, r))}`)
        .join('');
  }
}

async function* exportBody(
  rows: AsyncGenerator<StepResultRecord[]>,
  kind: ExportKind,
  format: ExportFormat,
  delimiter: string,
): AsyncGenerator<string> {
  if (format === 'json') yield '[';
  if (format === 'csv') yield csvLine(csvHeader(kind), delimiter);
  let first = true;
  for await (const batch of rows) {
    const text = formatBatch(kind, format, delimiter, batch, first);
    // CoNLL: a blank line between the documents of two batches too
    yield format === 'conll' && !first ? `\n${text}` : text;
    first = false;
  }
  if (format === 'json') yield first ? ']\n' : '\n]\n';
}

export function exportRoutes({ knex }: AppDeps): Router {
  const router = new Router();

  router.get('/api/nodes/:id/export-step-result', async (ctx) => {
    const node = await nodeWithAccess(knex, currentUser(ctx), idParam(ctx.params.id), 'ADMIN');
    const violations: ExportViolation[] = [];
    const kind = exportKindOf(node.activityType);
    const format = (queryText(ctx, 'format') || 'json').toLowerCase() as ExportFormat;
    if (!kind)
      violations.push({
        field: 'format',
        code: 'Pattern',
        key: 'soaApp.nodePanel.export.errors.notExportable',
      });
    else if (!exportFormatsOf(kind).includes(format))
      violations.push({
        field: 'format',
        code: 'Pattern',
        key: 'soaApp.nodePanel.export.errors.formatUnsupported',
      });
    const delimiter = queryText(ctx, 'delimiter') ?? EXPORT_LIMITS.defaultDelimiter;
    if (format === 'csv') {
      const bad = delimiterViolation(delimiter);
      if (bad) violations.push(bad);
    }
    const today = new Date().toISOString().slice(0, 10);
    const range = exportRange(queryText(ctx, 'from'), queryText(ctx, 'to'), today);
    if ('violations' in range) violations.push(...range.violations);
    if (violations.length || !kind || 'violations' in range)
      throw fieldErrors(
        OBJECT,
        violations.map(({ field, code, key }) => ({ field, violation: { code, key } })),
      );

    const { start, end } = rangeInstants(range.range);
    const filename = exportFilename(node.id, range.range, format);
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.set('Access-Control-Expose-Headers', 'Content-Disposition');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = exportContentType(format);
    ctx.body = Readable.from(
      exportBody(stepResults(knex, node.id, kind, start, end), kind, format, delimiter),
    );
  });

  return router;
}
