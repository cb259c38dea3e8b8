/**
 * Keeps the workspace and its relation graph window (../components/RelationsWindowPage.tsx) in step, per
 * document, over a BroadcastChannel (same origin, no server): a window that saved or removed relations says
 * `changed` and the others refetch the graphs; a tag chosen in the graph window's view is selected (and
 * scrolled to) in the workspace's text by `selectTag`. Where the browser has no BroadcastChannel, each window
 * still works alone.
 */
import { useCallback, useEffect, useRef } from 'react';

export type RelationsMessage = { kind: 'changed' } | { kind: 'selectTag'; tagId: number };

const channelName = (documentId: number) => `relations-${documentId}`;

export function useRelationsChannel(documentId: number, onMessage?: (m: RelationsMessage) => void) {
  const channel = useRef<BroadcastChannel | null>(null);
  const handler = useRef(onMessage);
  handler.current = onMessage;

  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const c = new BroadcastChannel(channelName(documentId));
    c.onmessage = (e: MessageEvent<RelationsMessage>) => handler.current?.(e.data);
    channel.current = c;
    return () => {
      c.close();
      channel.current = null;
    };
  }, [documentId]);

  return useCallback((m: RelationsMessage) => channel.current?.postMessage(m), []);
}
