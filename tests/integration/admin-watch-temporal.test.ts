/**
 * Issue 15 section 2 on the Temporal side: a document workflow carries the search attributes operators look
 * for (process id, document status, current node, filename) and the filename memo, kept up to date as it
 * walks; the request id of the upload reaches the workflow's start and its activities' headers.
 */
import { defaultPayloadConverter } from '@temporalio/common';
import { documentWorkflowId } from '../../workflows/document-contract';
import { REQUEST_ID_HEADER } from '../../workflows/request-id-header';
import { GraphBuilder, setupEngineSuite } from '../support/engine';
import { eventually } from '../support/eventually';
import { unique } from '../support/harness';

describe('document workflows as operators find them', () => {
  const s = setupEngineSuite('admin-watch');

  it('carries search attributes and the filename memo, and the upload request id down to its activities', async () => {
    const g = await GraphBuilder.create(s.knex);
    const upload = await g.node('HUP');
    // The parser runs as a (remote) activity: its step is the current node while it runs (or fails).
    const reviewName = unique('Parser');
    const parser = await g.node('FILE_PARSER', { name: reviewName });
    await g.edge(upload, parser);
    const requestId = unique('upload-request');
    const filename = `${unique('invoice')}.txt`;
    const form = new FormData();
    form.append('nodeId', String(upload));
    form.append('file', new Blob(['A text for the search attributes.\n'], { type: 'text/plain' }), filename);
    const res = await fetch(`${s.api.baseUrl}/api/file-upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${s.admin}`, 'X-Request-Id': requestId },
      body: form,
    });
    expect(res.status).toBeLessThan(300);
    const doc = await s.knex('documents').where({ filename, process_id: g.processId }).first('id');
    const handle = s.client.workflow.getHandle(documentWorkflowId(doc.id));

    let last: unknown;
    const described = await eventually('search attributes', async () => {
      const d = await handle.describe();
      const sa = d.searchAttributes as Record<string, unknown[]>;
      last = { sa, status: d.status.name, memo: d.memo };
      return sa.CurrentNode?.includes(reviewName) ? d : undefined;
    }).catch((err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(last)}`);
    });
    const sa = described.searchAttributes as Record<string, unknown[]>;
    expect(sa.ProcessId).toEqual([g.processId]);
    expect(sa.DocumentStatus).toEqual(['WAITING']);
    expect(sa.DocumentFilename).toEqual([filename]);
    expect(described.memo).toEqual({ filename });

    // Operators' query: by process and current node.
    const found = await eventually('visibility query', async () => {
      const ids: string[] = [];
      for await (const w of s.client.workflow.list({
        query: `ProcessId = ${g.processId} AND CurrentNode = '${reviewName}'`,
      }))
        ids.push(w.workflowId);
      return ids.length ? ids : undefined;
    });
    expect(found).toEqual([documentWorkflowId(doc.id)]);

    const events = await eventually('the parser activity scheduled', async () => {
      const list = (await handle.fetchHistory()).events ?? [];
      return list.some((e) => e.activityTaskScheduledEventAttributes) ? list : undefined;
    });
    const idOf = (fields: Record<string, unknown> | null | undefined) => {
      const p = fields?.[REQUEST_ID_HEADER];
      return p ? defaultPayloadConverter.fromPayload(p as never) : undefined;
    };
    const started = events.find((e) => e.workflowExecutionStartedEventAttributes);
    expect(idOf(started?.workflowExecutionStartedEventAttributes?.header?.fields)).toBe(requestId);
    // The graph load and projection are local activities (markers); the parser is a scheduled activity.
    const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes);
    for (const e of scheduled)
      expect(idOf(e.activityTaskScheduledEventAttributes?.header?.fields)).toBe(requestId);
  });
});
