/**
 * The undo shortcuts of a workspace view (spec 2 section 4, as the text workspace's LABELING view has them):
 * Ctrl+Z (Cmd+Z) undoes, Ctrl+Shift+Z and Ctrl+Y redo, while `enabled` and not while typing in a field.
 */
import { useEffect, useRef } from 'react';
import { typing } from '../../workspace/components/WorkspaceFrame';

export function useUndoShortcuts(enabled: boolean, undo: () => void, redo: () => void) {
  const latest = useRef({ enabled, undo, redo });
  latest.current = { enabled, undo, redo };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { enabled: on, undo: back, redo: again } = latest.current;
      if (!on || !(e.ctrlKey || e.metaKey) || e.altKey || typing(window.document.activeElement)) return;
      const key = e.key.toLowerCase();
      if (key === 'z') {
        e.preventDefault();
        if (e.shiftKey) again();
        else back();
      } else if (key === 'y') {
        e.preventDefault();
        again();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
