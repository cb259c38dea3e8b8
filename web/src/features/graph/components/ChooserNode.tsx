/**
 * The temporary chooser node (id 0): the types that may follow the source node, and a 'connect with node'
 * submenu (it replaces the list, with a way back) of existing nodes the source may point at. It goes on Escape, on blur and on a click on the pane.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { ChooserFlowNode } from '../flowModel';
import { useGraphActions } from '../hooks/useGraphActions';
import { NodeTypeIcon, nodeFamily } from './NodeTypeIcon';

function ChooserNodeView({ data }: NodeProps<ChooserFlowNode>) {
  const { t } = useTranslation();
  const actions = useGraphActions();
  const [connectOpen, setConnectOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const connectable = actions.connectableNodes(data.sourceId);
  const types = actions.followUpTypes(data.sourceType);

  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);

  return (
    <div
      ref={ref}
      className="graph-chooser nodrag nopan nowheel"
      data-testid="node-type-chooser"
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') actions.closeChooser();
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) actions.blurChooser();
      }}
    >
      <Handle
        type="target"
        position={Position.Left}
        className="graph-handle graph-handle-hidden graph-chooser-handle"
      />
      <div className="graph-chooser-header">
        <span>{t('soaApp.graph.chooser.title')}</span>
        <button
          type="button"
          className="btn-close btn-close-sm"
          aria-label={t('global.common.cancel')}
          onClick={actions.closeChooser}
          data-testid="node-type-chooser-cancel"
        />
      </div>
      {connectOpen ? (
        <>
          <button
            type="button"
            className="graph-chooser-item graph-chooser-back"
            onClick={() => setConnectOpen(false)}
            data-testid="connect-with-node-back"
          >
            <span aria-hidden="true">‹</span>
            {t('soaApp.graph.chooser.connect')}
          </button>
          <ul className="graph-chooser-list" role="menu" data-testid="connect-with-node-menu">
            {connectable.length === 0 ? (
              <li className="graph-chooser-empty">{t('soaApp.graph.chooser.noConnectable')}</li>
            ) : (
              connectable.map((n) => (
                <li key={n.id} role="none">
                  <button
                    type="button"
                    role="menuitem"
                    className={`graph-chooser-item family-${nodeFamily(n.activityType)}`}
                    onClick={() => actions.connectTo(n.id)}
                    data-testid="connect-with-node-option"
                    data-node-id={n.id}
                  >
                    <span className="graph-node-icon">
                      <NodeTypeIcon type={n.activityType} size={13} />
                    </span>
                    <span className="text-truncate">{n.name || t('soaApp.graph.unknownNode')}</span>
                  </button>
                </li>
              ))
            )}
          </ul>
        </>
      ) : (
        <>
          <ul className="graph-chooser-list" role="menu">
            {types.map((type) => (
              <li key={type} role="none">
                <button
                  type="button"
                  role="menuitem"
                  className={`graph-chooser-item family-${nodeFamily(type)}${data.pickedType === type ? ' is-picked' : ''}`}
                  onClick={() => actions.pickType(type)}
                  data-testid="node-type-option"
                  data-type={type}
                >
                  <span className="graph-node-icon">
                    <NodeTypeIcon type={type} size={13} />
                  </span>
                  {t(`soaApp.graph.nodeTypes.${type}`, { defaultValue: type })}
                </button>
              </li>
            ))}
          </ul>
          <div className="graph-chooser-footer">
            <button
              type="button"
              aria-haspopup="menu"
              className="graph-chooser-item graph-chooser-connect"
              onClick={() => setConnectOpen(true)}
              data-testid="connect-with-node"
            >
              {t('soaApp.graph.chooser.connect')}
              <span className="ms-auto" aria-hidden="true">
                ›
              </span>
            </button>
          </div>
        </>
      )}
    </div>
  );
}

export const ChooserNode = memo(ChooserNodeView);
