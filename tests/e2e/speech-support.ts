/**
 * What the speech workspace suites (speech-workspace, speech-journey) read: the transcript and steps as the
 * API answers them, and the check that the page shows the saved transcript.
 */
import type { Page } from 'playwright-core';
import { eventuallyMatches } from '../support/eventually';

export interface StepView {
  id: number;
  status: string;
  nodeId: number;
}
export interface TokenView {
  id: number;
  value: string;
  tsStart: number;
  tsEnd: number;
  unclear: boolean;
}
export interface UtteranceView {
  id: number;
  actor: string;
  prevId: number | null;
  nextId: number | null;
  tokens: TokenView[];
}

/** What the test reads of a row in the page (the tests' TypeScript has no DOM library). */
interface RowNode {
  querySelectorAll(s: string): ArrayLike<{ textContent: string | null }>;
}

/** Each utterance's words, space-separated. */
export const words = (list: UtteranceView[]): string[] =>
  list.map((u) => u.tokens.map((t) => t.value).join(' '));

/** The page shows the saved transcript: every utterance's words as the API answers them; the saved list. */
export async function shownAsSaved(page: Page, transcript: () => Promise<UtteranceView[]>) {
  const saved = await transcript();
  await eventuallyMatches(
    () =>
      page.locator('[data-testid="utterance"]').evaluateAll((els) =>
        els.map((e) =>
          Array.from((e as unknown as RowNode).querySelectorAll('[data-testid="token"]'))
            .map((t) => t.textContent)
            .join(' '),
        ),
      ),
    (shown) => JSON.stringify(shown) === JSON.stringify(words(saved)),
    'the page shows the saved transcript',
  );
  return saved;
}

/** The utterances follow each other as one linked list, in the order given. */
export function expectOneChain(list: UtteranceView[]): void {
  for (let i = 0; i < list.length; i++) {
    expect(list[i].prevId).toBe(i ? list[i - 1].id : null);
    expect(list[i].nextId).toBe(i < list.length - 1 ? list[i + 1].id : null);
  }
}

/** Drags over 20-45 % of the waveform and picks the tag type `label` in the label menu that opens. */
export async function dragTimeSpan(page: Page, label: string): Promise<void> {
  const box = (await page.getByTestId('audio-player-waveform').boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.2, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.3, y, { steps: 5 });
  await page.mouse.move(box.x + box.width * 0.45, y, { steps: 5 });
  await page.mouse.up();
  await page.getByTestId('label-menu').waitFor();
  await page.keyboard.type(label);
  await page.locator('[data-testid="label-option"][data-active="true"]').waitFor();
  await page.keyboard.press('Enter');
}
