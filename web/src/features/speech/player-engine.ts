/**
 * The audio player's engine, free of React (the Label Studio pattern of conventions.md: a thin hook creates
 * it in an effect and destroys it on cleanup): wavesurfer.js 7 drawing from the parser's peaks, a media
 * element streaming the audio route with HTTP ranges (never a whole-file download or decode), and the
 * regions plugin for time-span tags.
 *
 * - Peaks and duration come from GET api/asr-documents/{id}/peaks; without peaks (a document the server
 *   could not compute them for) the waveform is a flat line whose length comes from the media's metadata,
 *   so the recording still plays and the regions still show.
 * - `mediaUrl` null (the source-download-blocked setting): no media source is ever set, so the audio is not
 *   requested; the peaks are drawn, regions show but cannot be drawn or resized.
 * - Regions are controlled: `setRegions` reconciles the plugin with the caller's list; a drag on the
 *   waveform leaves a draft region (kept until the next `setRegions` or `clearDraft`) and reports its times;
 *   a resize by the edges reports the region's new times. Times are rounded to 2 decimals.
 * - wavesurfer's renderer writes a <style> element into its shadow root, which the app's CSP (style-src
 *   'self', api/security-headers.ts) refuses; `installCspSafeRenderer` builds the same shadow DOM with a
 *   constructed style sheet instead (CSSOM, outside style-src).
 */
import WaveSurfer from 'wavesurfer.js/dist/wavesurfer.js';
import Renderer from 'wavesurfer.js/dist/renderer.js';
import RegionsPlugin, { type Region } from 'wavesurfer.js/dist/plugins/regions.esm.js';
import { roundCentis } from './timestamp';

export type RegionId = string | number;

/** A time-span on the waveform (spec 2 section 3 "Audio segment"). */
export interface AudioRegion {
  id: RegionId;
  /** Seconds. */
  start: number;
  end: number;
  color?: string;
  label?: string;
  /** Resizable by its edges (default true). */
  editable?: boolean;
  /** A small badge after the label (the speech workspace: how many relations the tag takes part in). */
  badge?: string;
  badgeTitle?: string;
  /** A dashed outline (the speech workspace: a tag without relation, with that highlight on). */
  outlined?: boolean;
}

export interface EngineEvents {
  onReady(durationS: number): void;
  onTimeUpdate(seconds: number): void;
  onPlayingChange(playing: boolean): void;
  onMediaError(kind: 'format' | 'network'): void;
  onRegionCreate(start: number, end: number): void;
  onRegionUpdate(id: RegionId, start: number, end: number): void;
  /** The click itself too: its modifier keys (Alt/Ctrl+click relates tags) and position. */
  onRegionClick(id: RegionId, event: MouseEvent): void;
}

export interface EngineOptions {
  container: HTMLElement;
  /** The streamed audio (with the query token); null: the source download is blocked. */
  mediaUrl: string | null;
  /** [maxima, minima] in -1..1, or null when the document has none. */
  peaks: [Float32Array, Float32Array] | null;
  durationS: number | null;
  height?: number;
  /** Read at every event, so the caller's latest callbacks are used. */
  events: () => EngineEvents;
}

export const ZOOM_MIN = 32;
export const ZOOM_MAX = 4096;
/** Fit (0) or a power of two from 32 to 4096 px/s (spec 2 section 9). */
export const ZOOM_LEVELS = [0, 32, 64, 128, 256, 512, 1024, 2048, 4096] as const;
export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export const SKIP_S = 10;
const DRAFT_COLOR = 'rgba(13, 110, 253, 0.25)';

