/**
 * Full screen for a workspace view (the preview, the relation graph): the view becomes a whole-window
 * overlay (its `is-full` class) and the browser is asked for full screen on `target` (where it refuses, the
 * overlay alone); leaving the browser's full screen (Escape, F11) leaves ours too.
 */
import { useCallback, useEffect, useState } from 'react';

export function useFullScreen(target: () => Element | null | undefined) {
  const [full, setFull] = useState(false);

  useEffect(() => {
    const onChange = () => {
      if (!document.fullscreenElement) setFull(false);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const enter = useCallback(() => {
    setFull(true);
    target()
      ?.requestFullscreen?.()
      .catch(() => undefined);
    // the target is read when asked
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const exit = useCallback(() => {
    setFull(false);
    if (document.fullscreenElement) document.exitFullscreen().catch(() => undefined);
  }, []);

  return { full, enter, exit };
}
