/**
 * Who may add and edit the labelling menu's options (spec 2 sections 2 and 6): WRITE or ADMIN on the
 * step's node (ADMIN edits the whole tag type, WRITE its name and colours). A save refetches the queries
 * named by `refetch` (the option tree, and the tags so a renamed or recoloured type shows at once). Used by
 * the text workspace's LABELING view and the speech workspace's label menu.
 */
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { modeSatisfies, type AccessMode } from '@domain';
import type { OptionEditing } from '../components/LabelMenu';

export function useOptionEditing(
  nodeAccess: AccessMode | null,
  nodeId: number | null,
  refetch: readonly QueryKey[],
): OptionEditing | undefined {
  const queryClient = useQueryClient();
  const keys = useRef(refetch);
  keys.current = refetch;
  return useMemo<OptionEditing | undefined>(
    () =>
      nodeId !== null && modeSatisfies(nodeAccess, 'WRITE')
        ? {
            nodeId,
            admin: nodeAccess === 'ADMIN',
            onSaved: () =>
              Promise.all(keys.current.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
          }
        : undefined,
    [nodeAccess, nodeId, queryClient],
  );
}
