/**
 * Full screen for a workspace view (the preview, the relation graph): the view becomes a whole-window
 * overlay (its `is-full` class) and the browser is asked for full screen on `target` (where it refuses, the
 * overlay alone); leaving the browser's full screen (Escape, F11) leaves ours too.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export function useFullScreen(target: () => Element | null | undefined) {
  const [full, setFull] = useState(false);
  const asked = useRef(false);

  useEffect(() => {
    const onChange = () => {
      if (!document.fullscreenElement) setFull(false);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      // a view that goes away (the last graph deleted) does not leave the browser in full screen
      if (asked.current && document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
    };
  }, []);

  const enter = useCallback(() => {
    setFull(true);
    asked.current = true;
    target()
      ?.requestFullscreen?.()
      .catch(() => undefined);
    // the target is read when asked
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const exit = useCallback(() => {
    setFull(false);
    asked.current = false;
    if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
  }, []);

  return { full, enter, exit };
}
