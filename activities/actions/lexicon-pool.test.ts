import { compileLexicon, matchLexicon, type LexiconRule } from '../../domain/lexicon';
import { LexiconTimeout, matchInThread } from './lexicon-pool';

const rule = (id: number, expression: string, matchingType: string, tolerance: number | null = null) =>
  ({ id, nerTagTypeId: 1 + (id % 3), expression, matchingType, tolerance }) as LexiconRule;

const RULES = [
  rule(1, 'Kraków', 'EXACT'),
  rule(2, '[0-9]{2}-[0-9]{3}', 'REGEX'),
  rule(3, 'Warszawa', 'FUZZY', 1),
];
/** 300 FUZZY rules over about a million words: seconds of work for one synchronous pass. */
const HEAVY_RULES = Array.from({ length: 300 }, (_, i) => rule(i, `word${i}x`, 'FUZZY', 3));
const HEAVY_TEXT = 'lorem ipsum dolor sit amet '.repeat(200_000);

const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 10));
};

describe('lexicon matching in a worker thread', () => {
  it('finds what the domain matcher finds, for each text', async () => {
    const texts = ['Kraków 31-042, Warszewa', '', 'nic tu nie ma'];
    const lexicon = compileLexicon(RULES);
    expect(await matchInThread(RULES, texts, 60000)).toEqual(texts.map((t) => matchLexicon(lexicon, t)));
  });

  it('leaves the event loop free while a heavy rule set runs, and a cancellation stops it', async () => {
    await matchInThread(RULES, ['warm-up'], 60000); // a started thread, so the timing below is the job's
    const abort = new AbortController();
    let settled = false;
    const job = matchInThread(HEAVY_RULES, [HEAVY_TEXT], 600000, abort.signal).finally(
      () => (settled = true),
    );
    // Thirty timers in a row run while the thread matches: on the event loop they would wait for it.
    await ticks(30);
    expect(settled).toBe(false);
    abort.abort(new Error('cancelled by the test'));
    await expect(job).rejects.toThrow('cancelled by the test');
    // The pool replaced the terminated thread.
    expect(await matchInThread(RULES, ['Kraków'], 60000)).toEqual([[{ nerTagTypeId: 2, start: 0, end: 6 }]]);
  });

  it('stops a job past its time limit with LexiconTimeout, and goes on with the next', async () => {
    await expect(matchInThread(HEAVY_RULES, [HEAVY_TEXT], 300)).rejects.toBeInstanceOf(LexiconTimeout);
    expect(await matchInThread(RULES, ['Kraków'], 60000)).toHaveLength(1);
  });
});
