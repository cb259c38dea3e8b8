import { mergeWorkers, parseExposition, writeExposition } from './prometheus-text';

const worker = (
  slots: number,
  count: number,
) => `# HELP temporal_worker_task_slots_available Current number of available slots per task type
# TYPE temporal_worker_task_slots_available gauge
temporal_worker_task_slots_available{namespace="default",worker_type="ActivityWorker"} ${slots}
# HELP temporal_activity_execution_latency Histogram of activity execution latencies
# TYPE temporal_activity_execution_latency histogram
temporal_activity_execution_latency_bucket{activity_type="parse",le="100"} ${count}
temporal_activity_execution_latency_bucket{activity_type="parse",le="+Inf"} ${count}
temporal_activity_execution_latency_sum{activity_type="parse"} 42.5
temporal_activity_execution_latency_count{activity_type="parse"} ${count}
`;

describe('Prometheus text of the workers', () => {
  it('reads families with their histogram series, labels and values', () => {
    const families = parseExposition(worker(100, 3));
    expect(families.map((f) => [f.name, f.type, f.samples.length])).toEqual([
      ['temporal_worker_task_slots_available', 'gauge', 1],
      ['temporal_activity_execution_latency', 'histogram', 4],
    ]);
    expect(families[1].samples[3]).toEqual({
      name: 'temporal_activity_execution_latency_count',
      labels: { activity_type: 'parse' },
      value: 3,
    });
  });

  it('writes each family once for several workers, every sample labelled with its worker', () => {
    const text = writeExposition(
      mergeWorkers([
        { worker: 'w1:9464', text: worker(100, 3) },
        { worker: 'w2:9464', text: worker(98, 5) },
      ]),
    );
    expect(text.match(/# TYPE temporal_worker_task_slots_available gauge/g)).toHaveLength(1);
    expect(text).toContain(
      'temporal_worker_task_slots_available{worker="w1:9464",namespace="default",worker_type="ActivityWorker"} 100',
    );
    expect(text).toContain(
      'temporal_activity_execution_latency_count{worker="w2:9464",activity_type="parse"} 5',
    );
    // and it reads back the same
    expect(
      parseExposition(text).find((f) => f.name === 'temporal_activity_execution_latency')!.samples,
    ).toHaveLength(8);
  });

  it('writes a label value read from a worker exactly as the worker wrote it (escaped once)', () => {
    const text = [
      '# TYPE odd_total counter',
      'odd_total{path="a\\"b",dir="C:\\\\x",lines="one\\ntwo"} 2',
      '',
    ].join('\n');
    const [family] = parseExposition(text);
    expect(family.samples[0].labels).toEqual({ path: 'a"b', dir: 'C:\\x', lines: 'one\ntwo' });
    expect(writeExposition(parseExposition(text))).toBe(text);
    const merged = writeExposition(mergeWorkers([{ worker: 'w1', text }]));
    expect(merged).toContain('odd_total{worker="w1",path="a\\"b",dir="C:\\\\x",lines="one\\ntwo"} 2');
  });
});
