/**
 * The audio player of a speech document (spec 2 section 2 "Audio player", issue 14 section 1): play/pause,
 * skip +-10 s, speeds 0.5-2, progress and time, waveform toggle, zoom 32-4096 px/s, the time-span regions
 * and, for the selected editable region, the timestamp editor. The waveform is drawn from the parser's
 * peaks (folded to FIT_WINDOWS for the first draw, the full resolution once zoomed in) and the audio
 * streams through the media element with HTTP ranges: a recording is never downloaded or decoded whole
 * (player-engine.ts).
 *
 * Usage (the speech workspace):
 *   const player = useRef<AudioPlayerHandle>(null);
 *   <AudioPlayer ref={player} documentId={id} playbackEnabled={mode === 'NONE'}
 *     downloadBlocked={settings['source-download-blocked']} regions={spans} selectedRegionId={sel}
 *     onRegionCreate={(s, e) => ...} onRegionUpdate={(id, s, e) => ...} onTimeUpdate={highlight} />
 *   player.current?.togglePlay()   // Space
 *   player.current?.playSegment(tsStart / 1000, tsEnd / 1000)   // a clicked token, +-0.5 s
 *
 * - `playbackEnabled` false (an editing mode other than NONE): play is disabled and playback pauses.
 * - `downloadBlocked` (the source-download-blocked setting): the audio is never requested; the controls are
 *   dimmed and disabled and a notice says why; the waveform and regions still show (the peaks are not the
 *   source), but regions cannot be drawn or resized.
 * - A browser that cannot play the format, or an audio that cannot be loaded, gets a notice.
 * - Regions are controlled: the player shows `regions`; a drag on the waveform calls onRegionCreate and
 *   leaves a draft region until `regions` changes (or `clearDraft()`); a resize by the edges, or the
 *   timestamp editor, calls onRegionUpdate. Times in seconds, rounded to 2 decimals.
 */
import { forwardRef, useEffect, useImperativeHandle, useMemo, useRef, useState, type SVGProps } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FIT_WINDOWS, audioStreamUrl, speechQueries } from '../api';
import { SKIP_S, SPEEDS, ZOOM_LEVELS, type AudioRegion, type RegionId } from '../player-engine';
import { formatTimestamp } from '../timestamp';
import { TimeRangeInput } from './TimestampInput';
import { usePlayerEngine } from './usePlayerEngine';
import '../speech.css';

export type { AudioRegion, RegionId } from '../player-engine';

export interface AudioPlayerProps {
  /** The AUDIOFILE document (its audio, peaks: GET api/asr-documents/{id}/audio and /peaks). */
  documentId: number;
  /** The document's MIME type: a format the browser cannot play gets a notice before any request. */
  mimeType?: string;
  /** Only in editing mode NONE (default true). */
  playbackEnabled?: boolean;
  /** The source-download-blocked setting (default false). */
  downloadBlocked?: boolean;
  regions?: readonly AudioRegion[];
  selectedRegionId?: RegionId | null;
  /** Drawing new regions by dragging on the waveform (default: on when onRegionCreate is given). */
  regionCreationEnabled?: boolean;
  onRegionCreate?(start: number, end: number): void;
  onRegionUpdate?(id: RegionId, start: number, end: number): void;
  /** A click on a region, with the click (its modifier keys: Alt/Ctrl+click relates tags). */
  onRegionClick?(id: RegionId, event: MouseEvent): void;
  /** Every time update while playing or seeking (seconds): keep it cheap (the word highlight). */
  onTimeUpdate?(seconds: number): void;
  onPlayingChange?(playing: boolean): void;
  onReady?(durationS: number): void;
  /** Waveform height in px (default 96). */
  height?: number;
  className?: string;
}

