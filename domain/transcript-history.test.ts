import {
  createdIds,
  recordChange,
  remapStack,
  replayPlan,
  type BatchAnswer,
  type ReplayPlan,
  type TranscriptStack,
  type UtteranceSnap,
} from './transcript-history';
import { emptyStack, pushOp, takeRedo, takeUndo, UNDO_LIMIT } from './undo-stack';
import { planTranscriptWrite, type TokenState, type UtterancePatch, type UtteranceState } from './utterances';
import { splitTokenWrite } from './transcript-edit';

/**
 * The server's side of a write, as api/services/utterances.ts does it: new (negative) ids allocated, the
 * write planned by `planTranscriptWrite` (a problem throws, nothing changes), the plan kept. A deleted token
 * is kept with its tag links (`tagLinks`, token id to tag ids), and a write naming it again by its id brings
 * it back with them.
 */
class Transcript {
  utterances: UtteranceState[] = [];
  tokens = new Map<number, TokenState>();
  tagLinks = new Map<number, number[]>();
  private deleted = new Map<number, number[]>();
  private seq = 1000;

  constructor(rows: { actor: string; words: [string, number][] }[]) {
    const patches: UtterancePatch[] = rows.map((r, i) => ({
      id: -(i + 1),
      actor: r.actor,
      prevId: i > 0 ? -i : null,
      nextId: i < rows.length - 1 ? -(i + 2) : null,
      tokens: r.words.map(([value, at]) => ({ id: -1, value, tsStart: at, tsEnd: at + 100 })),
    }));
    let t = 0;
    for (const p of patches) for (const tok of p.tokens!) tok.id = -++t;
    this.write(patches);
  }

  write(patches: UtterancePatch[], deletedTokens: number[] = []) {
    const uIds = new Map<number, number>();
    const tIds = new Map<number, number>();
    for (const p of patches) {
      if (p.id < 0 && !uIds.has(p.id)) uIds.set(p.id, ++this.seq);
      for (const t of p.tokens ?? []) if (t.id < 0 && !tIds.has(t.id)) tIds.set(t.id, ++this.seq);
    }
    const link = (v: number | null | undefined) => (v != null && v < 0 ? uIds.get(v)! : v);
    const mapped = patches.map((p) => ({
      ...p,
      id: uIds.get(p.id) ?? p.id,
      prevId: link(p.prevId),
      nextId: link(p.nextId),
      tokens: p.tokens?.map((t) => ({ ...t, id: tIds.get(t.id) ?? t.id })),
    }));
    const restored = mapped
      .flatMap((p) => (p.tokens ?? []).map((t) => t.id))
      .filter((id) => !this.tokens.has(id) && this.deleted.has(id));
    const r = planTranscriptWrite(this.utterances, [...this.tokens.values()], {
      patches: mapped,
      createdUtterances: new Set(uIds.values()),
      createdTokens: new Set([...tIds.values(), ...restored]),
      deletedTokens,
      actors: new Set(['SPEAKER1', 'SPEAKER2', 'ARTIFACT']),
    });
    if ('problem' in r) throw new Error(r.problem.key);
    this.utterances = r.plan.utterances;
    this.tokens = r.plan.tokens;
    for (const id of deletedTokens) {
      this.deleted.set(id, this.tagLinks.get(id) ?? []);
      this.tagLinks.delete(id);
    }
    for (const id of restored) {
      this.tagLinks.set(id, this.deleted.get(id)!);
      this.deleted.delete(id);
    }
    return { uIds, tIds };
  }

  /** The transcript as GET api/asr-documents/{id}/utterances answers it: in list order. */
  list(): UtteranceSnap[] {
    const byId = new Map(this.utterances.map((u) => [u.id, u]));
    const out: UtteranceSnap[] = [];
    for (let u = this.utterances.find((x) => x.prevId === null); u; u = byId.get(u.nextId ?? NaN))
      out.push({
        id: u.id,
        actor: u.actor,
        prevId: u.prevId,
        nextId: u.nextId,
        tokens: u.tokenIds.map((id) => {
          const { utteranceId: _, ...t } = this.tokens.get(id)!;
          return t;
        }),
      });
    return out;
  }

