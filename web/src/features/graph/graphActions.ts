/**
 * What the canvas's node components may ask of the graph page (open the chooser, pick a type, connect to an
 * existing node), passed down by context so that node data stays plain data.
 */
import { createContext } from 'react';
import type { ActivityType } from '@domain';
import type { NodeDTO } from '@domain/graph-types';

export interface GraphActions {
  /** Shows the temporary chooser after the node (from its add-next button or a handle dropped on the pane). */
  openChooser: (sourceId: number) => void;
  closeChooser: () => void;
  /** The chooser lost the focus: it goes, unless a type was just picked (the modal took the focus). */
  blurChooser: () => void;
  /** The chooser's choice of a type: opens the add-node modal. */
  pickType: (type: ActivityType) => void;
  /** The chooser's 'connect with node' choice: adds the edge. */
  connectTo: (targetId: number) => void;
  /** Opens the predicate modal of an edge (its label button; clicks on the path go through the canvas). */
  openEdge: (edgeId: number) => void;
  /** Types a node of this type may be followed by (edge whitelist, upload types excluded). */
  followUpTypes: (type: ActivityType) => readonly ActivityType[];
  /** Existing nodes the source may be connected to (whitelist minus its ancestors and descendants). */
  connectableNodes: (sourceId: number) => readonly NodeDTO[];
}

export const GraphActionsContext = createContext<GraphActions | null>(null);
