import {
  checkFile,
  EMPTY_UPLOAD_STATE,
  nextToSend,
  percentOf,
  summary,
  uploadReducer,
  type UploadState,
} from './model';

const fileOf = (name: string, content: string | Uint8Array) => {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return {
    name,
    size: bytes.length,
    arrayBuffer: async () => bytes.slice().buffer as ArrayBuffer,
  } as unknown as File;
};
const limits = { maxBytes: 1024, officeMaxUncompressedBytes: 64 * 1024 * 1024 };

describe('checkFile (the API rule, before sending)', () => {
  it('accepts a text, refuses an extension, a mismatch and a file over the limit', async () => {
    expect(await checkFile(fileOf('a.txt', 'hello'), limits)).toBeNull();
    expect(await checkFile(fileOf('tool.exe', 'MZ'), limits)).toMatchObject({
      key: 'error.upload.reason.extension',
      params: { ext: 'exe' },
    });
    expect(await checkFile(fileOf('scan.png', 'plain words'), limits)).toMatchObject({
      key: 'error.upload.reason.mismatch',
      params: { expected: 'png', found: 'unknown' },
    });
    const big = fileOf('big.txt', 'x');
    Object.defineProperty(big, 'size', { value: 5000 });
    Object.defineProperty(big, 'arrayBuffer', {
      value: () => Promise.reject(new Error('a file over the limit is not read')),
    });
    expect(await checkFile(big, limits)).toEqual({
      key: 'error.upload.reason.tooLarge',
      params: { size: '5 KiB', max: '1 KiB' },
    });
  });
});

describe('uploadReducer', () => {
  const add = (state: UploadState, ...names: string[]) =>
    uploadReducer(state, {
      type: 'added',
      accepted: names.map((n) => ({ key: n, file: fileOf(n, 'abc'), nodeId: 1 })),
      rejected: [],
    });

  it('sends one file at a time, in order, and keeps failures for a retry', () => {
    let s = add(EMPTY_UPLOAD_STATE, 'a.txt', 'b.txt');
    expect(nextToSend(s)?.key).toBe('a.txt');
    s = uploadReducer(s, { type: 'started', key: 'a.txt' });
    expect(nextToSend(s)).toBeNull();
    s = uploadReducer(s, { type: 'progress', key: 'a.txt', loaded: 50, total: 200 });
    expect(percentOf(s.items[0])).toBe(25);
    s = uploadReducer(s, { type: 'failed', key: 'a.txt', error: new Error('x') });
    expect(nextToSend(s)?.key).toBe('b.txt');
    s = uploadReducer(s, { type: 'started', key: 'b.txt' });
    s = uploadReducer(s, { type: 'succeeded', key: 'b.txt', documentId: 9 });
    expect(s.items[1]).toMatchObject({ status: 'done', documentId: 9 });
    expect(percentOf(s.items[1])).toBe(100);
    expect(summary(s)).toEqual({ done: 1, failed: 1, waiting: 0, rejected: 0 });
    s = uploadReducer(s, { type: 'retry', key: 'a.txt' });
    expect(s.items[0]).toMatchObject({ status: 'queued', loaded: 0, error: undefined });
    expect(nextToSend(s)?.key).toBe('a.txt');
    s = uploadReducer(s, { type: 'clearDone' });
    expect(s.items.map((i) => i.key)).toEqual(['a.txt']);
  });

  it('lists rejected files apart and discards them one by one or all', () => {
    const reason = { key: 'error.upload.reason.empty', params: {} };
    let s = uploadReducer(EMPTY_UPLOAD_STATE, {
      type: 'added',
      accepted: [],
      rejected: [
        { key: 'r1', name: 'x.exe', size: 1, reason },
        { key: 'r2', name: 'y.exe', size: 1, reason },
      ],
    });
    expect(nextToSend(s)).toBeNull();
    s = uploadReducer(s, { type: 'discard', key: 'r1' });
    expect(s.rejected.map((r) => r.key)).toEqual(['r2']);
    s = uploadReducer(s, { type: 'discardAllRejected' });
    expect(s.rejected).toEqual([]);
  });
});
