import { nextTarget, previousTarget } from './documentsNavigation';

describe('documents panel Previous / Next', () => {
  const ids = [30, 20, 10];

  it('goes to the neighbour in the list', () => {
    expect(nextTarget(ids, 30, false)).toEqual({ kind: 'go', id: 20 });
    expect(previousTarget(ids, 10, false)).toEqual({ kind: 'go', id: 20 });
  });

  it('wraps from the last to the first and from the first to the last when the list is complete', () => {
    expect(nextTarget(ids, 10, false)).toEqual({ kind: 'go', id: 30 });
    expect(previousTarget(ids, 30, false)).toEqual({ kind: 'go', id: 10 });
  });

  it('loads more before wrapping while the list has more pages', () => {
    expect(nextTarget(ids, 10, true)).toEqual({ kind: 'load' });
    expect(previousTarget(ids, 30, true)).toEqual({ kind: 'loadAll' });
    expect(nextTarget(ids, 20, true)).toEqual({ kind: 'go', id: 10 });
  });

  it('starts from the ends for a document not in the list, and stays on a list of itself', () => {
    expect(nextTarget(ids, 99, false)).toEqual({ kind: 'go', id: 30 });
    expect(previousTarget(ids, 99, false)).toEqual({ kind: 'go', id: 10 });
    expect(nextTarget([5], 5, false)).toEqual({ kind: 'none' });
    expect(previousTarget([5], 5, false)).toEqual({ kind: 'none' });
    expect(nextTarget([], 5, false)).toEqual({ kind: 'none' });
  });
});
