import { issueInput } from './issues';

describe('issueInput', () => {
  it('builds the body of each anchor', () => {
    expect(issueInput(3, { startOffset: 1, endOffset: 4 }, 'd')).toEqual({
      docId: 3,
      text: 'd',
      stepId: null,
      type: 'TEXT',
      startOffset: 1,
      endOffset: 4,
    });
    expect(issueInput(3, { tokenIds: [5, 6] }, 'd', 9)).toEqual({
      docId: 3,
      text: 'd',
      stepId: 9,
      type: 'TOKEN',
      tokens: [{ id: 5 }, { id: 6 }],
    });
    expect(issueInput(3, { tagId: 7 }, 'd', 9)).toMatchObject({ type: 'TAG', tags: [{ id: 7 }], stepId: 9 });
    expect(issueInput(3, { tagId: 7, toTagId: 8 }, 'd')).toMatchObject({
      type: 'TAG',
      tags: [{ id: 7 }, { id: 8 }],
    });
    expect(issueInput(3, { relation: { fromId: 7, toId: 8, relationTypeId: 2 } }, 'd')).toMatchObject({
      type: 'RELATION',
      relation: { fromId: 7, toId: 8, relationTypeId: 2 },
    });
  });
});
