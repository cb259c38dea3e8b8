import type { NerTagDTO } from '@domain/tags';
import type { TokenDTO, UtteranceDTO } from './transcriptApi';
import {
  ARTIFACT,
  actorName,
  actorOptions,
  selectedTokens,
  tagSelection,
  tagStartsByToken,
  tagTimeMs,
  tagsByToken,
  timeline,
  timespanRegions,
  transcriptTagTexts,
  traverse,
  windowOf,
  wordsOf,
} from './transcript';
import { relationCounts } from '../workspace/relations';

const tk = (id: number, value: string, tsStart: number | null = id * 100): TokenDTO => ({
  id,
  utteranceId: 0,
  value,
  tsStart,
  tsEnd: tsStart === null ? null : tsStart + 50,
  properties: [],
  unclear: false,
});
const utt = (id: number, tokens: TokenDTO[]): UtteranceDTO => ({
  id,
  actor: 'SPEAKER1',
  prevId: null,
  nextId: null,
  tokens,
});
const tag = (id: number, over: Partial<NerTagDTO>): NerTagDTO =>
  ({
    id,
    type: 'ASR_NER_TAG',
    nerTagTypeId: 1,
    nerTagType: {
      id: 1,
      name: 'Person',
      backgroundColor: '#f00',
      textColor: '#fff',
      nodeId: 1,
      path: 'Person',
    },
    utteranceTokens: [],
    startOffset: null,
    endOffset: null,
    tsStart: null,
    tsEnd: null,
    stepId: 1,
    nodeId: 1,
    documentId: 1,
    origin: 'USER',
    createdById: null,
    lastModifiedById: null,
    ...over,
  }) as NerTagDTO;

describe('actors', () => {
  it('lists the process actors in number order, then the read-only ARTIFACT', () => {
    const list = actorOptions(
      [
        { actor: 'SPEAKER10', name: 'Ten' },
        { actor: 'SPEAKER2', name: '' },
        { actor: 'SPEAKER1', name: 'One' },
      ],
      'Artifact',
    );
    expect(list.map((a) => a.actor)).toEqual(['SPEAKER1', 'SPEAKER2', 'SPEAKER10', ARTIFACT]);
    expect(actorName(list, 'SPEAKER2')).toBe('SPEAKER2');
    expect(actorName(list, ARTIFACT)).toBe('Artifact');
    expect(actorName(list, 'SPEAKER9')).toBe('SPEAKER9');
  });
});

describe('words and selection', () => {
  const a = utt(1, [tk(1, ','), tk(2, 'Ala'), tk(3, ','), tk(4, 'ma'), tk(5, '?')]);
  const b = utt(2, [tk(6, 'kot'), tk(7, 'psa')]);
  const list = [a, b];

  it('attaches punctuation to the word before it', () => {
    expect(wordsOf(a.tokens).map((w) => [w.index, w.token.value, w.punctuation.map((p) => p.value)])).toEqual(
      [
        [0, ',', []],
        [1, 'Ala', [',']],
        [3, 'ma', ['?']],
      ],
    );
  });

  it('traverses words across utterances, skipping punctuation; shift extends inside one', () => {
    const first = traverse(list, null, 1)!;
    expect(first).toEqual({ utteranceId: 1, anchor: 1, focus: 1 });
    const second = traverse(list, first, 1)!;
    expect(second).toEqual({ utteranceId: 1, anchor: 3, focus: 3 });
    expect(traverse(list, second, 1)).toEqual({ utteranceId: 2, anchor: 0, focus: 0 });
    expect(traverse(list, { utteranceId: 2, anchor: 0, focus: 0 }, -1)).toEqual({
      utteranceId: 1,
      anchor: 3,
      focus: 3,
    });
    expect(traverse(list, first, 1, true)).toEqual({ utteranceId: 1, anchor: 1, focus: 3 });
    expect(traverse(list, { utteranceId: 1, anchor: 1, focus: 3 }, 1, true)).toEqual({
      utteranceId: 1,
      anchor: 1,
      focus: 3,
    });
    expect(traverse(list, null, -1)).toEqual({ utteranceId: 2, anchor: 1, focus: 1 });
    expect(traverse([], null, 1)).toBeNull();
  });

  it('the selected tokens leave punctuation out', () => {
    expect(selectedTokens(list, { utteranceId: 1, anchor: 3, focus: 1 }).map((t) => t.value)).toEqual([
      'Ala',
      'ma',
    ]);
    expect(selectedTokens(list, null)).toEqual([]);
  });

  it('the timeline is the timed words in time order', () => {
    const l = [
      utt(1, [tk(3, 'c', 900), tk(1, 'a', 100)]),
      utt(2, [tk(2, 'b', 500), tk(4, '.', 950), tk(5, 'x', null)]),
    ];
    expect(timeline(l).map((p) => [p.utteranceId, p.index, p.token.value])).toEqual([
      [1, 1, 'a'],
      [2, 0, 'b'],
      [1, 0, 'c'],
    ]);
  });

  it('windows rows by 10', () => {
    expect([0, 9, 10, 1499].map(windowOf)).toEqual([0, 0, 1, 149]);
  });
});

