/** The action buttons of a Sphere row; each opens only with the access mode its route requires. */
import type { ComponentType, SVGProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { modeSatisfies, type AccessMode, type ProcessDTO } from '@domain';
import {
  IconChart,
  IconDashboard,
  IconFile,
  IconFlow,
  IconGlobe,
  IconKey,
  IconSparkle,
  IconTag,
  IconTrash,
  IconUpload,
} from '../../../components/icons';

interface Action {
  key: string;
  to: (id: number) => string;
  mode: AccessMode;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  danger?: boolean;
  testId?: string;
}

/** Upload (spec 1 section 6: node permission on the HUP node) is listed only where it is allowed. */
const UPLOAD: Action = {
  key: 'upload',
  to: (id) => `/entity/process/${id}/upload`,
  mode: 'READ',
  icon: IconUpload,
  testId: 'process-action-upload',
};

const ACTIONS: Action[] = [
  { key: 'rag', to: (id) => `/entity/process/${id}/rag`, mode: 'READ', icon: IconSparkle },
  { key: 'secrets', to: (id) => `/entity/process/${id}/secrets`, mode: 'ADMIN', icon: IconKey },
  { key: 'webhooks', to: (id) => `/entity/process/${id}/webhooks`, mode: 'ADMIN', icon: IconGlobe },
  { key: 'documents', to: (id) => `/entity/process/${id}/documents`, mode: 'READ', icon: IconFile },
  { key: 'statistics', to: (id) => `/entity/process/${id}/statistics`, mode: 'ADMIN', icon: IconChart },
  {
    key: 'dashboard',
    to: (id) => `/entity/process/${id}/dashboard/documents`,
    mode: 'READ',
    icon: IconDashboard,
  },
  { key: 'graph', to: (id) => `/entity/process/${id}/graph`, mode: 'ADMIN', icon: IconFlow },
  {
    key: 'delete',
    to: (id) => `/entity/process/${id}/delete`,
    mode: 'ADMIN',
    icon: IconTrash,
    danger: true,
    testId: 'process-delete',
  },
];

export function ProcessRowActions({
  process,
  mode,
  ragProfile,
  canUpload = false,
  onEditTags,
}: {
  process: ProcessDTO;
  mode: AccessMode | null;
  ragProfile: boolean;
  /** Node permission (WRITE) on an upload node of the process. */
  canUpload?: boolean;
  /** Opens the Sphere's tags for editing (ADMIN on the Sphere). */
  onEditTags?: () => void;
}) {
  const { t } = useTranslation();
  const tagsLabel = t('soaApp.process.actions.tags');
  return (
    <div className="process-actions" role="group" aria-label={t('soaApp.process.table.actions')}>
      {onEditTags && (
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary action-btn"
          title={tagsLabel}
          aria-label={tagsLabel}
          disabled={!modeSatisfies(mode, 'ADMIN')}
          onClick={onEditTags}
          data-testid="process-action-tags"
        >
          <IconTag />
          <span className="action-label">{tagsLabel}</span>
        </button>
      )}
      {ACTIONS.filter((a) => a.key !== 'rag' || (ragProfile && process.isRagEnabled))
        .flatMap((a) => (a.key === 'documents' && canUpload ? [a, UPLOAD] : [a]))
        .map((a) => {
          const label = t(`soaApp.process.actions.${a.key}`);
          const className = `btn btn-sm ${a.danger ? 'btn-outline-danger' : 'btn-outline-secondary'} action-btn`;
          const Icon = a.icon;
          const content = (
            <>
              <Icon />
              <span className="action-label">{label}</span>
            </>
          );
          const testId = a.testId ?? `process-action-${a.key}`;
          return modeSatisfies(mode, a.mode) ? (
            <Link
              key={a.key}
              to={a.to(process.id)}
              className={className}
              title={label}
              aria-label={label}
              data-testid={testId}
            >
              {content}
            </Link>
          ) : (
            <button
              key={a.key}
              type="button"
              className={className}
              title={label}
              aria-label={label}
              disabled
              data-testid={testId}
            >
              {content}
            </button>
          );
        })}
    </div>
  );
}
