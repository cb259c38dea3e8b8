/**
 * Everything the graph page reads: the process (its name), its nodes and edges, the predicate roots of its
 * edges, the edge whitelist and the static node properties; plus the rules derived from them.
 */
import { useCallback, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ActivityTypes, type ActivityType } from '@domain';
import { allowedFollowUps } from '@domain/graph';
import type { EdgeDTO, NodeDTO, PredicateDTO } from '@domain/graph-types';
import { isUploadType } from '@domain/nodes';
import { processQueries } from '../../processes/api';
import { edgeQueries, nodePropertiesQueries, nodeQueries, predicateQueries } from '../api';

const NO_NODES: NodeDTO[] = [];
const NO_EDGES: EdgeDTO[] = [];
const NO_PREDICATES: PredicateDTO[] = [];

export function useGraphData(processId: number) {
  const process = useQuery(processQueries.detail(processId));
  const nodesQuery = useQuery(nodeQueries.list(processId));
  const edgesQuery = useQuery(edgeQueries.list(processId));
  const predicatesQuery = useQuery(predicateQueries.byProcess(processId));
  const whitelistQuery = useQuery(edgeQueries.whitelist());
  const propertiesQuery = useQuery(nodePropertiesQueries.get());

  const nodes = nodesQuery.data ?? NO_NODES;
  const edges = edgesQuery.data ?? NO_EDGES;
  const predicates = predicatesQuery.data ?? NO_PREDICATES;
  const whitelist = whitelistQuery.data;

  /** Every type, in the order of the server's node properties (the domain's order until they arrive). */
  const activityTypes: readonly ActivityType[] = propertiesQuery.data?.activityTypes ?? ActivityTypes;

  const followUpTypes = useCallback(
    (type: ActivityType): readonly ActivityType[] =>
      (whitelist?.[type] ?? []).filter((target) => !isUploadType(target)),
    [whitelist],
  );

  const connectableNodes = useCallback(
    (sourceId: number) => allowedFollowUps({ nodes, edges }, sourceId),
    [nodes, edges],
  );

  const existingNames = useMemo(() => nodes.map((n) => n.name), [nodes]);
  const existingEndpoints = useMemo(
    () => nodes.flatMap((n) => (n.activityType === 'HUP' && n.endpoint ? [n.endpoint] : [])),
    [nodes],
  );

  return {
    process: process.data ?? null,
    nodes,
    edges,
    predicates,
    activityTypes,
    followUpTypes,
    connectableNodes,
    existingNames,
    existingEndpoints,
    isPending: nodesQuery.isPending || edgesQuery.isPending,
    isError: nodesQuery.isError || edgesQuery.isError,
  };
}