  utteranceOf(tokenId: number) {
    return this.utterances.find((u) => u.tokenIds.includes(tokenId))!;
  }

  // the token routes
  updateToken(id: number, change: Partial<TokenState>) {
    const u = this.utteranceOf(id);
    this.write([{ id: u.id, tokens: u.tokenIds.map((x) => (x === id ? { id, ...change } : { id: x })) }]);
  }
  deleteToken(id: number) {
    this.write([], [id]);
  }
  /** POST api/utterances/batch with its deleted tokens (one write): the new utterances' ids. */
  batch(items: UtterancePatch[], deletedTokens: number[] = []): BatchAnswer {
    const { uIds } = this.write(items, deletedTokens);
    return { ids: Object.fromEntries([...uIds].map(([k, v]) => [String(k), v])) };
  }
}

/** What the editor hook does with a plan: one batch with its deletions. */
function replay(server: Transcript, plan: ReplayPlan) {
  const answer =
    plan.batch.length || plan.deleteTokens.length ? server.batch(plan.batch, plan.deleteTokens) : { ids: {} };
  return createdIds(plan, answer);
}

const words = (list: UtteranceSnap[]) =>
  list.map((u) => `${u.actor}: ${u.tokens.map((t) => t.value).join(' ')}`);

/** Every utterance of the region, exactly as the server now has it. */
const expectOnServer = (server: Transcript, region: UtteranceSnap[]) => {
  const now = server.list();
  for (const u of region) expect(now.find((x) => x.id === u.id)).toEqual(u);
};

/**
 * Makes an edit, records it, undoes it (the server's transcript is the first one again, ids aside), redoes
 * it (the edited one again) and undoes it once more; the stack's regions always name what the server has.
 */
function undoRedo(server: Transcript, edit: (s: Transcript) => void) {
  const first = server.list();
  edit(server);
  const edited = server.list();
  const op = recordChange(first, edited);
  expect(op).not.toBeNull();
  let stack: TranscriptStack = pushOp(emptyStack, op!);

  for (let round = 0; round < 2; round++) {
    const u = takeUndo(stack)!;
    stack = remapStack(u.stack, replay(server, replayPlan(u.op.after, u.op.before)));
    expect(words(server.list())).toEqual(words(first));
    expectOnServer(server, stack.future.at(-1)!.before);
    if (round === 1) break;
    const r = takeRedo(stack)!;
    stack = remapStack(r.stack, replay(server, replayPlan(r.op.before, r.op.after)));
    expect(words(server.list())).toEqual(words(edited));
    expectOnServer(server, stack.past.at(-1)!.after);
  }
  return { first, edited };
}

const sample = () =>
  new Transcript([
    {
      actor: 'SPEAKER1',
      words: [
        ['ala', 0],
        ['ma', 200],
        ['kota', 400],
      ],
    },
    {
      actor: 'SPEAKER2',
      words: [
        ['a', 1000],
        ['kot', 1200],
        ['ma', 1400],
        ['ale', 1600],
      ],
    },
    { actor: 'SPEAKER1', words: [['koniec', 2000]] },
  ]);

describe('recordChange', () => {
  it('keeps only the utterances that differ, with the neighbours whose links changed', () => {
    const s = sample();
    const before = s.list();
    s.updateToken(before[1].tokens[1].id, { value: 'pies' });
    const op = recordChange(before, s.list())!;
    expect(op.before.map((u) => u.id)).toEqual([before[1].id]);
    expect(op.after[0].tokens[1].value).toBe('pies');
    expect(recordChange(s.list(), s.list())).toBeNull();
  });

  it('is a copy: later changes of the lists do not reach the stack', () => {
    const s = sample();
    const before = s.list();
    const after = structuredClone(s.list());
    after[0].tokens[0].properties.push('NOISE');
    const op = recordChange(before, after)!;
    after[0].tokens[0].properties.push('INAUDIBLE');
    expect(op.after[0].tokens[0].properties).toEqual(['NOISE']);
  });
});

