/**
 * The flow graph's server state: one key factory and one queryOptions factory per resource (nodes, edges,
 * predicates, node properties, whitelists), plus the mutations of the graph page. The labels a predicate points
 * at come from the labels feature's queries, so that labels edited in the side panel show up here. Key roots are the plain resource names ('nodes', 'edges', ...) so that any feature that
 * changes a node or an edge can invalidate the graph by the root alone.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ActivityType } from '@domain';
import type {
  EdgeDTO,
  EdgeWhitelist,
  NodeDTO,
  NodeCoordinatesDTO,
  NodeInput,
  NodePropertiesDTO,
  PredicateDTO,
  PredicateInput,
} from '@domain/graph-types';
import type { DryRunDTO } from '@domain/predicate-dry-run';
import { http } from '../../api/client';

const STATIC = 10 * 60_000;

// --- nodes ---

export const nodeKeys = {
  all: ['nodes'] as const,
  lists: () => [...nodeKeys.all, 'list'] as const,
  list: (processId: number) => [...nodeKeys.lists(), processId] as const,
  details: () => [...nodeKeys.all, 'detail'] as const,
  detail: (id: number) => [...nodeKeys.details(), id] as const,
  previous: (id: number) => [...nodeKeys.all, 'previous', id] as const,
};

export const nodeQueries = {
  list: (processId: number) =>
    queryOptions({
      queryKey: nodeKeys.list(processId),
      queryFn: ({ signal }) => http.get<NodeDTO[]>('api/nodes', { query: { processId }, signal }),
    }),
  detail: (id: number) =>
    queryOptions({
      queryKey: nodeKeys.detail(id),
      queryFn: ({ signal }) => http.get<NodeDTO>(`api/nodes/${id}`, { signal }),
    }),
  /** Every ancestor of the node (not the node itself). */
  previous: (id: number) =>
    queryOptions({
      queryKey: nodeKeys.previous(id),
      queryFn: ({ signal }) => http.get<NodeDTO[]>(`api/nodes/${id}/previousNodes`, { signal }),
    }),
};

// --- edges ---

export const edgeKeys = {
  all: ['edges'] as const,
  lists: () => [...edgeKeys.all, 'list'] as const,
  list: (processId: number) => [...edgeKeys.lists(), processId] as const,
  whitelist: () => [...edgeKeys.all, 'whitelist'] as const,
};

export const edgeQueries = {
  list: (processId: number) =>
    queryOptions({
      queryKey: edgeKeys.list(processId),
      queryFn: ({ signal }) => http.get<EdgeDTO[]>('api/edges', { query: { processId }, signal }),
    }),
  whitelist: () =>
    queryOptions({
      queryKey: edgeKeys.whitelist(),
      queryFn: ({ signal }) => http.get<EdgeWhitelist>('api/edges/whitelist', { signal }),
      staleTime: STATIC,
    }),
};

// --- predicates ---

export const predicateKeys = {
  all: ['predicates'] as const,
  byEdge: (edgeId: number) => [...predicateKeys.all, 'edge', edgeId] as const,
  byProcess: (processId: number) => [...predicateKeys.all, 'process', processId] as const,
};

export const predicateQueries = {
  /** The predicate tree of one edge (roots with nested `predicates`). */
  byEdge: (edgeId: number) =>
    queryOptions({
      queryKey: predicateKeys.byEdge(edgeId),
      queryFn: ({ signal }) => http.get<PredicateDTO[]>('api/predicates', { query: { edgeId }, signal }),
    }),
  /** The predicate roots of every edge of a process (the edge badges). */
  byProcess: (processId: number) =>
    queryOptions({
      queryKey: predicateKeys.byProcess(processId),
      queryFn: ({ signal }) => http.get<PredicateDTO[]>('api/predicates', { query: { processId }, signal }),
    }),
  /** Where the process's last documents would go with an unsaved predicate of the edge (nothing is saved). */
  dryRun: (edgeId: number, draft: PredicateInput) =>
    queryOptions({
      queryKey: [...predicateKeys.all, 'dry-run', edgeId, draft] as const,
      queryFn: ({ signal }) =>
        http.post<DryRunDTO>(`api/edges/${edgeId}/predicate-dry-run`, draft, { signal, silent: true }),
      staleTime: 30_000,
    }),
};

// --- static per-type facts ---

export const nodePropertiesKeys = {
  all: ['node-properties'] as const,
};

