import { DEFAULT_TAG_COLOR, TAG_PALETTE, nextTagColor } from './palette';

describe('colour of a new tag or label', () => {
  it('takes a palette colour no other has yet, so that new labels differ', () => {
    const used: string[] = [];
    for (let i = 0; i < 5; i++) used.push(nextTagColor(used));
    expect(new Set(used).size).toBe(5);
    expect(used[0]).toBe(DEFAULT_TAG_COLOR);
  });

  it('ignores the case of stored colours and skips the taken ones', () => {
    expect(nextTagColor([DEFAULT_TAG_COLOR.toUpperCase(), null])).not.toBe(DEFAULT_TAG_COLOR);
  });

  it('goes round the palette again once every colour is taken', () => {
    expect(nextTagColor([...TAG_PALETTE])).toBe(DEFAULT_TAG_COLOR);
    expect(nextTagColor([...TAG_PALETTE, '#123456'])).not.toBe(DEFAULT_TAG_COLOR);
  });
});
