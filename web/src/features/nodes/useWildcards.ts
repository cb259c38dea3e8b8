/**
 * The wildcards an editor of the open node may offer (domain/wildcards.ts): by editor context, by the
 * node's trigger, and from the node's previous nodes (classifier nodes bring their labels).
 */
import { useMemo } from 'react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { isActionType } from '@domain/nodes';
import { availableWildcards, type Wildcard, type WildcardContext } from '@domain/wildcards';
import { nodeQueries } from '../graph/api';
import { labelQueries } from '../labels/api';
import { useNodeForm } from './form';

/** Module-level so that useQueries memoizes the combined result. */
const dataOf = <T>(results: readonly { data?: T }[]) => results.map((r) => r.data);

export function useWildcards(context: WildcardContext): Wildcard[] {
  const { draft } = useNodeForm();
  const previous = useQuery(nodeQueries.previous(draft.id));
  const classifierNodes = useMemo(
    () => (previous.data ?? []).filter((n) => n.activityType === 'CLF'),
    [previous.data],
  );
  const clfData = useQueries({
    queries: classifierNodes.map((n) => labelQueries.classifierTypes(n.id)),
    combine: dataOf,
  });
  const triggerType = isActionType(draft.activityType) ? draft.triggerType : 'ALWAYS';

  return useMemo(() => {
    const byNode = new Map(classifierNodes.map((n, i) => [n.id, clfData[i] ?? []]));
    const previousNodes = (previous.data ?? []).map((n) => ({
      id: n.id,
      name: n.name,
      activityType: n.activityType,
      classifierTypes: byNode.get(n.id),
    }));
    return availableWildcards({ context, triggerType, previousNodes });
  }, [context, triggerType, previous.data, classifierNodes, clfData]);
}