export interface AudioPlayerHandle {
  seek(seconds: number): void;
  togglePlay(): void;
  play(): void;
  pause(): void;
  /** Plays from `start` to `end` (seconds) with `padding` either side (default 0.5 s, spec 2 section 9). */
  playSegment(start: number, end: number, padding?: number): void;
  getCurrentTime(): number;
  isPlaying(): boolean;
  clearDraft(): void;
}

type IconProps = SVGProps<SVGSVGElement>;
const Svg = ({ children, ...p }: IconProps) => (
  <svg width={16} height={16} viewBox="0 0 16 16" fill="currentColor" aria-hidden="true" {...p}>
    {children}
  </svg>
);
const IconPlay = () => (
  <Svg>
    <path d="M4 2.5v11l9-5.5z" />
  </Svg>
);
const IconPause = () => (
  <Svg>
    <path d="M4 2.5h3v11H4zm5 0h3v11H9z" />
  </Svg>
);
const IconBack = () => (
  <Svg>
    <path d="M8 3 2 8l6 5V3zm6 0L8 8l6 5V3z" />
  </Svg>
);
const IconForward = () => (
  <Svg>
    <path d="m8 3 6 5-6 5V3zM2 3l6 5-6 5V3z" />
  </Svg>
);
const IconWave = () => (
  <Svg>
    <path d="M1 7h1v2H1zm2-3h1v8H3zm2 2h1v4H5zm2-5h1v14H7zm2 3h1v8H9zm2 2h1v4h-1zm2-1h1v6h-1z" />
  </Svg>
);

/** Shown for the length of a recording not known (yet): no peaks and no playable audio, e.g. a JSON transcript. */
const UNKNOWN_DURATION = '--:--:--';

