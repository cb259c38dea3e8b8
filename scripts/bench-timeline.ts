/**
 * `timeline.openMs` (issue 29 section 1): a document whose workflow history holds at least 2,000 events
 * (a parser, then a manual step started and released by its user until the history is that long, across
 * continue-as-new runs when the workflow rolls over) has its timeline read through the API
 * (GET api/v2/document/{id}/timeline): the median of a few reads, with the first read (cold) beside it.
 * The aim is < 1 s. The browser's drawing of the list is not part of the figure.
 */
import crypto from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { documentWorkflowId } from '../workflows/document-contract';
import { benchSignIn, startBenchApp, type BenchAppOptions } from './lib/bench-app';

export interface TimelineBenchResults {
  historyEvents: number;
  runs: number;
  entries: number;
  firstOpenMs: number;
  openMs: number;
  reads: number;
}

/** Every event of the document's workflow across its runs (the latest run, then those it continued from). */
async function historyEvents(client: Client, documentId: number): Promise<{ events: number; runs: number }> {
  const workflowId = documentWorkflowId(documentId);
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  let events = 0;
  let runs = 0;
  while (runId) {
    const h = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    events += h.events?.length ?? 0;
    runs += 1;
    runId = h.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return { events, runs };
}

export async function benchTimeline(
  o: BenchAppOptions & { events: number; reads: number },
): Promise<TimelineBenchResults> {
  const app = await startBenchApp(o, { queuePrefix: 'bench-timeline', workerPoolMax: 4 });
  const connection = await Connection.connect({ address: o.temporalAddress });
  try {
    const client = new Client({ connection });
    const admin = await benchSignIn(app.base, 'admin', 'admin');
    const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${app.base}${p}`, {
        method,
        headers: { 'Content-Type': 'application/json', Authorization: admin },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
      return (text ? JSON.parse(text) : null) as T;
    };
    const suffix = crypto.randomBytes(3).toString('hex');
    const tags = await call<{ id: number; predefined: boolean }[]>('GET', '/api/process-tags');
    const processId = (
      await call<{ id: number }>('POST', '/api/processes', {
        name: `Bench timeline ${suffix}`,
        isRagEnabled: false,
        processTags: [{ id: tags.find((t) => t.predefined)!.id }],
        ragTextSplitter: null,
      })
    ).id;
    const nodes = await call<{ id: number; activityType: string }[]>(
      'GET',
      `/api/nodes?processId=${processId}`,
    );
    const hup = nodes.find((n) => n.activityType === 'HUP')!.id;
    const parser = (
      await call<{ id: number }>('POST', '/api/nodes', {
        processId,
        name: 'Parser',
        activityType: 'FILE_PARSER',
        autoStepStatus: 'DONE',
      })
    ).id;
    const classify = (
      await call<{ id: number }>('POST', '/api/nodes', { processId, name: 'Classify', activityType: 'CLF' })
    ).id;
    await call('POST', '/api/edges', { fromId: hup, toId: parser });
    await call('POST', '/api/edges', { fromId: parser, toId: classify });
    const documentId = (
      await call<{ id: number }>('POST', '/api/documents', {
        processId,
        filename: `timeline-${suffix}.txt`,
        content: 'A document with a long history.\n',
      })
    ).id;
    type State = { steps: { id: number; nodeId: number; status: string }[] };
    let stepId: number | undefined;
    for (const until = Date.now() + 60_000; stepId === undefined;) {
      const s = await call<State>('GET', `/api/v2/document/${documentId}/state`);
      stepId = s.steps.find((x) => x.nodeId === classify && x.status === 'WAITING')?.id;
      if (stepId === undefined && Date.now() > until) throw new Error('the classifier step never waited');
      if (stepId === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    // Each start and release is an Update with its transition: about six events.
    let counted = await historyEvents(client, documentId);
    while (counted.events < o.events) {
      for (let i = 0; i < 25; i++) {
        await call('POST', `/api/step/assign?docId=${documentId}&nodeId=${classify}`);
        await call('PUT', '/api/steps', { id: stepId, blockedBy: null });
      }
      counted = await historyEvents(client, documentId);
    }
    const read = async () => {
      const t0 = performance.now();
      const t = await call<{ entries: unknown[] }>('GET', `/api/v2/document/${documentId}/timeline`);
      return { ms: performance.now() - t0, entries: t.entries.length };
    };
    const first = await read();
    const times: number[] = [];
    for (let i = 0; i < o.reads; i++) times.push((await read()).ms);
    times.sort((a, b) => a - b);
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      historyEvents: counted.events,
      runs: counted.runs,
      entries: first.entries,
      firstOpenMs: round(first.ms),
      openMs: round(times[Math.floor(times.length / 2)]),
      reads: o.reads,
    };
  } finally {
    await connection.close();
    await app.stop();
  }
}

export function printTimelineResults(r: TimelineBenchResults): void {
  console.log(
    `timeline: ${r.historyEvents} history events in ${r.runs} run(s), ${r.entries} entries: ` +
      `first open ${r.firstOpenMs} ms, median of ${r.reads} ${r.openMs} ms (aim < 1000 ms)`,
  );
}
