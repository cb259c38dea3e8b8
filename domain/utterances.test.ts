import {
  linkedListProblem,
  neighbourhoodListProblem,
  planTranscriptWrite,
  restructuresList,
  timeOrderPosition,
  tokenOrderBreak,
  tokenTimesViolation,
  tokenValueProblem,
  unlinkUtterances,
  utteranceOrderBreak,
  type TokenState,
  type TranscriptWrite,
  type UtteranceState,
} from './utterances';

const tok = (id: number, utteranceId: number, tsStart: number, value = `w${id}`): TokenState => ({
  id,
  utteranceId,
  value,
  tsStart,
  tsEnd: tsStart + 100,
  properties: [],
  unclear: false,
});

/** Three utterances 1 -> 2 -> 3 with tokens 11,12,13 / 21,22 / 31. */
function transcript() {
  const utterances: UtteranceState[] = [
    { id: 1, actor: 'SPEAKER1', prevId: null, nextId: 2, tokenIds: [11, 12, 13] },
    { id: 2, actor: 'SPEAKER2', prevId: 1, nextId: 3, tokenIds: [21, 22] },
    { id: 3, actor: 'SPEAKER1', prevId: 2, nextId: null, tokenIds: [31] },
  ];
  const tokens = [
    tok(11, 1, 0),
    tok(12, 1, 200),
    tok(13, 1, 400),
    tok(21, 2, 1000),
    tok(22, 2, 1200),
    tok(31, 3, 2000),
  ];
  return { utterances, tokens };
}

const write = (over: Partial<TranscriptWrite>): TranscriptWrite => ({
  patches: [],
  createdUtterances: new Set(),
  createdTokens: new Set(),
  actors: new Set(['SPEAKER1', 'SPEAKER2', 'ARTIFACT']),
  ...over,
});

const plan = (w: Partial<TranscriptWrite>) => {
  const { utterances, tokens } = transcript();
  return planTranscriptWrite(utterances, tokens, write(w));
};

describe('single rules', () => {
  it('accepts one word with Polish letters and a trailing mark, or a punctuation mark alone', () => {
    for (const v of ['Zażółć', 'gęślą,', 'jaźń?', 'koniec.', ',', '?', "O'Neil"])
      expect(tokenValueProblem(v)).toBeNull();
    for (const v of ['', 'dwa słowa', 'abc1', 'a..', ' a'])
      expect(tokenValueProblem(v)?.key).toBe('error.token.value');
  });

  it('wants whole milliseconds with the end not before the start', () => {
    expect(tokenTimesViolation(100, 100)).toBeNull();
    expect(tokenTimesViolation(null, null)).toBeNull();
    expect(tokenTimesViolation(200, 100)?.key).toBe('error.token.endBeforeStart');
    expect(tokenTimesViolation(1.5, 100)?.key).toBe('error.token.times');
    expect(tokenTimesViolation(-1, 100)?.key).toBe('error.token.times');
    expect(tokenTimesViolation(100, null)?.key).toBe('error.token.times');
  });

  it('finds the first token out of time order, skipping tokens without times', () => {
    expect(tokenOrderBreak([{ tsStart: 0 }, { tsStart: null }, { tsStart: 10 }])).toBe(-1);
    expect(tokenOrderBreak([{ tsStart: 10 }, { tsStart: 5 }])).toBe(1);
    expect(timeOrderPosition([{ tsStart: 0 }, { tsStart: 100 }, { tsStart: 200 }], 100)).toBe(2);
    expect(timeOrderPosition([{ tsStart: 50 }], 0)).toBe(0);
  });

  it('sees every way a linked list breaks', () => {
    expect(linkedListProblem(transcript().utterances)).toBeNull();
    expect(linkedListProblem([])).toBeNull();
    const one = (links: [number, number | null, number | null][]) =>
      linkedListProblem(links.map(([id, prevId, nextId]) => ({ id, prevId, nextId })))?.key;
    expect(
      one([
        [1, null, 2],
        [2, null, null],
      ]),
    ).toBe('error.utterance.brokenList'); // no way back
    expect(
      one([
        [1, null, null],
        [2, null, null],
      ]),
    ).toBe('error.utterance.brokenList'); // two heads
    expect(
      one([
        [1, 2, 2],
        [2, 1, 1],
      ]),
    ).toBe('error.utterance.brokenList'); // a cycle, no head
    expect(one([[1, null, 9]])).toBe('error.utterance.brokenList'); // a dangling link
  });

  it('links the neighbours of removed utterances to each other', () => {
    const out = unlinkUtterances(transcript().utterances, new Set([2]));
    expect(out.map((u) => [u.id, u.prevId, u.nextId])).toEqual([
      [1, null, 3],
      [3, 1, null],
    ]);
    const ends = unlinkUtterances(transcript().utterances, new Set([1, 3]));
    expect(ends.map((u) => [u.id, u.prevId, u.nextId])).toEqual([[2, null, null]]);
  });
});