describe('undo and redo of transcript edits through the server planner', () => {
  it('an inline word fix', () => {
    const s = sample();
    const id = s.list()[0].tokens[2].id;
    undoRedo(s, (x) => x.updateToken(id, { value: 'psa' }));
    expect(s.tokens.get(id)!.value).toBe('kota');
  });

  it('a split into two words: undo deletes the new word, redo brings it back under its id', () => {
    const s = sample();
    const t = s.list()[0].tokens[1];
    // the editor's split: one utterance write (splitTokenWrite)
    const { edited } = undoRedo(s, (x) => x.write([splitTokenWrite(x.list()[0], t, 'mama', 'ma')]));
    expect(words(edited)[0]).toBe('SPEAKER1: ala mama ma kota');
    expect(edited[0].tokens[2]).toMatchObject({ tsStart: 300, tsEnd: 350 });
    expect(words(s.list())[0]).toBe('SPEAKER1: ala ma kota');
    // redone once more: the second word is the one the split made, same id
    const redo = replayPlan(s.list(), edited);
    expect(redo.batch[0].tokens!.map((x) => x.id)).toEqual(edited[0].tokens.map((x) => x.id));
  });

  it('an actor change', () => {
    const s = sample();
    const u = s.list()[1];
    undoRedo(s, (x) => x.write([{ id: u.id, actor: 'ARTIFACT' }]));
    expect(s.list()[1].actor).toBe('SPEAKER2');
  });

  it('an extraction into new utterances: undo empties them away, redo makes them again under new ids', () => {
    const s = sample();
    const [a, b, c] = s.list();
    // 'e' on "kot ma": b keeps "a", new -1 "kot ma", new -2 "ale"
    undoRedo(s, (x) =>
      x.write([
        { id: b.id, nextId: -1, tokens: [{ id: b.tokens[0].id }] },
        { id: -1, actor: b.actor, prevId: b.id, nextId: -2, tokens: b.tokens.slice(1, 3) },
        { id: -2, actor: b.actor, prevId: -1, nextId: c.id, tokens: b.tokens.slice(3) },
        { id: c.id, prevId: -2 },
      ]),
    );
    expect(s.list().map((u) => u.id)).toEqual([a.id, b.id, c.id]);
  });

  it('a merge into the previous utterance that removes the emptied one', () => {
    const s = sample();
    const [a, b, c] = s.list();
    const { edited } = undoRedo(s, (x) =>
      x.write([
        { id: a.id, nextId: c.id, tokens: [...a.tokens, ...b.tokens].map((t) => ({ id: t.id })) },
        { id: c.id, prevId: a.id },
      ]),
    );
    expect(edited).toHaveLength(2);
    expect(s.list()).toHaveLength(3);
  });

  it('deleting words, the last word of an utterance included: undone, they come back under their ids', () => {
    const s = sample();
    const first = s.list();
    const [a, , c] = first;
    undoRedo(s, (x) => {
      x.deleteToken(a.tokens[1].id);
      x.deleteToken(c.tokens[0].id);
    });
    expect(words(s.list())).toEqual(['SPEAKER1: ala ma kota', 'SPEAKER2: a kot ma ale', 'SPEAKER1: koniec']);
    expect(s.list().flatMap((u) => u.tokens.map((t) => t.id))).toEqual(
      first.flatMap((u) => u.tokens.map((t) => t.id)),
    );
  });

  it('a deleted word with tag links comes back with them (the server keeps them by its id)', () => {
    const s = sample();
    const word = s.list()[1].tokens[1];
    s.tagLinks.set(word.id, [71, 72]);
    undoRedo(s, (x) => x.deleteToken(word.id));
    expect(s.tokens.get(word.id)).toMatchObject({ value: 'kot' });
    expect(s.tagLinks.get(word.id)).toEqual([71, 72]);
  });

  it('an undo that deletes and re-creates words is one write: refused, it deletes nothing', () => {
    const s = sample();
    const before = s.list();
    const t = before[0].tokens[1];
    s.write([splitTokenWrite(s.list()[0], t, 'mama', 'ma')]);
    const op = recordChange(before, s.list())!;
    const plan = replayPlan(op.after, [{ ...op.before[0], actor: 'NOBODY' }]);
    expect(plan.deleteTokens).toHaveLength(1);
    const now = s.list();
    expect(() => replay(s, plan)).toThrow('error.utterance.actor');
    expect(s.list()).toEqual(now);
  });

  it('unclear, properties and a time range', () => {
    const s = sample();
    const t = s.list()[1].tokens[2];
    const { edited } = undoRedo(s, (x) => {
      x.updateToken(t.id, { unclear: true, properties: ['NOISE'] });
      x.updateToken(t.id, { tsStart: 1450, tsEnd: 1590 });
    });
    expect(edited[1].tokens[2]).toMatchObject({ unclear: true, properties: ['NOISE'], tsStart: 1450 });
    expect(s.tokens.get(t.id)).toMatchObject({ unclear: false, properties: [], tsStart: 1400, tsEnd: 1500 });
  });

  it('several edits undone in reverse order, then redone', () => {
    const s = sample();
    const first = s.list();
    let stack: TranscriptStack = emptyStack;
    const edit = (f: () => void) => {
      const before = s.list();
      f();
      stack = pushOp(stack, recordChange(before, s.list())!);
    };
    const [a, b] = first;
    edit(() => s.deleteToken(a.tokens[0].id));
    edit(() => s.updateToken(a.tokens[1].id, { value: 'mają' }));
    edit(() => s.write([{ id: b.id, actor: 'SPEAKER1' }]));
    const edited = s.list();
    for (let i = 0; i < 3; i++) {
      const u = takeUndo(stack)!;
      stack = remapStack(u.stack, replay(s, replayPlan(u.op.after, u.op.before)));
    }
    expect(words(s.list())).toEqual(words(first));
    for (let i = 0; i < 3; i++) {
      const r = takeRedo(stack)!;
      stack = remapStack(r.stack, replay(s, replayPlan(r.op.before, r.op.after)));
    }
    expect(words(s.list())).toEqual(words(edited));
  });

  it('a refused undo throws and leaves the transcript as it was', () => {
    const s = sample();
    const before = s.list();
    s.updateToken(before[0].tokens[0].id, { value: 'ola' });
    const op = recordChange(before, s.list())!;
    const bad = { ...op, before: [{ ...op.before[0], actor: 'NOBODY' }] };
    const now = s.list();
    expect(() => replay(s, replayPlan(bad.after, bad.before))).toThrow('error.utterance.actor');
    expect(s.list()).toEqual(now);
  });
});

describe('replayPlan', () => {
  it('sends nothing for an unchanged region and only what differs otherwise', () => {
    const s = sample();
    const list = s.list();
    expect(replayPlan(list, list)).toMatchObject({ deleteTokens: [], batch: [] });
    const changed = list.map((u, i) => (i === 1 ? { ...u, actor: 'SPEAKER1' } : u));
    expect(replayPlan(list, changed).batch).toEqual([
      { id: list[1].id, actor: 'SPEAKER1', prevId: list[0].id, nextId: list[2].id },
    ]);
  });
});

describe('the undo stack', () => {
  it('keeps at most UNDO_LIMIT steps and drops the redo branch on a new change', () => {
    let s = emptyStack as { past: number[]; future: number[] };
    for (let i = 0; i < UNDO_LIMIT + 5; i++) s = pushOp(s, i);
    expect(s.past).toHaveLength(UNDO_LIMIT);
    expect(s.past[0]).toBe(5);
    s = takeUndo(s)!.stack;
    expect(s.future).toEqual([UNDO_LIMIT + 4]);
    expect(pushOp(s, 0).future).toEqual([]);
    expect(pushOp(emptyStack, 1, 1).past).toEqual([1]);
  });
});
