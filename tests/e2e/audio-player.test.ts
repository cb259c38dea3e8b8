/**
 * The speech audio player (issue 14 section 1) in Chromium, on the document detail page of a recording
 * uploaded through the API (espeak-ng speech padded to ~25 s by sox; never parsed, so its peaks are
 * computed on the first request): the waveform is drawn from the peaks with no whole-file download (every
 * audio request is a range request, and nothing but the metadata is fetched before play); play and pause,
 * skip +-10 s, the speed menu, zoom and the waveform toggle work; a drag on the waveform creates a region
 * (the page keeps it), the timestamp editor changes its end and reverts an invalid input, a drag of its
 * right edge resizes it; with the
 * source-download-blocked setting the audio is never requested, the controls are disabled and a notice
 * says why; a format the browser cannot play gets its notice. Screenshots go to tests/artifacts/.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { eventually } from '../support/eventually';
import { buildUser, type BuiltUser } from '../support/harness';
import { speech } from '../support/media';
import { api, BASE_URL, createProcess, launch, shot, signedInPage, tokenFor } from './support';

const exec = promisify(execFile);
/** The shadow root wavesurfer renders into (an expression evaluated in the page). */
const WAVEFORM_SHADOW = `document.querySelector('[data-testid="audio-player-waveform"] > div').shadowRoot`;

