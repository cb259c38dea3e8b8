/**
 * One relation graph drawn as a graph (issue 12 section 1; model in ../relationFlow.ts): its tags as cards
 * (tag type colour, type name and the tag's text: covered text or words) laid out left to right, its
 * relations as arrows labelled by relation type in the type's colour, unsaved candidates dashed. Every card
 * and every label is a button (Tab reaches them): a card selects its tag (the workspace selects it in the
 * text and scrolls to it), a label selects its relation (the relation list marks it). When the graph may be
 * edited, dragging from a card's right handle to another card links the two tags (the relation menu, as
 * Alt+click in the text).
 */
import { createContext, memo, useContext, useEffect, useMemo } from 'react';
import {
  Background,
  BaseEdge,
  Controls,
  EdgeLabelRenderer,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useInternalNode,
  useReactFlow,
  type EdgeProps,
  type InternalNode,
  type NodeProps,
  type OnConnectEnd,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTranslation } from 'react-i18next';
import {
  arrowGeometry,
  relationFlow,
  type RelationEdgeData,
  type RelationFlowEdge,
  type RelationFlowInput,
  type RelationTagFlowNode,
} from '../relationFlow';

interface GraphActions {
  selectTag: (tagId: number) => void;
  selectRelation: (key: string) => void;
  connectable: boolean;
  describe: (data: RelationEdgeData, from: string, to: string) => string;
}

const Actions = createContext<GraphActions>({
  selectTag: () => undefined,
  selectRelation: () => undefined,
  connectable: false,
  describe: (d) => d.label,
});

function TagCard({ data }: NodeProps<RelationTagFlowNode>) {
  const actions = useContext(Actions);
  return (
    <>
      <Handle type="target" position={Position.Left} isConnectable={actions.connectable} />
      <button
        type="button"
        className={`ws-relgraph-node nodrag${data.selected ? ' is-selected' : ''}`}
        style={{ borderColor: data.background }}
        aria-pressed={data.selected}
        aria-label={`${data.typeName}: ${data.text}`}
        title={`${data.typeName}: ${data.text}`}
        data-testid="relation-graph-node"
        data-tag-id={data.tagId}
      >
        <span className="ws-relgraph-type" style={{ background: data.background, color: data.color }}>
          {data.typeName}
        </span>
        <span className="ws-relgraph-text">{data.text}</span>
      </button>
      <Handle type="source" position={Position.Right} isConnectable={actions.connectable} />
    </>
  );
}

const rectOf = (n: InternalNode) => ({
  x: n.internals.positionAbsolute.x,
  y: n.internals.positionAbsolute.y,
  width: n.measured.width ?? n.width ?? 0,
  height: n.measured.height ?? n.height ?? 0,
});

function RelationArrow({ id, source, target, data, markerEnd }: EdgeProps<RelationFlowEdge>) {
  const actions = useContext(Actions);
  const s = useInternalNode(source);
  const t = useInternalNode(target);
  if (!s || !t || !data) return null;
  const g = arrowGeometry(rectOf(s), rectOf(t), data.bend);
  const fromText = (s.data as RelationTagFlowNode['data']).text;
  const toText = (t.data as RelationTagFlowNode['data']).text;
  return (
    <>
      <BaseEdge
        id={id}
        path={g.path}
        markerEnd={markerEnd}
        interactionWidth={12}
        style={{
          stroke: data.color,
          strokeWidth: data.selected ? 3 : 1.75,
          strokeDasharray: data.pending ? '6 4' : undefined,
        }}
      />
      <EdgeLabelRenderer>
        <button
          type="button"
          className={`ws-relgraph-label nodrag nopan${data.pending ? ' is-pending' : ''}${
            data.selected ? ' is-selected' : ''
          }`}
          style={{
            transform: `translate(-50%, -100%) translate(${g.labelX}px, ${g.labelY}px)`,
            color: data.color,
            borderColor: data.color,
          }}
          onClick={() => actions.selectRelation(data.key)}
          aria-pressed={data.selected}
          aria-label={actions.describe(data, fromText, toText)}
          title={actions.describe(data, fromText, toText)}
          data-testid="relation-graph-edge"
          data-key={data.key}
          data-from={source}
          data-to={target}
          data-pending={data.pending}
        >
          {data.label}
        </button>
      </EdgeLabelRenderer>
    </>
  );
}

