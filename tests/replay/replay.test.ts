/**
 * Replay: every recorded history of tests/replay/histories (written by scripts/record-histories.ts from real
 * documents driven through the API) is replayed offline against the workflow code of this tree with
 * `Worker.runReplayHistories`. A change of a workflow, or of a domain/ rule a workflow runs, that would make
 * a running workflow take another path (another activity, another order, another timer) fails here with a
 * DeterminismViolationError: guard it with `patched()` (docs/architecture.md). No server is needed; the
 * run's workflow bundle (WORKFLOW_BUNDLE_PATH of `npm test`) is used when there is one.
 *
 * Histories are never re-recorded in place to make a change pass: a new file is added beside them. Runs
 * continued before the carried state had a version (continue-as-new-unversioned.json, reactivation-2.json)
 * stay, so the tolerant read of `stateVersion` is replayed too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime, Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import { historyFromJson } from './history-json';

const DIR = path.join(__dirname, 'histories');
const files = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

jest.setTimeout(180_000);

try {
  // The SDK logs each replay worker's state changes at INFO; keep warnings and errors.
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // installed already by another suite of this jest worker
}

function replayOptions(): ReplayWorkerOptions {
  const bundle = process.env.WORKFLOW_BUNDLE_PATH;
  return bundle
    ? { workflowBundle: { codePath: bundle } }
    : { workflowsPath: require.resolve('../../workflows/index') };
}

describe('replay of recorded workflow histories', () => {
  it('has histories of every workflow the engine runs', () => {
    const types = new Set(
      files.map((f) => {
        const { history } = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'));
        return history.events[0].workflowExecutionStartedEventAttributes.workflowType.name as string;
      }),
    );
    // Every workflow the bundle registers (workflows/index.ts), less those no open execution can outlive a
    // deploy of: each runs one activity without retries and its caller waits minutes at most.
    const SHORT_LIVED: Record<string, string> = {
      benchActivitiesWorkflow: 'npm run bench only',
      benchUpdateWorkflow: 'npm run bench only',
      llmRerunWorkflow: 'one activity, awaited by POST api/llm-prompt-step/{id}/rerun',
      trainNodeWorkflow: 'one activity, awaited by PUT api/trainable-nodes/{id}/train',
      ragQueryWorkflow: 'one activity, awaited by POST api/rag',
    };
    const index = fs.readFileSync(path.join(__dirname, '..', '..', 'workflows', 'index.ts'), 'utf8');
    const registered = [...index.matchAll(/export \{([^}]+)\}/g)].flatMap((m) =>
      m[1].split(',').map((name) => name.trim()),
    );
    expect(registered.length).toBeGreaterThan(4);
    expect([...types].sort()).toEqual(registered.filter((name) => !SHORT_LIVED[name]).sort());
    // A continued run among them: the carried state is read by the code of this tree.
    expect(
      files.some(
        (f) =>
          JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')).history.events[0]
            .workflowExecutionStartedEventAttributes.continuedExecutionRunId,
      ),
    ).toBe(true);
  });

  it('replays every history without a nondeterminism error', async () => {
    const histories = files.map((f) => {
      const { workflowId, history } = JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8'));
      return { file: f, workflowId: workflowId as string, history: historyFromJson(history) };
    });
    const failures: string[] = [];
    let replayed = 0;
    // One result per history, in order (the runs of one chain share their workflow id).
    for await (const result of Worker.runReplayHistories(replayOptions(), histories)) {
      const { file } = histories[replayed++];
      if (result.error)
        failures.push(`${file} (${result.workflowId}): ${result.error.name}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(files.length);
  });
});
