import {
  TOKEN_EDIT_MESSAGES,
  canExtractRest,
  canExtractSelection,
  checkTokenEdit,
  clickedSegment,
  cycleActor,
  dropEmpty,
  extractRest,
  extractSelection,
  hintSuggestions,
  isTokenWord,
  moveExtracted,
  nextNewId,
  nextSelectable,
  splitTokenTimes,
  splitTokenWrite,
  tokenAt,
  transcriptBatch,
  type EditUtterance,
} from './transcript-edit';

const tok = (id: number, value = `w${id}`) => ({ id, value });
const utt = (
  id: number,
  ids: number[],
  actor = 'SPEAKER1',
): EditUtterance<{ id: number; value: string }> => ({
  id,
  actor,
  tokens: ids.map((i) => tok(i)),
});

describe('checkTokenEdit (spec 2 section 5)', () => {
  it('accepts one word, with Polish diacritics and a trailing , . or ?', () => {
    for (const w of ['żółć', 'Łódź,', 'pięć.', 'dlaczego?', 'Kowalski-Nowak', "don't", '2024'])
      expect(checkTokenEdit(w, true)).toEqual({ kind: 'words', words: [w] });
    expect(checkTokenEdit('  ala  ', true)).toEqual({ kind: 'words', words: ['ala'] });
  });

  it('accepts two words, which the edit splits', () => {
    expect(checkTokenEdit('ala  ma,', false)).toEqual({ kind: 'words', words: ['ala', 'ma,'] });
  });

  it("more than two words: 'Max two words allowed'", () => {
    expect(checkTokenEdit('ala ma kota', true)).toEqual({ kind: 'error', message: 'maxTwoWords' });
    expect(TOKEN_EDIT_MESSAGES.maxTwoWords).toBe('Max two words allowed');
  });

  it('empty: a deletion warning when deletion is allowed, else an error', () => {
    expect(checkTokenEdit('   ', true)).toEqual({ kind: 'delete', message: 'willDelete' });
    expect(checkTokenEdit('', false)).toEqual({ kind: 'error', message: 'cannotDelete' });
    expect(TOKEN_EDIT_MESSAGES.willDelete).toBe('The word will be deleted');
    expect(TOKEN_EDIT_MESSAGES.cannotDelete).toBe('The word cannot be deleted');
  });

  it("anything else: 'Invalid input'", () => {
    for (const w of ['ala!', ',ala', 'a,b', 'ala..', '<b>', 'ala ma!', '-ala'])
      expect(checkTokenEdit(w, true)).toEqual({ kind: 'error', message: 'invalid' });
    expect(isTokenWord('ala?')).toBe(true);
    expect(isTokenWord('?')).toBe(false);
  });
});

describe('splitTokenWrite', () => {
  const utterance = {
    id: 7,
    tokens: [
      { id: 1, tsStart: 0, tsEnd: 400 },
      { id: 2, tsStart: 450, tsEnd: 900 },
      { id: 3, tsStart: 880, tsEnd: 1200 },
    ],
  };
  it('keeps the first word on the token and puts the second after it as a new token, in one write', () => {
    expect(splitTokenWrite(utterance, utterance.tokens[0], 'ice', 'cream')).toEqual({
      id: 7,
      tokens: [
        { id: 1, value: 'ice' },
        { id: -1, value: 'cream', tsStart: 400, tsEnd: 450 },
        { id: 2 },
        { id: 3 },
      ],
    });
  });
  it('places the new token in time order when the next token starts before the old end', () => {
    expect(splitTokenWrite(utterance, utterance.tokens[1], 'ice', 'cream').tokens).toEqual([
      { id: 1 },
      { id: 2, value: 'ice' },
      { id: 3 },
      { id: -1, value: 'cream', tsStart: 900, tsEnd: 950 },
    ]);
  });
});