/** The time and progress bar, re-rendered by the time subscription only (not the whole player). */
function PlayerClock({
  subscribe,
  durationS,
  onSeek,
  disabled,
}: {
  subscribe(listener: (t: number) => void): () => void;
  durationS: number;
  onSeek(seconds: number): void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const [time, setTime] = useState(0);
  useEffect(() => {
    let last = -1;
    // Centisecond display: a render only when the shown value changes.
    return subscribe((s) => {
      const c = Math.floor(s * 100);
      if (c !== last) {
        last = c;
        setTime(s);
      }
    });
  }, [subscribe]);
  return (
    <>
      <span
        className="font-monospace small text-nowrap"
        data-testid="audio-player-time"
        title={t('speechPlayer.clockFormat')}
      >
        {formatTimestamp(time)} / {durationS > 0 ? formatTimestamp(durationS) : UNKNOWN_DURATION}
      </span>
      <input
        type="range"
        className="form-range audio-player-progress flex-grow-1"
        min={0}
        max={durationS || 0}
        step={0.01}
        value={Math.min(time, durationS || 0)}
        disabled={disabled}
        aria-label={t('speechPlayer.progress')}
        data-testid="audio-player-progress"
        onChange={(e) => onSeek(Number(e.target.value))}
      />
    </>
  );
}

export const AudioPlayer = forwardRef<AudioPlayerHandle, AudioPlayerProps>(function AudioPlayer(
  {
    documentId,
    mimeType,
    playbackEnabled = true,
    downloadBlocked = false,
    regions,
    selectedRegionId = null,
    regionCreationEnabled,
    onRegionCreate,
    onRegionUpdate,
    onRegionClick,
    onTimeUpdate,
    onPlayingChange,
    onReady,
    height,
    className,
  },
  ref,
) {
  const { t } = useTranslation();
  const container = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(0);
  // Drawn first from the peaks folded to FIT_WINDOWS; the full resolution only once zoomed in.
  const peaks = useQuery(speechQueries.peaks(documentId, FIT_WINDOWS));
  const fullPeaks = useQuery({ ...speechQueries.peaks(documentId), enabled: zoom !== 0 && !!peaks.data });
  // A transcript imported as JSON is a speech document without a recording: nothing to play or draw.
  const noRecording = mimeType === 'application/json';
  const unplayable = useMemo(
    () => !!mimeType && document.createElement('audio').canPlayType(mimeType) === '',
    [mimeType],
  );
  const mediaUrl = downloadBlocked || unplayable ? null : audioStreamUrl(documentId);
  const { engine, state, subscribeTime } = usePlayerEngine({
    container,
    // The peaks failing to load is not fatal: a flat line, the audio still plays.
    peaks: peaks.isPending ? undefined : (peaks.data ?? null),
    mediaUrl,
    height,
    events: {
      onRegionCreate: (s, e) => onRegionCreate?.(s, e),
      onRegionUpdate: (id, s, e) => onRegionUpdate?.(id, s, e),
      onRegionClick: (id, e) => onRegionClick?.(id, e),
      onTimeUpdate,
      onPlayingChange,
      onReady,
    },
  });
  const [speed, setSpeed] = useState(1);
  const [showWaveform, setShowWaveform] = useState(true);
  const canPlay = !!mediaUrl && playbackEnabled && state.ready && state.mediaError === null;
  const controlsOff = !mediaUrl || !state.ready || state.mediaError !== null;

  useEffect(() => {
    if (!playbackEnabled) engine?.pause();
  }, [engine, playbackEnabled]);
  useEffect(() => {
    engine?.setSpeed(speed);
  }, [engine, speed]);
  useEffect(() => {
    if (state.ready) engine?.zoom(zoom);
  }, [engine, zoom, state.ready]);
  useEffect(() => {
    if (state.ready && fullPeaks.data) engine?.setPeaks(fullPeaks.data.channels, fullPeaks.data.durationS);
  }, [engine, fullPeaks.data, state.ready]);
  useEffect(() => {
    engine?.setRegions(regions ?? [], selectedRegionId);
  }, [engine, regions, selectedRegionId]);
  const creation = (regionCreationEnabled ?? !!onRegionCreate) && !downloadBlocked;
  useEffect(() => {
    engine?.setRegionCreation(creation);
  }, [engine, creation]);

  useImperativeHandle(
    ref,
    () => ({
      seek: (s) => engine?.seek(s),
      togglePlay: () => {
        if (engine?.isPlaying()) engine.pause();
        else if (canPlay) engine?.play();
      },
      play: () => {
        if (canPlay) engine?.play();
      },
      pause: () => engine?.pause(),
      playSegment: (start, end, padding = 0.5) => {
        if (!canPlay || !engine) return;
        const d = engine.getDuration();
        engine.play(Math.max(0, start - padding), Math.min(d || end + padding, end + padding));
      },
      getCurrentTime: () => engine?.getCurrentTime() ?? 0,
      isPlaying: () => engine?.isPlaying() ?? false,
      clearDraft: () => engine?.clearDraft(),
    }),
    [engine, canPlay],
  );

  const selected =
    selectedRegionId === null ? undefined : regions?.find((r) => String(r.id) === String(selectedRegionId));
  const zoomIndex = ZOOM_LEVELS.indexOf(zoom as (typeof ZOOM_LEVELS)[number]);
  const notice = noRecording
    ? t('speechPlayer.notice.noRecording')
    : downloadBlocked
      ? t('speechPlayer.notice.downloadBlocked')
      : unplayable || state.mediaError === 'format'
        ? t('speechPlayer.notice.unsupported', { type: mimeType ?? '' })
        : state.mediaError === 'network'
          ? t('speechPlayer.notice.loadFailed')
          : null;

  return (
    <div
      className={`audio-player${controlsOff ? ' audio-player-dimmed' : ''} ${className ?? ''}`}
      data-testid="audio-player"
      data-ready={state.ready}
      data-playing={state.playing}
    >
      {notice && (
        <div
          className="alert alert-warning py-1 px-2 small mb-2"
          role="status"
          data-testid="audio-player-notice"
        >
          {notice}
        </div>
      )}
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2 audio-player-controls">
        <div className="btn-group btn-group-sm" role="group">
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={controlsOff}
            title={t('speechPlayer.back', { seconds: SKIP_S })}
            aria-label={t('speechPlayer.back', { seconds: SKIP_S })}
            data-testid="audio-player-back"
            onClick={() => engine?.skip(-SKIP_S)}
          >
            <IconBack />
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!canPlay && !state.playing}
            title={state.playing ? t('speechPlayer.pause') : t('speechPlayer.play')}
            aria-label={state.playing ? t('speechPlayer.pause') : t('speechPlayer.play')}
            data-testid="audio-player-play"
            onClick={() => (state.playing ? engine?.pause() : engine?.play())}
          >
            {state.playing ? <IconPause /> : <IconPlay />}
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={controlsOff}
            title={t('speechPlayer.forward', { seconds: SKIP_S })}
            aria-label={t('speechPlayer.forward', { seconds: SKIP_S })}
            data-testid="audio-player-forward"
            onClick={() => engine?.skip(SKIP_S)}
          >
            <IconForward />
          </button>
        </div>
        <PlayerClock
          subscribe={subscribeTime}
          durationS={state.durationS}
          disabled={controlsOff}
          onSeek={(s) => engine?.seek(s)}
        />
        <select
          className="form-select form-select-sm w-auto"
          value={speed}
          disabled={controlsOff}
          aria-label={t('speechPlayer.speed')}
          title={t('speechPlayer.speed')}
          data-testid="audio-player-speed"
          onChange={(e) => setSpeed(Number(e.target.value))}
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
        <button
          type="button"
          className={`btn btn-sm ${showWaveform ? 'btn-secondary' : 'btn-outline-secondary'}`}
          aria-pressed={showWaveform}
          title={t('speechPlayer.waveform')}
          aria-label={t('speechPlayer.waveform')}
          data-testid="audio-player-waveform-toggle"
          onClick={() => setShowWaveform((v) => !v)}
        >
          <IconWave />
        </button>
        <div className="btn-group btn-group-sm" role="group" aria-label={t('speechPlayer.zoom')}>
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={!state.ready || zoomIndex <= 0}
            aria-label={t('speechPlayer.zoomOut')}
            title={t('speechPlayer.zoomOut')}
            data-testid="audio-player-zoom-out"
            onClick={() => setZoom(ZOOM_LEVELS[Math.max(0, zoomIndex - 1)])}
          >
            −
          </button>
          <span
            className="btn btn-outline-secondary disabled audio-player-zoom-label"
            data-testid="audio-player-zoom"
          >
            {zoom === 0 ? t('speechPlayer.zoomFit') : t('speechPlayer.zoomLevel', { value: zoom })}
          </span>
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={!state.ready || zoomIndex >= ZOOM_LEVELS.length - 1}
            aria-label={t('speechPlayer.zoomIn')}
            title={t('speechPlayer.zoomIn')}
            data-testid="audio-player-zoom-in"
            onClick={() => setZoom(ZOOM_LEVELS[Math.min(ZOOM_LEVELS.length - 1, zoomIndex + 1)])}
          >
            +
          </button>
        </div>
      </div>
      <div
        ref={container}
        className="audio-player-waveform"
        hidden={!showWaveform}
        data-testid="audio-player-waveform"
      />
      {peaks.isSuccess && peaks.data === null && !noRecording && (
        <p className="small text-body-secondary mb-0 mt-1" data-testid="audio-player-no-peaks">
          {t('speechPlayer.notice.noPeaks')}
        </p>
      )}
      {selected && selected.editable !== false && onRegionUpdate && (
        <div className="mt-2">
          <TimeRangeInput
            start={selected.start}
            end={selected.end}
            durationS={state.durationS}
            disabled={!mediaUrl}
            onChange={(s, e) => onRegionUpdate(selected.id, s, e)}
            testId="audio-player-range"
          />
        </div>
      )}
    </div>
  );
});
