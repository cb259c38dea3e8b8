/**
 * Dragging a node: the position is saved when the drag ends; a move shorter than 5 px counts as a click.
 * (The canvas also starts drags only past that distance, so this mostly guards odd pointer paths.)
 */
import { useCallback, useRef } from 'react';
import type { OnNodeDrag } from '@xyflow/react';
import type { GraphFlowNode } from '../flowModel';
import { movedFarEnough, type XY } from '../layout';

export function useNodeDrag(onMoved: (id: number, to: XY) => void, onClick: (id: number) => void) {
  const start = useRef<{ id: string; at: XY } | null>(null);

  const onNodeDragStart: OnNodeDrag<GraphFlowNode> = useCallback((_e, node) => {
    start.current = { id: node.id, at: { ...node.position } };
  }, []);

  const onNodeDragStop: OnNodeDrag<GraphFlowNode> = useCallback(
    (_e, node) => {
      const from = start.current;
      start.current = null;
      if (node.type !== 'process' || !from || from.id !== node.id) return;
      const id = node.data.node.id;
      if (movedFarEnough(from.at, node.position)) {
        onMoved(id, { x: Math.round(node.position.x), y: Math.round(node.position.y) });
      } else {
        onClick(id);
      }
    },
    [onMoved, onClick],
  );

  return { onNodeDragStart, onNodeDragStop };
}
