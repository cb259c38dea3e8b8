/** The graph page's actions for the canvas's node components. */
import { useContext } from 'react';
import { GraphActionsContext, type GraphActions } from '../graphActions';

export function useGraphActions(): GraphActions {
  const actions = useContext(GraphActionsContext);
  if (!actions) throw new Error('useGraphActions outside the graph page');
  return actions;
}
