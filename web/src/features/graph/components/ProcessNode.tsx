/**
 * A node of the process on the canvas: type icon and label, name (or the unknown-node text), a warning
 * badge when it has no edge, handles, and the add-next button that opens the node-type chooser.
 */
import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { IconPlus } from '../../../components/icons';
import type { ProcessFlowNode } from '../flowModel';
import { useGraphActions } from '../hooks/useGraphActions';
import { IconWarning, NodeTypeIcon, nodeFamily } from './NodeTypeIcon';

function ProcessNodeView({ data }: NodeProps<ProcessFlowNode>) {
  const { t } = useTranslation();
  const actions = useGraphActions();
  const { node, upload, unconnected, canFollow, active } = data;
  const type = node.activityType;
  const name = node.name?.trim() || t('soaApp.graph.unknownNode');
  const typeLabel = t(`soaApp.graph.nodeTypes.${type}`, { defaultValue: t('soaApp.graph.unknownNode') });

  return (
    <div
      className={`graph-node family-${nodeFamily(type)}${active ? ' is-active' : ''}${unconnected ? ' is-unconnected' : ''}`}
      data-testid="graph-node"
      data-node-id={node.id}
      data-activity-type={type}
      title={node.description ? `${name}\n${node.description}` : name}
    >
      {!upload && <Handle type="target" position={Position.Left} className="graph-handle" />}
      <div className="graph-node-type">
        <span className="graph-node-icon">
          <NodeTypeIcon type={type} size={13} />
        </span>
        <span className="graph-node-type-label" title={typeLabel} data-testid="graph-node-type">
          {typeLabel}
        </span>
        {unconnected && (
          <span
            className="graph-node-warning ms-auto"
            role="img"
            title={t('soaApp.graph.unconnectedNode')}
            aria-label={t('soaApp.graph.unconnectedNode')}
            data-testid="unconnected-warning"
          >
            <IconWarning size={13} />
          </span>
        )}
      </div>
      <div className="graph-node-name">{name}</div>
      {canFollow && (
        <>
          <Handle type="source" position={Position.Right} className="graph-handle" />
          <button
            type="button"
            className="graph-node-add nodrag"
            title={t('soaApp.graph.addNext')}
            aria-label={t('soaApp.graph.addNext')}
            data-testid="graph-node-add"
            onClick={(e) => {
              e.stopPropagation();
              actions.openChooser(node.id);
            }}
          >
            <IconPlus size={12} />
          </button>
        </>
      )}
    </div>
  );
}

export const ProcessNode = memo(ProcessNodeView);