describe('audio player in Chromium', () => {
  let knex: Knex;
  let browser: Browser;
  let processId: number;
  let documentId: number;
  let unplayableId: number;
  let reader: BuiltUser;
  const contexts: BrowserContext[] = [];
  const suffix = crypto.randomBytes(3).toString('hex');

  const detailUrl = (id: number) => `${BASE_URL}/entity/process/${processId}/documents/${id}`;
  const player = (page: Page) => page.getByTestId('audio-player');
  const ready = (page: Page) =>
    page.locator('[data-testid="audio-player"][data-ready="true"]').waitFor({ timeout: 60000 });
  const timeText = async (page: Page) =>
    (await page.getByTestId('audio-player-time').textContent())!.split(' / ')[0];
  /** Seconds of the shown current time (mm:ss:cc). */
  const shownSeconds = async (page: Page) => {
    const [m, s, c] = (await timeText(page)).split(':').map(Number);
    return m * 60 + s + c / 100;
  };
  const mediaProp = (page: Page, prop: 'playbackRate' | 'paused') =>
    page.evaluate<number | boolean>(`${WAVEFORM_SHADOW}.querySelector('audio').${prop}`);
  /** The seconds the time display shows (mm:ss:cc), in the page. */
  const waitForShownTime = (page: Page, seconds: number) =>
    eventually(
      `the time ${seconds} s shown`,
      async () => Math.abs((await shownSeconds(page)) - seconds) < 0.05,
    );
  /** Polls an expression in the page (page.waitForFunction would evaluate it with eval, which the CSP refuses). */
  const until = (page: Page, expression: string) =>
    eventually(expression, () => page.evaluate<boolean>(expression));

  async function upload(token: string, nodeId: number, name: string, bytes: Buffer): Promise<number> {
    const form = new FormData();
    form.append('nodeId', String(nodeId));
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const res = await fetch(`${BASE_URL}/api/file-upload`, {
      method: 'POST',
      body: form,
      headers: { Authorization: token },
    });
    if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { id: number }).id;
  }

  beforeAll(async () => {
    knex = knexFactory({ client: 'pg', connection: process.env.DATABASE_URL, pool: { min: 0, max: 2 } });
    const admin = await buildUser(knex, { roles: ['ROLE_ADMIN', 'ROLE_USER'] });
    const token = await tokenFor(admin.login, admin.password);
    processId = await createProcess(token, `Player E2E ${suffix}`);
    const nodes = await api<{ id: number; activityType: string }[]>(
      token,
      `/api/nodes?processId=${processId}`,
    );
    const hup = nodes.find((n) => n.activityType === 'HUP')!.id;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'player-e2e-'));
    try {
      await fs.writeFile(
        path.join(dir, 's.wav'),
        await speech('the weather is nice today and we go to the park'),
      );
      // ~25 s: two seconds of silence, the sentence, repeated.
      await exec('sox', [
        path.join(dir, 's.wav'),
        path.join(dir, 'long.wav'),
        'pad',
        '2',
        '0',
        'repeat',
        '4',
      ]);
      const bytes = await fs.readFile(path.join(dir, 'long.wav'));
      documentId = await upload(token, hup, `speech-${suffix}.wav`, bytes);
      unplayableId = await upload(token, hup, `odd-${suffix}.wav`, bytes);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
    // A type no browser plays (as a recording stored with an unusual type would be).
    await knex('documents').where('id', unplayableId).update({ mime_type: 'audio/x-workbench-unknown' });
    reader = await buildUser(knex, {
      authorities: [{ componentId: processId, type: 'PROCESS', mode: 'READ' }],
    });
    browser = await launch();
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await knex?.destroy();
  });

  /** A signed-in page recording the requests of the document's audio and peaks. */
  async function pageWithRequests() {
    const page = await signedInPage(browser, contexts, reader);
    const audio: Request[] = [];
    const peaks: Request[] = [];
    page.on('request', (r) => {
      if (/\/api\/asr-documents\/\d+\/audio/.test(r.url())) audio.push(r);
      if (/\/api\/asr-documents\/\d+\/peaks/.test(r.url())) peaks.push(r);
    });
    return { page, audio, peaks };
  }

  it('draws the waveform from the peaks and streams the audio by ranges: play, pause, skip, speed, zoom', async () => {
    const { page, audio, peaks } = await pageWithRequests();
    await page.goto(detailUrl(documentId));
    await ready(page);
    // Drawn first from the peaks folded for the fit width; the full resolution only once zoomed in.
    const maxWindows = () => peaks.map((r) => new URL(r.url()).searchParams.get('maxWindows'));
    expect(maxWindows()).toEqual(['8192']);
    // Drawn: a canvas in the waveform with painted pixels.
    const painted = await page.evaluate<number>(`(() => {
      const canvas = ${WAVEFORM_SHADOW}.querySelector('canvas');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
      return n;
    })()`);
    expect(painted).toBeGreaterThan(100);
    expect(await page.getByTestId('audio-player-time').textContent()).toMatch(/^00:00:00 \/ 00:2\d:\d\d$/);
    // mm:ss:cc, named so: 00:02:16 is 2.16 seconds, not 2 minutes 16 (issue 30)
    expect(await page.getByTestId('audio-player-time').getAttribute('title')).toBe(
      'Minutes:seconds:centiseconds (mm:ss:cc), played / length',
    );
    // Before play: no request was answered with the whole file; every one asked for a range.
    for (const r of audio) {
      expect(r.headers()['range']).toMatch(/^bytes=/);
      expect(new URL(r.url()).searchParams.get('access_token')).toBeTruthy();
    }
    await shot(page, 'audio-player-ready-1440');

    await page.getByTestId('audio-player-play').click();
    await page.locator('[data-testid="audio-player"][data-playing="true"]').waitFor();
    await eventually('the time moving', async () => (await timeText(page)) !== '00:00:00');
    await page.getByTestId('audio-player-play').click();
    await page.locator('[data-testid="audio-player"][data-playing="false"]').waitFor();
    expect(await mediaProp(page, 'paused')).toBe(true);
    expect(audio.length).toBeGreaterThan(0);
    for (const r of audio) expect(r.headers()['range']).toMatch(/^bytes=/);

    // Skip: +10 s and back.
    const before = await shownSeconds(page);
    await page.getByTestId('audio-player-forward').click();
    await waitForShownTime(page, before + 10);
    await page.getByTestId('audio-player-back').click();
    await waitForShownTime(page, before);

    // Speed.
    expect(await page.getByTestId('audio-player-speed').locator('option').allTextContents()).toEqual([
      '0.5×',
      '0.75×',
      '1×',
      '1.25×',
      '1.5×',
      '1.75×',
      '2×',
    ]);
    await page.getByTestId('audio-player-speed').selectOption('1.5');
    expect(await mediaProp(page, 'playbackRate')).toBe(1.5);

    // Zoom: fit, then 32 px/s makes the waveform scroll, up to 4096.
    const scrollWidth = () =>
      page.evaluate<number>(`${WAVEFORM_SHADOW}.querySelector('.scroll').scrollWidth`);
    const fitWidth = await scrollWidth();
    await page.getByTestId('audio-player-zoom-in').click();
    expect(await page.getByTestId('audio-player-zoom').textContent()).toBe('32 px/s');
    await page.getByTestId('audio-player-zoom-in').click();
    await page.getByTestId('audio-player-zoom-in').click();
    expect(await page.getByTestId('audio-player-zoom').textContent()).toBe('128 px/s');
    await until(page, `${WAVEFORM_SHADOW}.querySelector('.scroll').scrollWidth > ${fitWidth * 2}`);
    await eventually('the full peaks asked for', async () => maxWindows().includes(null));
    expect(maxWindows().filter((m) => m === null)).toHaveLength(1);
    for (let i = 0; i < 5; i++) await page.getByTestId('audio-player-zoom-in').click();
    expect(await page.getByTestId('audio-player-zoom').textContent()).toBe('4096 px/s');
    expect(await page.getByTestId('audio-player-zoom-in').isDisabled()).toBe(true);
    await shot(page, 'audio-player-zoomed-1440');
    for (let i = 0; i < 9; i++) {
      if (await page.getByTestId('audio-player-zoom-out').isDisabled()) break;
      await page.getByTestId('audio-player-zoom-out').click();
    }
    expect(await page.getByTestId('audio-player-zoom').textContent()).toBe('Fit');

    // The waveform toggle hides and shows it.
    await page.getByTestId('audio-player-waveform-toggle').click();
    expect(await page.getByTestId('audio-player-waveform').isVisible()).toBe(false);
    await page.getByTestId('audio-player-waveform-toggle').click();
    expect(await page.getByTestId('audio-player-waveform').isVisible()).toBe(true);
  });

  it('creates a region by dragging on the waveform, edits its end with the timestamp editor and by its edge', async () => {
    const { page } = await pageWithRequests();
    await page.goto(detailUrl(documentId));
    await ready(page);
    const box = (await page.getByTestId('audio-player-waveform').boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, y, { steps: 5 });
    await page.mouse.move(box.x + box.width * 0.4, y, { steps: 5 });
    await page.mouse.up();
    const region = page.locator('[data-testid="audio-player-waveform"] [data-region-id="span-1"]');
    await region.waitFor();
    expect(await region.textContent()).toBe('1');
    // The drawn draft gave way to the page's region: one region on the waveform.
    const regions = page.locator('[data-testid="audio-player-waveform"] [part~="region"]');
    await eventually('one region left', async () => (await regions.count()) === 1);
    await region.click();
    const end = page.getByTestId('audio-player-range-end-field');
    await end.waitFor();
    const endBefore = await end.inputValue();
    expect(endBefore).toMatch(/^\d\d:\d\d:\d\d$/);
    await page.getByTestId('audio-player-range-end-plus').click();
    await eventually('the end stepped', async () => (await end.inputValue()) !== endBefore);
    const endAfter = await end.inputValue();
    const secs = (t: string) =>
      t
        .split(':')
        .map(Number)
        .reduce((a, v, i) => (i < 2 ? a * 60 + v : a + v / 100), 0);
    expect(Math.round((secs(endAfter) - secs(endBefore)) * 100)).toBe(1);
    // An invalid time is marked and reverts on blur; a start after the end is refused the same way.
    await end.fill('ab:cd');
    expect(await end.getAttribute('class')).toContain('is-invalid');
    await end.blur();
    expect(await end.inputValue()).toBe(endAfter);
    const start = page.getByTestId('audio-player-range-start-field');
    const startBefore = await start.inputValue();
    await start.fill(endAfter);
    expect(await start.getAttribute('class')).toContain('is-invalid');
    await start.press('Tab');
    expect(await start.inputValue()).toBe(startBefore);

    // Resized by its right edge: onRegionUpdate gives the new end, which the editor shows.
    const handle = region.locator('[part~="region-handle-right"]');
    const h = (await handle.boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + h.width / 2 + 30, h.y + h.height / 2, { steps: 5 });
    await page.mouse.move(h.x + h.width / 2 + 60, h.y + h.height / 2, { steps: 5 });
    await page.mouse.up();
    const resized = await eventually('the end moved by the edge', async () => {
      const v = await end.inputValue();
      return secs(v) > secs(endAfter) + 0.2 ? v : undefined;
    });
    expect(await start.inputValue()).toBe(startBefore);
    expect(resized).toMatch(/^\d\d:\d\d:\d\d$/);
    await shot(page, 'audio-player-region-1440');
  });

  it('with the source download blocked, never requests the audio and says why', async () => {
    const { page, audio } = await pageWithRequests();
    await page.evaluate(
      `localStorage.setItem('workspace.settings', JSON.stringify({ 'source-download-blocked': true }))`,
    );
    await page.goto(detailUrl(documentId));
    await player(page).waitFor();
    await page.getByTestId('audio-player-notice').waitFor();
    expect(await page.getByTestId('audio-player-notice').textContent()).toMatch(/Source download is blocked/);
    // The peaks still draw the waveform.
    await page.locator('[data-testid="audio-player-waveform"] canvas').first().waitFor({ state: 'attached' });
    expect(await page.getByTestId('audio-player-play').isDisabled()).toBe(true);
    expect(await page.getByTestId('audio-player-forward').isDisabled()).toBe(true);
    expect(await player(page).getAttribute('class')).toContain('audio-player-dimmed');
    expect(await page.locator('[data-testid="audio-player-waveform"] audio').getAttribute('src')).toBeNull();
    await shot(page, 'audio-player-blocked-1440');
    expect(audio).toEqual([]);
    await page.evaluate(`localStorage.removeItem('workspace.settings')`);
  });

  it('tells when the browser cannot play the format, without requesting it', async () => {
    const { page, audio } = await pageWithRequests();
    await page.goto(detailUrl(unplayableId));
    await page.getByTestId('audio-player-notice').waitFor();
    expect(await page.getByTestId('audio-player-notice').textContent()).toBe(
      'This browser cannot play this audio format (audio/x-workbench-unknown).',
    );
    expect(await page.getByTestId('audio-player-play').isDisabled()).toBe(true);
    expect(audio).toEqual([]);
  });
});