describe('tags', () => {
  it('indexes token tags by token and draws time-span tags as regions in seconds', () => {
    const tags = [
      tag(1, { utteranceTokens: [{ id: 10 }, { id: 11 }] }),
      tag(2, { utteranceTokens: [{ id: 11 }] }),
      tag(3, { type: 'TIMESPAN_TAG', tsStart: 1500, tsEnd: 2250 }),
      tag(4, { type: 'SPAN_TAG', startOffset: 0, endOffset: 3 }),
    ];
    const map = tagsByToken(tags);
    expect(map.get(10)?.map((t) => t.id)).toEqual([1]);
    expect(map.get(11)?.map((t) => t.id)).toEqual([1, 2]);
    expect(map.size).toBe(2);
    expect(timespanRegions(tags, true)).toEqual([
      { id: 3, editable: true, start: 1.5, end: 2.25, color: '#f00', label: 'Person' },
    ]);
  });

  it('marks the regions of related time-span tags with their count, and outlines the unrelated ones', () => {
    const tags = [
      tag(3, { type: 'TIMESPAN_TAG', tsStart: 1500, tsEnd: 2250 }),
      tag(5, { type: 'TIMESPAN_TAG', tsStart: 3000, tsEnd: 3500 }),
      tag(6, { type: 'TIMESPAN_TAG', tsStart: 4000, tsEnd: 4500 }),
    ];
    const counts = relationCounts([
      { fromId: 3, toId: 1 },
      { fromId: 5, toId: 3 },
    ]);
    const marks = (unrelated: Set<number> | null) =>
      timespanRegions(tags, false, { counts, unrelated, title: (n) => `Relations: ${n}` }).map((r) => [
        r.id,
        r.badge,
        r.badgeTitle,
        r.outlined,
      ]);
    expect(marks(null)).toEqual([
      [3, '↔ 2', 'Relations: 2', undefined],
      [5, '↔ 1', 'Relations: 1', undefined],
      [6, undefined, undefined, undefined],
    ]);
    // 'Highlight tags without relation' on: the saved graphs leave 6 out
    expect(marks(new Set([6]))[2]).toEqual([6, undefined, undefined, true]);
  });

  it('rounds tag times to 2 decimals of a second, in ms', () => {
    expect(tagTimeMs(1.23456)).toBe(1230);
    expect(tagTimeMs(1.235)).toBe(1240);
    expect(tagTimeMs(-1)).toBe(0);
  });

  describe('for relations', () => {
    // token ids out of transcript order on purpose: the words follow the transcript, not the ids
    const list = [
      utt(1, [tk(30, 'Jan'), tk(20, 'Kowalski'), tk(25, ',')]),
      utt(2, [tk(5, 'w'), tk(6, 'Gdańsku')]),
    ];
    const tags = [
      tag(1, { utteranceTokens: [{ id: 20 }, { id: 30 }] }),
      tag(2, { utteranceTokens: [{ id: 6 }] }),
      tag(3, { utteranceTokens: [{ id: 20 }] }),
      tag(4, { type: 'TIMESPAN_TAG', tsStart: 1500, tsEnd: 2250 }),
    ];

    it("shows a token tag's words in transcript order and a time span's range", () => {
      const text = transcriptTagTexts(list, tags);
      expect([1, 2, 3, 4, 99].map(text)).toEqual([
        'Jan Kowalski',
        'Gdańsku',
        'Kowalski',
        '1.50 s – 2.25 s',
        '',
      ]);
    });

    it('marks the token each tag starts at, and selects the tokens of a tag', () => {
      const starts = tagStartsByToken(list, tagsByToken(tags));
      expect([...starts]).toEqual([
        [30, [1]],
        [20, [3]],
        [6, [2]],
      ]);
      expect(tagSelection(list, tags[0])).toEqual({ utteranceId: 1, anchor: 0, focus: 1 });
      expect(tagSelection(list, tags[1])).toEqual({ utteranceId: 2, anchor: 1, focus: 1 });
      expect(tagSelection(list, tags[3])).toBeNull();
    });
  });
});