describe('splitTokenTimes', () => {
  it('the second word runs from the old end to the old end plus 50 ms', () => {
    expect(splitTokenTimes({ tsStart: 1000, tsEnd: 1400 })).toEqual({ tsStart: 1400, tsEnd: 1450 });
    expect(splitTokenTimes({ tsStart: 1000, tsEnd: null })).toEqual({ tsStart: 1000, tsEnd: 1050 });
  });
});

describe('hintSuggestions (hints menu)', () => {
  it('excludes the current value case-insensitively and repeats', () => {
    expect(hintSuggestions(['Kot', 'kod', 'KOD', 'kat'], { value: 'kot' })).toEqual(['kod', 'kat']);
  });
  it('keeps the punctuation that follows the word', () => {
    expect(hintSuggestions(['kod', 'kat.'], { value: 'kot?' })).toEqual(['kod?', 'kat?']);
  });
  it('capitalises after ? or .', () => {
    expect(hintSuggestions(['kod'], { value: 'kot' }, { value: 'tak.' })).toEqual(['Kod']);
    expect(hintSuggestions(['kod'], { value: 'kot' }, { value: '?' })).toEqual(['Kod']);
    expect(hintSuggestions(['kod'], { value: 'kot' }, { value: 'tak,' })).toEqual(['kod']);
  });
});

describe('traversal and playback', () => {
  const tokens = [{ value: 'ala' }, { value: ',' }, { value: 'ma' }, { value: '?' }];
  it('skips punctuation tokens both ways and stays at the ends', () => {
    expect(nextSelectable(tokens, 0, 1)).toBe(2);
    expect(nextSelectable(tokens, 2, 1)).toBe(2);
    expect(nextSelectable(tokens, 2, -1)).toBe(0);
    expect(nextSelectable(tokens, -1, 1)).toBe(0);
    expect(nextSelectable(tokens, -1, -1)).toBe(2);
  });

  it('finds the token being spoken, none in a pause', () => {
    const ts = [
      { tsStart: 0, tsEnd: 300 },
      { tsStart: 400, tsEnd: 700 },
      { tsStart: 700, tsEnd: 900 },
    ];
    expect(tokenAt(ts, 150)).toBe(0);
    expect(tokenAt(ts, 350)).toBe(-1);
    expect(tokenAt(ts, 700)).toBe(2);
    expect(tokenAt(ts, 5000)).toBe(-1);
    expect(tokenAt([], 10)).toBe(-1);
  });

  it('the clicked segment is the token ±0.5 s in seconds', () => {
    expect(clickedSegment({ tsStart: 1200, tsEnd: 1500 })).toEqual({ start: 0.7, end: 2 });
    expect(clickedSegment({ tsStart: 100, tsEnd: 300 })).toEqual({ start: 0, end: 0.8 });
  });

  it('cycles actors both ways', () => {
    const actors = ['SPEAKER1', 'SPEAKER2', 'ARTIFACT'];
    expect(cycleActor(actors, 'SPEAKER1', 1)).toBe('SPEAKER2');
    expect(cycleActor(actors, 'ARTIFACT', 1)).toBe('SPEAKER1');
    expect(cycleActor(actors, 'SPEAKER1', -1)).toBe('ARTIFACT');
    expect(cycleActor(actors, 'GONE', 1)).toBe('SPEAKER1');
  });
});