export const nodePropertiesQueries = {
  get: () =>
    queryOptions({
      queryKey: nodePropertiesKeys.all,
      queryFn: ({ signal }) => http.get<NodePropertiesDTO>('api/node-properties', { signal }),
      staleTime: STATIC,
    }),
};

export const NODE_WHITELISTS = [
  'multiprocessed-nodes-whitelist',
  'nodes-with-conditional-acceptance-whitelist',
  'custom-external-nodes-whitelist',
  'llm-external-nodes-whitelist',
  'trainable-nodes-whitelist',
] as const;
export type NodeWhitelist = (typeof NODE_WHITELISTS)[number];

export const whitelistKeys = {
  all: ['node-whitelists'] as const,
  one: (name: NodeWhitelist) => [...whitelistKeys.all, name] as const,
};

export const whitelistQueries = {
  one: (name: NodeWhitelist) =>
    queryOptions({
      queryKey: whitelistKeys.one(name),
      queryFn: ({ signal }) => http.get<ActivityType[]>(`api/nodes/${name}`, { signal }),
      staleTime: STATIC,
    }),
};

// --- mutations ---

/** Nodes, edges, ancestors and predicates all depend on the shape of the graph. */
function useInvalidateGraph() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: nodeKeys.all }),
      queryClient.invalidateQueries({ queryKey: edgeKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: predicateKeys.all }),
    ]);
}

/**
 * Creates a node and, when it was chosen as the follow-up of a source node, the edge from that source; the
 * graph is refreshed once both calls are done. A refused edge (its error toast already shown) leaves the new
 * node in place, unconnected: the result says so instead of failing the whole addition.
 */
export function useAddNode() {
  const invalidate = useInvalidateGraph();
  return useMutation({
    mutationFn: async ({ node, sourceId }: { node: NodeInput; sourceId: number | null }) => {
      const created = await http.post<NodeDTO>('api/nodes', node);
      let edgeFailed = false;
      if (sourceId !== null) {
        await http.post<EdgeDTO>('api/edges', { fromId: sourceId, toId: created.id }).catch(() => {
          edgeFailed = true;
        });
      }
      return { node: created, edgeFailed };
    },
    onSettled: invalidate,
  });
}

export function useCreateEdge() {
  const invalidate = useInvalidateGraph();
  return useMutation({
    mutationFn: (edge: { fromId: number; toId: number }) => http.post<EdgeDTO>('api/edges', edge),
    onSettled: invalidate,
  });
}

export function useDeleteEdge() {
  const invalidate = useInvalidateGraph();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/edges/${id}`),
    onSuccess: invalidate,
  });
}

/** Saves a node's position; the node list is updated at once and rolled back when the call fails. */
export function useMoveNode(processId: number) {
  const queryClient = useQueryClient();
  const key = nodeKeys.list(processId);
  return useMutation({
    mutationFn: ({ id, x, y }: { id: number; x: number; y: number }) =>
      http.put<NodeDTO>(`api/nodes/${id}/coordinates`, { x, y }),
    onMutate: async ({ id, x, y }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<NodeDTO[]>(key);
      queryClient.setQueryData<NodeDTO[]>(key, (nodes) =>
        nodes?.map((n) => (n.id === id ? { ...n, x, y } : n)),
      );
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

/**
 * Saves several positions at once (PUT api/nodes/coordinates): used to pin the laid-out positions of nodes
 * never placed, so that placing one node does not make the automatic layout of the others move.
 */
export function useSaveCoordinates(processId: number) {
  const queryClient = useQueryClient();
  const key = nodeKeys.list(processId);
  return useMutation({
    mutationFn: (list: NodeCoordinatesDTO[]) => http.put<unknown>('api/nodes/coordinates', list),
    onMutate: async (list) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<NodeDTO[]>(key);
      const byId = new Map(list.map((c) => [c.id, c]));
      queryClient.setQueryData<NodeDTO[]>(key, (nodes) =>
        nodes?.map((n) => {
          const c = byId.get(n.id);
          return c ? { ...n, x: c.x, y: c.y } : n;
        }),
      );
      return { previous };
    },
    onError: (_error, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
  });
}

export function useSavePredicate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (predicate: PredicateInput) =>
      predicate.id
        ? http.put<PredicateDTO>('api/predicates', predicate)
        : http.post<PredicateDTO>('api/predicates', predicate),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: predicateKeys.all }),
  });
}

export function useDeletePredicate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.delete(`api/predicates/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: predicateKeys.all }),
  });
}
