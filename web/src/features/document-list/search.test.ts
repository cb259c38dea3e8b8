import { emptyInputs, searchBody, splitValues } from './search';

describe('document list search body', () => {
  it('splits typed values on commas, trimmed, blanks and duplicates dropped', () => {
    expect(splitValues(' Anna, Jan Nowak ,, Anna ')).toEqual(['Anna', 'Jan Nowak']);
    expect(splitValues('')).toEqual([]);
  });

  it('sends only the chosen mode criterion', () => {
    const inputs = { ...emptyInputs(), content: ' lease ', classifierTypeIds: [3] };
    expect(searchBody(7, inputs)).toEqual({ processId: 7, discriminator: 'BY_CONTENT', content: 'lease' });
    expect(searchBody(7, { ...inputs, mode: 'BY_CLASSIFIER_TAG' })).toEqual({
      processId: 7,
      discriminator: 'BY_CLASSIFIER_TAG',
      typeList: [3],
    });
  });

  it('merges NER rows of one type and leaves rows without a type out', () => {
    const body = searchBody(7, {
      ...emptyInputs('BY_NER_TAG'),
      nerTags: [
        { typeId: 1, values: 'Anna' },
        { typeId: null, values: 'ignored' },
        { typeId: 2, values: '' },
        { typeId: 1, values: 'Jan, Anna' },
      ],
    });
    expect(body).toEqual({
      processId: 7,
      discriminator: 'BY_NER_TAG',
      tagTypeContentMap: { 1: ['Anna', 'Jan'], 2: [] },
    });
  });
});
