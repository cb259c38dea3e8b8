/**
 * An edge of the process: a bezier with an arrow and, at its middle, the button that opens the edge's
 * predicate modal (filled, with the count, when the edge has predicates).
 */
import { memo } from 'react';
import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { PredicateFlowEdge } from '../flowModel';
import { useGraphActions } from '../hooks/useGraphActions';
import { IconFilter } from './NodeTypeIcon';

function PredicateEdgeView({
  id,
  sourceX,
  sourceY,
  targetX,
  targetY,
  sourcePosition,
  targetPosition,
  markerEnd,
  data,
}: EdgeProps<PredicateFlowEdge>) {
  const { t } = useTranslation();
  const actions = useGraphActions();
  const [path, labelX, labelY] = getBezierPath({
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
  });
  const count = data?.predicateCount ?? 0;
  const label = count ? t('soaApp.graph.edge.predicates', { count }) : t('soaApp.graph.edge.noPredicates');
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} className="graph-edge-path" interactionWidth={16} />
      <EdgeLabelRenderer>
        <button
          type="button"
          className={`graph-edge-label nodrag nopan${count ? ' has-predicates' : ''}`}
          style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
          title={label}
          aria-label={label}
          data-testid="graph-edge-label"
          data-edge-id={data?.edgeId}
          onClick={() => data && actions.openEdge(data.edgeId)}
        >
          <IconFilter size={11} />
          {count > 0 && <span className="graph-edge-count">{count}</span>}
        </button>
      </EdgeLabelRenderer>
    </>
  );
}

export const PredicateEdge = memo(PredicateEdgeView);
