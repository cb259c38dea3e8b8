import type { TrainableConfig } from './graph-types';
import { untrainableReason } from './training';

const config = (requestPath: string | null): TrainableConfig => ({
  model: 'm',
  requestPath,
  automaticTraining: false,
  threshold: 10,
});

describe('untrainableReason', () => {
  it('accepts a CLF or SPAN node with a request path', () => {
    expect(untrainableReason('CLF', config('http://models/train'))).toBeNull();
    expect(untrainableReason('SPAN', config('http://models/train'))).toBeNull();
  });

  it('refuses other node types and nodes without a trainable configuration', () => {
    expect(untrainableReason('LEXICON', config('http://models/train'))).toBe('The node is not trainable');
    expect(untrainableReason('CLF', null)).toBe('The node is not trainable');
  });

  it('refuses a configuration without a request path', () => {
    expect(untrainableReason('SPAN', config(null))).toBe('The trainable node has no request path');
    expect(untrainableReason('SPAN', config('  '))).toBe('The trainable node has no request path');
  });
});