describe('planTranscriptWrite', () => {
  it('changes an actor and a token value', () => {
    const r = plan({
      patches: [{ id: 2, actor: 'SPEAKER1', tokens: [{ id: 21, value: 'Ala' }, { id: 22 }] }],
    });
    if (!('plan' in r)) throw new Error(r.problem.detail);
    expect(r.plan.utterances.find((u) => u.id === 2)!.actor).toBe('SPEAKER1');
    expect(r.plan.tokens.get(21)!.value).toBe('Ala');
    expect([...r.plan.changedTokens]).toEqual([21]);
  });

  it('refuses an actor the process does not have', () => {
    const r = plan({ patches: [{ id: 2, actor: 'NOBODY' }] });
    expect('problem' in r && r.problem.key).toBe('error.utterance.actor');
  });

  it('extracts tokens into a new utterance between the old one and its next', () => {
    const r = plan({
      createdUtterances: new Set([100]),
      patches: [
        { id: 1, nextId: 100, tokens: [{ id: 11 }] },
        { id: 100, actor: 'SPEAKER2', prevId: 1, nextId: 2, tokens: [{ id: 12 }, { id: 13 }] },
        { id: 2, prevId: 100 },
      ],
    });
    if (!('plan' in r)) throw new Error(r.problem.detail);
    const byId = new Map(r.plan.utterances.map((u) => [u.id, u]));
    expect(byId.get(100)).toMatchObject({ prevId: 1, nextId: 2, tokenIds: [12, 13] });
    expect(r.plan.tokens.get(12)!.utteranceId).toBe(100);
    expect([...r.plan.touched].sort()).toEqual([1, 100, 2].sort());
  });

  it('removes an utterance whose tokens all moved away and links its neighbours (a merge)', () => {
    const r = plan({ patches: [{ id: 1, tokens: [11, 12, 13, 21, 22].map((id) => ({ id })) }] });
    if (!('plan' in r)) throw new Error(r.problem.detail);
    expect(r.plan.removed).toEqual([2]);
    expect(r.plan.utterances.map((u) => [u.id, u.prevId, u.nextId])).toEqual([
      [1, null, 3],
      [3, 1, null],
    ]);
  });

  it('refuses a write that breaks the list, loses tokens, names a token twice or an unknown one', () => {
    const key = (w: Partial<TranscriptWrite>) => {
      const r = plan(w);
      return 'problem' in r ? r.problem.key : null;
    };
    expect(key({ patches: [{ id: 3, nextId: 1 }] })).toBe('error.utterance.brokenList');
    expect(key({ patches: [{ id: 2, prevId: null }] })).toBe('error.utterance.brokenList');
    expect(key({ patches: [{ id: 1, tokens: [{ id: 11 }] }] })).toBe('error.utterance.lostTokens');
    expect(key({ patches: [{ id: 1, tokens: [11, 12, 13, 11].map((id) => ({ id })) }] })).toBe(
      'error.token.twice',
    );
    expect(key({ patches: [{ id: 1, tokens: [11, 12, 13, 99].map((id) => ({ id })) }] })).toBe(
      'error.token.unknown',
    );
    expect(key({ patches: [{ id: 7, actor: 'SPEAKER1' }] })).toBe('error.utterance.unknown');
    expect(
      key({ createdUtterances: new Set([100]), patches: [{ id: 100, actor: 'SPEAKER1', tokens: [] }] }),
    ).toBe('error.utterance.newWithoutTokens');
  });

  it('refuses times out of order, an end before its start, and a value that is not a word', () => {
    const key = (tokens: { id: number; value?: string; tsStart?: number; tsEnd?: number }[]) => {
      const r = plan({ patches: [{ id: 2, tokens }] });
      return 'problem' in r ? r.problem.key : null;
    };
    expect(key([{ id: 22 }, { id: 21 }])).toBe('error.token.order');
    expect(key([{ id: 21, tsStart: 1100, tsEnd: 1050 }, { id: 22 }])).toBe('error.token.endBeforeStart');
    expect(key([{ id: 21, value: 'dwa słowa' }, { id: 22 }])).toBe('error.token.value');
    expect(key([{ id: 21 }, { id: 22, tsStart: 1000, tsEnd: 1300 }])).toBeNull();
    // new times alone (the same token list) are held to the order too
    expect(key([{ id: 21, tsStart: 1300, tsEnd: 1350 }, { id: 22 }])).toBe('error.token.order');
  });

  it('deletes a token, and the utterance with its last token', () => {
    const r = plan({ deletedTokens: [31] });
    if (!('plan' in r)) throw new Error(r.problem.detail);
    expect(r.plan.removed).toEqual([3]);
    expect(r.plan.utterances.find((u) => u.id === 2)!.nextId).toBeNull();
    expect(r.plan.tokens.has(31)).toBe(false);
  });

  it('adds a new token in place', () => {
    const r = plan({
      createdTokens: new Set([500]),
      patches: [{ id: 3, tokens: [{ id: 31 }, { id: 500, value: 'nowe', tsStart: 2100, tsEnd: 2150 }] }],
    });
    if (!('plan' in r)) throw new Error(r.problem.detail);
    expect(r.plan.tokens.get(500)).toMatchObject({ utteranceId: 3, value: 'nowe', tsStart: 2100 });
    expect(r.plan.changedTokens.has(500)).toBe(true);
  });
});

