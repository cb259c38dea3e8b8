/** The epoch of a document run, read from its history's patch markers (recorded histories of tests/replay). */
import fs from 'node:fs';
import path from 'node:path';
import { historyFromJson } from '../tests/replay/history-json';
import { DOCUMENT_RUN_EPOCH, epochPatchId } from '../workflows/document-contract';
import { epochOfHistory, patchesOfHistory } from './document-workflows';

const DIR = path.join(__dirname, '..', 'tests', 'replay', 'histories');
const read = (f: string) => historyFromJson(JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')).history);

describe('the epoch of a document run', () => {
  it('reads the patches a recorded run took, in order', () => {
    expect(patchesOfHistory(read('continue-as-new.transit-1.json'))).toEqual([
      'local-projection',
      'transit',
      'search-attributes',
    ]);
    expect(patchesOfHistory(read('continue-as-new-1.json'))).toEqual([]);
  });

  it('is 1 for every run recorded before epochs existed, 2 for those recorded since', () => {
    const documentRuns = fs
      .readdirSync(DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ f, h: read(f) }))
      .filter(
        ({ h }) =>
          h.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name === 'documentWorkflow',
      );
    expect(documentRuns.length).toBeGreaterThan(10);
    for (const { f, h } of documentRuns)
      expect([f, epochOfHistory(h)]).toEqual([f, f.includes('.epoch-2') ? 2 : 1]);
    // the run a freshRun signal continued, and the fresh run it continued into: both of epoch 2
    expect(epochOfHistory(read('fresh-run.epoch-2-1.json'))).toBe(2);
    expect(
      read('fresh-run.epoch-2-2.json').events?.[0]?.workflowExecutionStartedEventAttributes
        ?.continuedExecutionRunId,
    ).toBeTruthy();

    // the same history with the current epoch's marker after its first workflow task
    const h = read('continue-as-new-2.json');
    const marker = {
      eventId: 4,
      markerRecordedEventAttributes: {
        markerName: 'core_patch',
        details: {
          'patch-data': {
            payloads: [
              {
                data: Buffer.from(
                  JSON.stringify({ id: epochPatchId(DOCUMENT_RUN_EPOCH), deprecated: false }),
                ),
              },
            ],
          },
        },
      },
    };
    expect(epochOfHistory({ events: [...(h.events ?? []), marker] })).toBe(DOCUMENT_RUN_EPOCH);
    expect(epochOfHistory({ events: [marker, { markerRecordedEventAttributes: { markerName: 'x' } }] })).toBe(
      DOCUMENT_RUN_EPOCH,
    );
  });
});
