/**
 * The thin React hook over PlayerEngine (player-engine.ts): creates the engine in an effect once the peaks
 * are known and destroys it on cleanup; the caller's callbacks are read through a ref (never a stale
 * closure); the current time goes to subscribers (the clock, the caller's onTimeUpdate) without a render of
 * the player per frame.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { PlayerEngine, type EngineEvents } from '../player-engine';
import type { WaveformPeaks } from '../api';

export interface PlayerState {
  ready: boolean;
  playing: boolean;
  durationS: number;
  mediaError: 'format' | 'network' | null;
}

export interface UsePlayerEngineOptions {
  container: RefObject<HTMLDivElement | null>;
  /** undefined while the peaks load; null when the document has none. */
  peaks: WaveformPeaks | null | undefined;
  mediaUrl: string | null;
  height?: number;
  events: Omit<EngineEvents, 'onReady' | 'onPlayingChange' | 'onMediaError' | 'onTimeUpdate'> & {
    onTimeUpdate?(seconds: number): void;
    onPlayingChange?(playing: boolean): void;
    onReady?(durationS: number): void;
  };
}

export function usePlayerEngine({ container, peaks, mediaUrl, height, events }: UsePlayerEngineOptions) {
  const [engine, setEngine] = useState<PlayerEngine | null>(null);
  const [state, setState] = useState<PlayerState>({
    ready: false,
    playing: false,
    durationS: 0,
    mediaError: null,
  });
  const latest = useRef(events);
  useEffect(() => {
    latest.current = events;
  });
  const timeListeners = useRef(new Set<(t: number) => void>());

  useEffect(() => {
    const el = container.current;
    if (!el || peaks === undefined) return;
    setState({ ready: false, playing: false, durationS: peaks?.durationS ?? 0, mediaError: null });
    const created = new PlayerEngine({
      container: el,
      mediaUrl,
      peaks: peaks?.channels ?? null,
      durationS: peaks?.durationS ?? null,
      height,
      events: () => ({
        ...latest.current,
        onReady: (d) => {
          setState((s) => ({ ...s, ready: true, durationS: d }));
          latest.current.onReady?.(d);
        },
        onPlayingChange: (playing) => {
          setState((s) => ({ ...s, playing }));
          latest.current.onPlayingChange?.(playing);
        },
        onMediaError: (kind) => setState((s) => ({ ...s, mediaError: kind, playing: false })),
        onTimeUpdate: (t) => {
          timeListeners.current.forEach((l) => l(t));
          latest.current.onTimeUpdate?.(t);
        },
      }),
    });
    setEngine(created);
    return () => {
      created.destroy();
      setEngine(null);
    };
  }, [container, peaks, mediaUrl, height]);

  /** Calls `listener` with the current time at every time update; returns the unsubscribe. */
  const subscribeTime = useCallback((listener: (t: number) => void) => {
    timeListeners.current.add(listener);
    return () => {
      timeListeners.current.delete(listener);
    };
  }, []);

  return { engine, state, subscribeTime };
}