describe('neighbours and the neighbourhood of a write', () => {
  /** The write planned over utterances `ids` only (and their tokens), as the API reads a neighbourhood. */
  const local = (ids: number[], w: Partial<TranscriptWrite>) => {
    const { utterances, tokens } = transcript();
    return planTranscriptWrite(
      utterances.filter((u) => ids.includes(u.id)),
      tokens.filter((t) => ids.includes(t.utteranceId)),
      write(w),
      'neighbourhood',
    );
  };
  const keyOf = (r: ReturnType<typeof local>) => ('problem' in r ? r.problem.key : null);

  it('orders neighbours by the last timed start of one and the first timed start of the next', () => {
    expect(utteranceOrderBreak([{ tsStart: 0 }, { tsStart: 500 }], [{ tsStart: 500 }])).toBe(false);
    expect(utteranceOrderBreak([{ tsStart: 0 }, { tsStart: 500 }], [{ tsStart: 499 }])).toBe(true);
    expect(
      utteranceOrderBreak([{ tsStart: 500 }, { tsStart: null }], [{ tsStart: null }, { tsStart: 400 }]),
    ).toBe(true);
    expect(utteranceOrderBreak([{ tsStart: null }], [{ tsStart: 0 }])).toBe(false);
  });

  it('checks the links inside a neighbourhood and does not follow those leaving it', () => {
    const [, middle, last] = transcript().utterances;
    expect(neighbourhoodListProblem([middle, last])).toBeNull(); // 2's prevId 1 leaves it
    expect(neighbourhoodListProblem([middle, { ...last, prevId: null }])?.key).toBe(
      'error.utterance.brokenList',
    );
  });

  it('plans over the document a write that creates utterances or names other links', () => {
    const links = new Map(transcript().utterances.map((u) => [u.id, u]));
    const none = new Set<number>();
    expect(
      restructuresList(links, { createdUtterances: none, patches: [{ id: 2, prevId: 1, nextId: 3 }] }),
    ).toBe(false);
    expect(
      restructuresList(links, { createdUtterances: none, patches: [{ id: 2, actor: 'X', tokens: [] }] }),
    ).toBe(false);
    expect(restructuresList(links, { createdUtterances: none, patches: [{ id: 2, nextId: null }] })).toBe(
      true,
    );
    expect(restructuresList(links, { createdUtterances: none, patches: [{ id: 9, prevId: null }] })).toBe(
      true,
    );
    expect(restructuresList(links, { createdUtterances: new Set([100]), patches: [] })).toBe(true);
    expect(() => local([1, 2, 3], { patches: [{ id: 3, nextId: 1 }] })).toThrow(/whole document/);
  });

  it('refuses a token retimed before the last word of the utterance before, in either scope', () => {
    // 21 is the first word of utterance 2; utterance 1's last word starts at 400
    const retime = { patches: [{ id: 2, tokens: [{ id: 21, tsStart: 350, tsEnd: 1100 }, { id: 22 }] }] };
    expect(local([1, 2, 3], retime)).toMatchObject({ problem: { key: 'error.utterance.order' } });
    expect(plan(retime)).toMatchObject({ problem: { key: 'error.utterance.order' } });
    // and after the first word of the utterance after
    const late = { patches: [{ id: 2, tokens: [{ id: 21 }, { id: 22, tsStart: 2001, tsEnd: 2100 }] }] };
    expect(keyOf(local([1, 2, 3], late))).toBe('error.utterance.order');
    // a new token of utterance 1 starting after utterance 2's first word
    const added = {
      createdTokens: new Set([500]),
      patches: [
        {
          id: 1,
          tokens: [{ id: 11 }, { id: 12 }, { id: 13 }, { id: 500, value: 'x', tsStart: 1001, tsEnd: 1050 }],
        },
      ],
    };
    expect(keyOf(local([1, 2], added))).toBe('error.utterance.order');
    // up to the neighbour's start is in order
    expect(
      keyOf(
        local([1, 2, 3], {
          patches: [{ id: 2, tokens: [{ id: 21, tsStart: 400, tsEnd: 1100 }, { id: 22 }] }],
        }),
      ),
    ).toBeNull();
  });

  it('keeps editable a pair of neighbours that was out of order before the write (overlapping speakers)', () => {
    const { utterances, tokens } = transcript();
    const overlapping = tokens.map((t) => (t.id === 21 ? { ...t, tsStart: 300 } : t));
    const r = planTranscriptWrite(
      utterances,
      overlapping,
      write({ patches: [{ id: 2, tokens: [{ id: 21, value: 'Ola' }, { id: 22 }] }] }),
      'neighbourhood',
    );
    expect(keyOf(r)).toBeNull();
  });

  it('plans a token edit over its utterance and neighbours as over the whole document', () => {
    const w = { patches: [{ id: 2, tokens: [{ id: 21, value: 'Ala' }, { id: 22 }] }] };
    const near = local([1, 2, 3], w);
    const all = plan(w);
    if (!('plan' in near) || !('plan' in all)) throw new Error('refused');
    expect([...near.plan.changedTokens, ...near.plan.touched]).toEqual([
      ...all.plan.changedTokens,
      ...all.plan.touched,
    ]);
    expect(near.plan.tokens.get(21)).toEqual(all.plan.tokens.get(21));
  });

  it('removes an emptied utterance and links its neighbours within the neighbourhood', () => {
    const r = local([1, 2, 3], { deletedTokens: [21, 22] });
    if (!('plan' in r)) throw new Error(r.problem.detail);
    expect(r.plan.removed).toEqual([2]);
    expect(r.plan.utterances.map((u) => [u.id, u.prevId, u.nextId])).toEqual([
      [1, null, 3],
      [3, 1, null],
    ]);
    expect([...r.plan.touched].sort()).toEqual([1, 3]);
    // the merge by moving tokens: utterance 3 takes 2's tokens, 2 goes, 1 and 3 are linked
    const merged = local([1, 2, 3], { patches: [{ id: 3, tokens: [21, 22, 31].map((id) => ({ id })) }] });
    if (!('plan' in merged)) throw new Error(merged.problem.detail);
    expect(merged.plan.removed).toEqual([2]);
    expect(merged.plan.utterances.find((u) => u.id === 3)).toMatchObject({
      prevId: 1,
      tokenIds: [21, 22, 31],
    });
  });
});
