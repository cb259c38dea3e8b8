import { resizeActors, sortActors } from './actors';

const name = (n: number) => `Speaker ${n}`;
const two = [
  { actor: 'SPEAKER2', name: 'Bob' },
  { actor: 'SPEAKER1', name: 'Alice' },
];

describe('file parser actors', () => {
  it('orders speakers by their number', () => {
    expect(sortActors(two).map((a) => a.actor)).toEqual(['SPEAKER1', 'SPEAKER2']);
  });

  it('adds the next speakers with a default name when the count grows', () => {
    expect(resizeActors(two, 4, name)).toEqual([
      { actor: 'SPEAKER1', name: 'Alice' },
      { actor: 'SPEAKER2', name: 'Bob' },
      { actor: 'SPEAKER3', name: 'Speaker 3' },
      { actor: 'SPEAKER4', name: 'Speaker 4' },
    ]);
  });

  it('removes the highest-numbered speakers when the count shrinks', () => {
    expect(resizeActors(two, 1, name)).toEqual([{ actor: 'SPEAKER1', name: 'Alice' }]);
  });

  it('never goes below one speaker', () => {
    expect(resizeActors(two, 0, name)).toHaveLength(1);
  });

  it('numbers new speakers after the highest existing one', () => {
    expect(resizeActors([{ actor: 'SPEAKER5', name: 'E' }], 2, name)[1].actor).toBe('SPEAKER6');
  });
});
