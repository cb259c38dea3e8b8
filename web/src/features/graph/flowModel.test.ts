// Jest has no mapping for the '@domain' alias (Vite and tsc do): point the one runtime import at the source.
import type { ActivityType } from '@domain';
import type { EdgeDTO, NodeDTO } from '@domain/graph-types';
import { CHOOSER_ID, UPLOAD_GROUP_ID, buildFlow, type ProcessFlowNode } from './flowModel';

const node = (id: number, activityType: ActivityType, x = 0, y = 0): NodeDTO =>
  ({ id, name: `n${id}`, activityType, x, y, processId: 1 }) as NodeDTO;
const edge = (id: number, fromId: number, toId: number): EdgeDTO => ({ id, fromId, toId, processId: 1 });
const isUpload = (t: ActivityType) => t === 'HUP';
const followUpTypes = (t: ActivityType): ActivityType[] => (t === 'SEND_MAIL' ? [] : ['CLF', 'SPAN']);

describe('flow model', () => {
  const nodes = [
    node(1, 'HUP'),
    node(2, 'CLF', 400, 100),
    node(3, 'SEND_MAIL', 700, 100),
    node(4, 'SPAN', 400, 300),
  ];
  const edges = [edge(10, 1, 2), edge(11, 2, 3)];

  it('draws process nodes, the upload group and the edges with their predicate counts', () => {
    const flow = buildFlow({
      nodes,
      edges,
      predicates: [{ id: 1, edgeId: 11 } as never, { id: 2, edgeId: 11 } as never],
      isUpload,
      followUpTypes,
      activeNodeId: 2,
      chooser: null,
    });
    expect(flow.nodes[0].id).toBe(UPLOAD_GROUP_ID);
    const processNodes = flow.nodes.filter((n): n is ProcessFlowNode => n.type === 'process');
    expect(processNodes.map((n) => [n.id, n.data.unconnected, n.data.canFollow, n.data.active])).toEqual([
      ['1', false, true, false],
      ['2', false, true, true],
      ['3', false, false, false],
      ['4', true, true, false],
    ]);
    expect(processNodes.find((n) => n.id === '1')!.draggable).toBe(false);
    expect(flow.edges.map((e) => [e.id, e.source, e.target, e.data])).toEqual([
      ['e10', '1', '2', { edgeId: 10, predicateCount: 0 }],
      ['e11', '2', '3', { edgeId: 11, predicateCount: 2 }],
    ]);
  });

  it('adds the temporary chooser node and edge (id 0) 300 right and 50 up from the source', () => {
    const flow = buildFlow({
      nodes,
      edges,
      predicates: [],
      isUpload,
      followUpTypes,
      activeNodeId: null,
      chooser: { sourceId: 2, sourceType: 'CLF', pickedType: null },
    });
    const chooser = flow.nodes.find((n) => n.id === CHOOSER_ID)!;
    expect(chooser.type).toBe('chooser');
    expect(chooser.position).toEqual({ x: 700, y: 50 });
    expect(flow.edges.find((e) => e.id === CHOOSER_ID)).toMatchObject({ source: '2', target: CHOOSER_ID });
  });

  it('names nodes and edges for screen readers by the names of the nodes', () => {
    const flow = buildFlow({
      nodes,
      edges,
      predicates: [],
      isUpload,
      followUpTypes,
      activeNodeId: null,
      chooser: null,
      ariaLabels: {
        node: (n) => `${n.activityType}: ${n.name}`,
        edge: (from, to) => `Edge from ${from?.name} to ${to?.name}`,
      },
    });
    expect(flow.edges.map((e) => e.ariaLabel)).toEqual(['Edge from n1 to n2', 'Edge from n2 to n3']);
    expect(flow.nodes.find((n) => n.id === '3')!.ariaLabel).toBe('SEND_MAIL: n3');
  });
});