describe('structural edits', () => {
  it('new ids go from -1 down', () => {
    expect(nextNewId([{ id: 5 }])).toBe(-1);
    expect(nextNewId([{ id: 5 }, { id: -1 }, { id: -3 }])).toBe(-4);
  });

  it("']' is refused on the first token, 'e' at the edges", () => {
    const t = [{ value: 'a' }, { value: 'b' }, { value: 'c' }, { value: '.' }];
    expect(canExtractRest(t, 0)).toBe(false);
    expect(canExtractRest(t, 1)).toBe(true);
    expect(canExtractSelection(t, 1, 1)).toBe(true);
    expect(canExtractSelection(t, 0, 1)).toBe(false);
    expect(canExtractSelection(t, 1, 2)).toBe(false); // c is the last word (the '.' is punctuation)
  });

  it("']' splits the rest into a new utterance after the source", () => {
    const list = [utt(1, [10, 11, 12]), utt(2, [20])];
    const r = extractRest(list, 1, 1)!;
    expect(r.list.map((u) => [u.id, u.tokens.map((t) => t.id)])).toEqual([
      [1, [10]],
      [-1, [11, 12]],
      [2, [20]],
    ]);
    expect(r.extraction).toEqual({ sourceId: 1, blockId: -1, place: 'own' });
    expect(extractRest(list, 1, 0)).toBeNull();
  });

  it("'e' cuts the selection and the tail into new utterances; up/down merge and come back", () => {
    const list = [utt(1, [10, 11, 12, 13], 'SPEAKER2')];
    const r = extractSelection(list, 1, 2, 1)!;
    expect(r.list.map((u) => [u.id, u.actor, u.tokens.map((t) => t.id)])).toEqual([
      [1, 'SPEAKER2', [10]],
      [-1, 'SPEAKER2', [11, 12]],
      [-2, 'SPEAKER2', [13]],
    ]);
    const block = r.list[1].tokens;
    const up = moveExtracted(r.list, r.extraction, block, -1)!;
    expect(up.list.map((u) => [u.id, u.tokens.map((t) => t.id)])).toEqual([
      [1, [10, 11, 12]],
      [-2, [13]],
    ]);
    expect(up.extraction.place).toBe('previous');
    expect(moveExtracted(up.list, up.extraction, block, -1)).toBeNull();
    const back = moveExtracted(up.list, up.extraction, block, 1)!;
    expect(back.list.map((u) => [u.id, u.tokens.map((t) => t.id)])).toEqual(
      r.list.map((u) => [u.id, u.tokens.map((t) => t.id)]),
    );
    const down = moveExtracted(back.list, back.extraction, block, 1)!;
    expect(down.list.map((u) => [u.id, u.tokens.map((t) => t.id)])).toEqual([
      [1, [10]],
      [-2, [11, 12, 13]],
    ]);
    expect(extractSelection(list, 1, 0, 1)).toBeNull();
    expect(extractSelection(list, 1, 1, 3)).toBeNull();
  });

  it('the first utterance has nothing to merge with upward', () => {
    const r = extractRest([utt(1, [10, 11])], 1, 1)!;
    const up = moveExtracted(r.list, r.extraction, r.list[1].tokens, -1)!;
    expect(up.list.map((u) => u.tokens.map((t) => t.id))).toEqual([[10, 11]]);
    const only = extractRest([utt(1, [10, 11])], 1, 1)!;
    expect(moveExtracted(only.list, only.extraction, only.list[1].tokens, 1)).toBeNull();
  });

  it('batches the new utterances and the changed ones with their neighbours in the edited order', () => {
    const linked = (list: EditUtterance<{ id: number; value: string }>[]) =>
      list.map((u, i) => ({ ...u, prevId: list[i - 1]?.id ?? null, nextId: list[i + 1]?.id ?? null }));
    const saved = linked([utt(1, [10, 11, 12]), utt(2, [20]), utt(3, [30])]);
    const edited = dropEmpty([
      utt(1, [10]),
      { ...utt(-1, [11, 12]), actor: 'SPEAKER2' },
      utt(2, [20]),
      { id: 3, actor: 'SPEAKER1', tokens: [] },
    ]);
    expect(transcriptBatch(saved, edited)).toEqual([
      { id: 1, actor: 'SPEAKER1', prevId: null, nextId: -1, tokens: [{ id: 10 }] },
      { id: -1, actor: 'SPEAKER2', prevId: 1, nextId: 2, tokens: [{ id: 11 }, { id: 12 }] },
      { id: 2, actor: 'SPEAKER1', prevId: -1, nextId: null },
    ]);
    expect(transcriptBatch(saved, saved)).toEqual([]);
  });
});
