/**
 * Keeps what the user is working on inside the visible canvas: the node whose side panel just opened (the
 * panel narrows the canvas) and the temporary chooser once drawn. Pans the least needed, with a margin.
 */
import { useCallback, useEffect, type RefObject } from 'react';
import { useReactFlow } from '@xyflow/react';
import { CHOOSER_ID } from '../flowModel';
import { NODE_HEIGHT, NODE_WIDTH } from '../layout';

const MARGIN = 16;

export function useKeepInView(
  canvasRef: RefObject<HTMLDivElement | null>,
  activeNodeId: number | null,
  chooserSourceId: number | null,
) {
  const { getNode, getViewport, setViewport } = useReactFlow();

  const ensureVisible = useCallback(
    (x: number, y: number, width: number, height: number) => {
      const rect = canvasRef.current?.getBoundingClientRect();
      if (!rect) return;
      const view = getViewport();
      const left = x * view.zoom + view.x;
      const top = y * view.zoom + view.y;
      const right = left + width * view.zoom;
      const bottom = top + height * view.zoom;
      const dx =
        left < MARGIN ? MARGIN - left : right > rect.width - MARGIN ? rect.width - MARGIN - right : 0;
      const dy =
        top < MARGIN ? MARGIN - top : bottom > rect.height - MARGIN ? rect.height - MARGIN - bottom : 0;
      if (dx || dy) void setViewport({ ...view, x: view.x + dx, y: view.y + dy }, { duration: 250 });
    },
    [canvasRef, getViewport, setViewport],
  );

  // The side panel narrows the canvas: bring the chosen node back into view when it ends up under it.
  useEffect(() => {
    if (activeNodeId === null) return;
    const timer = window.setTimeout(() => {
      const node = getNode(String(activeNodeId));
      if (node) ensureVisible(node.position.x, node.position.y, NODE_WIDTH, NODE_HEIGHT);
    }, 80);
    return () => window.clearTimeout(timer);
  }, [activeNodeId, getNode, ensureVisible]);

  // Likewise the chooser, once it is drawn.
  useEffect(() => {
    if (chooserSourceId === null) return;
    const timer = window.setTimeout(() => {
      const node = getNode(CHOOSER_ID);
      if (node)
        ensureVisible(
          node.position.x,
          node.position.y,
          node.measured?.width ?? 230,
          node.measured?.height ?? 340,
        );
    }, 50);
    return () => window.clearTimeout(timer);
  }, [chooserSourceId, getNode, ensureVisible]);
}
