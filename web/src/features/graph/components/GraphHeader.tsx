/** The graph page's header: back to the Spheres list, the process name, and the add-node menu of node types. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ActivityType } from '@domain';
import { Dropdown } from '../../../components/Dropdown';
import { IconArrowLeft, IconPlus } from '../../../components/icons';
import { NodeTypeIcon, nodeFamily } from './NodeTypeIcon';

export interface GraphHeaderProps {
  processName: string | null;
  types: readonly ActivityType[];
  onAdd: (type: ActivityType) => void;
}

export function GraphHeader({ processName, types, onAdd }: GraphHeaderProps) {
  const { t } = useTranslation();
  return (
    <div className="graph-header">
      <Link
        to="/entity/process"
        className="btn btn-sm btn-outline-secondary position-relative text-nowrap"
        title={t('soaApp.graph.back')}
        data-testid="graph-back"
      >
        <IconArrowLeft className="me-1" />
        <span className="graph-back-label">{t('soaApp.graph.back')}</span>
      </Link>
      <div className="graph-title">
        <span className="graph-title-kicker">{t('soaApp.graph.title')}</span>
        <h1
          className="h5 mb-0 text-truncate"
          title={processName ?? undefined}
          data-testid="graph-process-name"
        >
          {processName ?? '\u00a0'}
        </h1>
      </div>
      <Dropdown
        nav={false}
        align="end"
        testId="graph-add-node"
        toggleClassName="btn btn-sm btn-primary dropdown-toggle"
        label={
          <>
            <IconPlus className="me-1" />
            {t('soaApp.graph.addNode')}
          </>
        }
      >
        {types.map((type) => (
          <li key={type}>
            <button
              type="button"
              className={`dropdown-item graph-menu-item family-${nodeFamily(type)}`}
              onClick={() => onAdd(type)}
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
      </Dropdown>
    </div>
  );
}