const nodeTypes = { relationTag: memo(TagCard) };
const edgeTypes = { relation: memo(RelationArrow) };

export interface RelationGraphViewProps extends RelationFlowInput {
  /** changes when the drawing should fit the view again (another graph, full screen) */
  fitKey: string;
  onSelectTag: (tagId: number) => void;
  onSelectRelation: (key: string) => void;
  /** given when the graph may be edited: a drag from a tag to another links them */
  onLink?: (fromId: number, toId: number, x: number, y: number) => void;
  /** the zoom buttons (left out of the small embedded view, where they would cover the tags) */
  controls?: boolean;
}

export function RelationGraphView(props: RelationGraphViewProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

function Canvas({
  fitKey,
  onSelectTag,
  onSelectRelation,
  onLink,
  controls = true,
  ...input
}: RelationGraphViewProps) {
  const { t } = useTranslation();
  const { arcs, tagsById, tagText, typesById, selectedTagId, selectedKey } = input;
  const flow = useMemo(
    () => relationFlow({ arcs, tagsById, tagText, typesById, selectedTagId, selectedKey }),
    [arcs, tagsById, tagText, typesById, selectedTagId, selectedKey],
  );
  const edges = useMemo(
    () =>
      flow.edges.map((e) => ({
        ...e,
        markerEnd: { type: MarkerType.ArrowClosed, color: e.data!.color, width: 18, height: 18 },
      })),
    [flow.edges],
  );
  const { fitView } = useReactFlow();
  const shape = `${fitKey}:${flow.nodes.length}:${flow.edges.length}`;
  useEffect(() => {
    const frame = requestAnimationFrame(() => void fitView({ padding: 0.15, maxZoom: 1.25 }));
    return () => cancelAnimationFrame(frame);
  }, [shape, fitView]);

  const actions = useMemo<GraphActions>(
    () => ({
      selectTag: onSelectTag,
      selectRelation: onSelectRelation,
      connectable: !!onLink,
      describe: (d, from, to) =>
        t('workspace.relations.view.edge', { type: d.label, from, to }) +
        (d.pending ? ` (${t('workspace.relations.view.unsaved')})` : ''),
    }),
    [onSelectTag, onSelectRelation, onLink, t],
  );

  const onConnectEnd: OnConnectEnd = (event, state) => {
    const from = Number(state.fromNode?.id);
    const to = Number(state.toNode?.id);
    if (!onLink || !state.isValid || !state.toNode || from === to) return;
    const point = 'changedTouches' in event ? event.changedTouches[0] : event;
    onLink(from, to, point.clientX, point.clientY);
  };

  return (
    <Actions.Provider value={actions}>
      <ReactFlow<RelationTagFlowNode, RelationFlowEdge>
        nodes={flow.nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        nodesDraggable={false}
        nodesConnectable={!!onLink}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        onConnectEnd={onConnectEnd}
        // a click on a card (or Enter on its button, whose click bubbles) selects the tag; the handler also
        // keeps the cards taking pointer events while nothing is draggable or selectable
        onNodeClick={(_e, node) => onSelectTag(node.data.tagId)}
        deleteKeyCode={null}
        minZoom={0.2}
        maxZoom={2}
        fitView
        proOptions={{ hideAttribution: true }}
        aria-label={t('workspace.relations.view.canvas')}
      >
        <Background gap={20} size={1} color="#e3e7ee" />
        {controls && <Controls showInteractive={false} position="bottom-left" />}
      </ReactFlow>
    </Actions.Provider>
  );
}