const SHADOW_CSS = (height: number) => `
:host { user-select: none; min-width: 1px; }
:host audio { display: block; width: 100%; }
:host .scroll { overflow-x: auto; overflow-y: hidden; width: 100%; position: relative; }
:host .noScrollbar { scrollbar-color: transparent; scrollbar-width: none; }
:host .noScrollbar::-webkit-scrollbar { display: none; -webkit-appearance: none; }
:host .wrapper { position: relative; overflow: visible; z-index: 2; }
:host .canvases { min-height: ${height}px; }
:host .canvases > div { position: relative; }
:host canvas { display: block; position: absolute; top: 0; image-rendering: pixelated; }
:host .progress { pointer-events: none; position: absolute; z-index: 2; top: 0; left: 0; width: 0; height: 100%; overflow: hidden; }
:host .progress > div { position: relative; }
:host .cursor { pointer-events: none; position: absolute; z-index: 5; top: 0; left: 0; height: 100%; border-radius: 2px; }
`;

interface RendererInternals {
  options: { height?: number | 'auto'; splitChannels?: unknown };
  getHeight(height: unknown, split: unknown): number;
  initHtml(): [HTMLElement, ShadowRoot];
}

let rendererPatched = false;
/** Replaces the renderer's shadow DOM builder by one without a <style> element (see the header). */
export function installCspSafeRenderer(): void {
  if (rendererPatched) return;
  rendererPatched = true;
  const proto = Renderer.prototype as unknown as RendererInternals;
  proto.initHtml = function initHtml(this: RendererInternals) {
    const div = document.createElement('div');
    const shadow = div.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(SHADOW_CSS(this.getHeight(this.options.height, this.options.splitChannels)));
    shadow.adoptedStyleSheets = [sheet];
    const el = (cls: string, parent: Node) => {
      const d = document.createElement('div');
      d.className = cls;
      d.setAttribute('part', cls);
      parent.appendChild(d);
      return d;
    };
    const wrapper = el('wrapper', el('scroll', shadow));
    el('canvases', wrapper);
    el('progress', wrapper);
    el('cursor', wrapper);
    return [div, shadow];
  };
}

/** A media error's kind: the browser cannot play the format, or the audio could not be loaded. */
function mediaErrorKind(media: HTMLMediaElement): 'format' | 'network' {
  const code = media.error?.code;
  return code === MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED || code === MediaError.MEDIA_ERR_DECODE
    ? 'format'
    : 'network';
}

/**
 * Removes a region for good: the plugin appends a new region's element in a timeout of its own, which would
 * put back an element removed before it runs; so the element is hidden now and the region removed after.
 */
function discard(region: Region): void {
  if (region.element) region.element.style.display = 'none';
  setTimeout(() => region.remove(), 0);
}

export class PlayerEngine {
  readonly media: HTMLAudioElement;
  private readonly ws: WaveSurfer;
  private readonly regions: RegionsPlugin;
  private readonly ids = new Map<string, RegionId>();
  private draft: Region | null = null;
  private disableDrag: (() => void) | null = null;
  private ready = false;
  private pendingRegions: AudioRegion[] | null = null;
  private selected: RegionId | null = null;
  private zoomLevel = 0;
  private shownPeaks: [Float32Array, Float32Array] | null;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly o: EngineOptions) {
    installCspSafeRenderer();
    this.shownPeaks = o.peaks;
    this.regions = RegionsPlugin.create();
    // wavesurfer's own media element (in its shadow root; removed and stopped by its destroy).
    this.ws = WaveSurfer.create({
      container: o.container,
      height: o.height ?? 96,
      waveColor: '#9aa8b8',
      progressColor: '#0d6efd',
      cursorColor: '#dc3545',
      cursorWidth: 2,
      interact: true,
      autoScroll: true,
      autoCenter: true,
      hideScrollbar: false,
      plugins: [this.regions],
    });
    this.media = this.ws.getMediaElement() as HTMLAudioElement;
    // Metadata only until play: the browser then streams with range requests.
    this.media.preload = 'metadata';
    const events = o.events;
    const onMediaError = () => events().onMediaError(mediaErrorKind(this.media));
    this.media.addEventListener('error', onMediaError);
    this.unsubscribe.push(
      () => this.media.removeEventListener('error', onMediaError),
      this.ws.on('ready', (d) => {
        this.ready = true;
        if (this.pendingRegions) this.setRegions(this.pendingRegions);
        this.pendingRegions = null;
        events().onReady(d);
      }),
      this.ws.on('timeupdate', (t) => events().onTimeUpdate(t)),
      this.ws.on('play', () => events().onPlayingChange(true)),
      this.ws.on('pause', () => events().onPlayingChange(false)),
      this.ws.on('finish', () => events().onPlayingChange(false)),
      this.regions.on('region-created', (r) => {
        if (this.ids.has(r.id)) return;
        // A drag on the waveform: the one draft, reported to the caller.
        this.clearDraft();
        this.draft = r;
        events().onRegionCreate(roundCentis(r.start), roundCentis(r.end));
      }),
      this.regions.on('region-updated', (r) => {
        const id = this.ids.get(r.id);
        if (id !== undefined) events().onRegionUpdate(id, roundCentis(r.start), roundCentis(r.end));
      }),
      this.regions.on('region-clicked', (r, e) => {
        const id = this.ids.get(r.id);
        if (id === undefined) return;
        e.stopPropagation();
        events().onRegionClick(id, e);
      }),
    );
    const flat: [Float32Array] = [new Float32Array(1)];
    // No URL: loadAudio sets no media source, so nothing is requested.
    this.ws
      .load(o.mediaUrl ?? '', o.peaks ?? flat, o.peaks ? (o.durationS ?? undefined) : undefined)
      .catch(() => {
        /* reported through the media element's error event */
      });
  }

  isReady = (): boolean => this.ready;
  getDuration = (): number => this.ws.getDuration();
  getCurrentTime = (): number => this.ws.getCurrentTime();
  isPlaying = (): boolean => this.ws.isPlaying();

  play(start?: number, end?: number): void {
    if (!this.o.mediaUrl) return;
    this.ws.play(start, end).catch(() => {
      /* a refused play (no source, autoplay policy) leaves the player paused */
    });
  }
  pause(): void {
    this.ws.pause();
  }
  togglePlay(): void {
    if (this.isPlaying()) this.pause();
    else this.play();
  }
  seek(seconds: number): void {
    const d = this.getDuration();
    this.ws.setTime(Math.max(0, d ? Math.min(d, seconds) : seconds));
  }
  skip(seconds: number): void {
    this.seek(this.getCurrentTime() + seconds);
  }
  setSpeed(rate: number): void {
    this.ws.setPlaybackRate(rate, true);
  }
  /** 0: the whole recording fits the width; otherwise pixels per second (32..4096). */
  zoom(pxPerSec: number): void {
    const level = pxPerSec === 0 ? 0 : Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, pxPerSec));
    // The same level again would redraw the whole waveform for nothing (the first render is at fit).
    if (level === this.zoomLevel) return;
    this.zoomLevel = level;
    if (this.ready) this.ws.zoom(level);
  }
  getZoom = (): number => this.zoomLevel;

  /**
   * Draws from other peaks of the same recording (the full resolution replacing the folded peaks of the
   * first draw once zoomed in); the media, the position, the zoom and the regions stay.
   */
  setPeaks(peaks: [Float32Array, Float32Array], durationS: number): void {
    if (!this.ready || peaks === this.shownPeaks) return;
    this.shownPeaks = peaks;
    this.ws.setOptions({ peaks, duration: this.ws.getDuration() || durationS });
    // wavesurfer draws new peaks only on load (which would pause and reload the media): its renderer (not in
    // its typings) is given the decoded data setOptions made of them.
    const decoded = this.ws.getDecodedData();
    const renderer = (this.ws as unknown as { renderer: { render(d: AudioBuffer): Promise<void> } }).renderer;
    if (decoded) void renderer.render(decoded);
  }

  /** Turns drawing new regions by dragging on the waveform on or off. */
  setRegionCreation(enabled: boolean): void {
    if (enabled && !this.disableDrag && this.o.mediaUrl !== null)
      this.disableDrag = this.regions.enableDragSelection({ color: DRAFT_COLOR });
    else if (!enabled && this.disableDrag) {
      this.disableDrag();
      this.disableDrag = null;
    }
  }

  clearDraft(): void {
    if (this.draft) discard(this.draft);
    this.draft = null;
  }

  /** Makes the plugin's regions those of `list` (added, moved, recoloured, removed); drops the draft. */
  setRegions(list: readonly AudioRegion[], selected: RegionId | null = this.selected): void {
    this.selected = selected;
    if (!this.ready) {
      this.pendingRegions = [...list];
      return;
    }
    this.clearDraft();
    const wanted = new Map(list.map((r) => [String(r.id), r]));
    for (const region of this.regions.getRegions()) {
      if (!wanted.has(region.id)) {
        this.ids.delete(region.id);
        discard(region);
      }
    }
    const existing = new Map(this.regions.getRegions().map((r) => [r.id, r]));
    const resizable = this.o.mediaUrl !== null;
    for (const [key, r] of wanted) {
      const color = r.color ?? DRAFT_COLOR;
      const editable = resizable && r.editable !== false;
      const region = existing.get(key);
      if (!region) {
        this.ids.set(key, r.id);
        const added = this.regions.addRegion({
          id: key,
          start: r.start,
          end: r.end,
          color,
          content: r.label,
          drag: false,
          resize: editable,
        });
        this.decorate(added, r);
      } else {
        if (region.start !== r.start || region.end !== r.end || region.color !== color)
          region.setOptions({ start: r.start, end: r.end, color });
        if (region.resize !== editable) region.setOptions({ resize: editable });
        // The label is the content's first text (the badge follows it).
        if ((region.content?.firstChild?.textContent ?? '') !== (r.label ?? '') && r.label)
          region.setContent(r.label);
        this.decorate(region, r);
      }
    }
  }

  private decorate(region: Region, r: AudioRegion): void {
    const el = region.element;
    if (!el) return;
    const isSelected = this.selected !== null && String(this.selected) === String(r.id);
    el.style.outline = isSelected ? '2px solid #212529' : r.outlined ? '2px dashed #dc3545' : '';
    // inside the region: the waveform's box clips what is drawn above and below it
    el.style.outlineOffset = isSelected || r.outlined ? '-2px' : '';
    el.style.zIndex = isSelected ? '3' : '';
    el.setAttribute('data-region-id', String(r.id));
    el.setAttribute('data-outlined', String(!!r.outlined));
    el.setAttribute('data-selected', String(isSelected));
    el.setAttribute('title', [r.label, r.badgeTitle].filter(Boolean).join(' · '));
    const content = region.content;
    if (!content) return;
    content.style.fontSize = '0.75rem';
    content.style.fontWeight = '600';
    content.style.color = '#212529';
    let badge = content.querySelector<HTMLElement>('[data-testid="region-badge"]');
    if (!r.badge) {
      badge?.remove();
      return;
    }
    if (!badge) {
      badge = document.createElement('span');
      badge.setAttribute('data-testid', 'region-badge');
      Object.assign(badge.style, {
        marginLeft: '0.3em',
        padding: '0 0.35em',
        borderRadius: '0.6em',
        background: '#212529',
        color: '#fff',
        fontSize: '0.65rem',
      });
      content.appendChild(badge);
    }
    badge.textContent = r.badge;
    badge.title = r.badgeTitle ?? '';
  }

  destroy(): void {
    this.unsubscribe.forEach((u) => u());
    this.disableDrag?.();
    // Pauses, removes and empties the media element, which stops its download.
    this.ws.destroy();
  }
}
