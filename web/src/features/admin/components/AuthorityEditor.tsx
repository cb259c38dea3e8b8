/**
 * The authorities of a user or a role (spec 1 sections 3 and 6): a mode (READ, WRITE, ADMIN) on a process,
 * on a node, or on every process (the global permission, component -1). Chosen from pickers (process, then
 * its node), never typed ids; each row says what it names.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AccessModes, GLOBAL_COMPONENT_ID, type AccessMode } from '@domain/enums';
import { authorityKey, type AuthorityInput } from '@domain/user-admin';
import { IconPlus } from '../../../components/icons';
import { nodeQueries } from '../../graph/api';
import { processQueries } from '../../processes/api';
import { adminQueries } from '../api';
import { IconButton } from './parts';

type Scope = 'GLOBAL' | 'PROCESS' | 'NODE';

/** What an authority names, e.g. "Sphere A" or "Sphere A / Upload", from the authority list or the pickers. */
export function useAuthorityLabel() {
  const { t } = useTranslation();
  const views = useQuery(adminQueries.authorities());
  const processes = useQuery(processQueries.list());
  return (a: AuthorityInput, known?: string): string => {
    if (a.type === 'PROCESS' && a.componentId === GLOBAL_COMPONENT_ID)
      return t('userManagement.authority.global');
    if (known) return known;
    const view = views.data?.find((v) => v.type === a.type && v.componentId === a.componentId);
    if (view?.componentName)
      return a.type === 'NODE' ? `${view.processName ?? '?'} / ${view.componentName}` : view.componentName;
    const process = a.type === 'PROCESS' ? processes.data?.find((p) => p.id === a.componentId) : undefined;
    return process?.name ?? `#${a.componentId}`;
  };
}

export function ModeBadge({ mode }: { mode: AccessMode }) {
  const tone = mode === 'ADMIN' ? 'danger' : mode === 'WRITE' ? 'warning' : 'info';
  return <span className={`badge text-bg-${tone}`}>{mode}</span>;
}

export function AuthorityEditor({
  value,
  onChange,
  testId = 'authority-editor',
}: {
  value: AuthorityInput[];
  onChange: (next: AuthorityInput[]) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const label = useAuthorityLabel();
  const processes = useQuery(processQueries.list());
  const [scope, setScope] = useState<Scope>('PROCESS');
  const [processId, setProcessId] = useState<number | ''>('');
  const [nodeId, setNodeId] = useState<number | ''>('');
  const [mode, setMode] = useState<AccessMode>('READ');
  const [labels, setLabels] = useState<Record<string, string>>({});
  const nodes = useQuery({
    ...nodeQueries.list(Number(processId)),
    enabled: scope === 'NODE' && processId !== '',
  });

  const draft: AuthorityInput | null =
    scope === 'GLOBAL'
      ? { componentId: GLOBAL_COMPONENT_ID, type: 'PROCESS', mode }
      : scope === 'PROCESS' && processId !== ''
        ? { componentId: processId, type: 'PROCESS', mode }
        : scope === 'NODE' && nodeId !== ''
          ? { componentId: nodeId, type: 'NODE', mode }
          : null;
  const present = new Set(value.map(authorityKey));

  const add = () => {
    if (!draft || present.has(authorityKey(draft))) return;
    const processName = processes.data?.find((p) => p.id === processId)?.name ?? '';
    const nodeName = nodes.data?.find((n) => n.id === nodeId)?.name ?? '';
    if (scope !== 'GLOBAL')
      setLabels((l) => ({
        ...l,
        [`${draft.type}:${draft.componentId}`]:
          scope === 'NODE' ? `${processName} / ${nodeName}` : processName,
      }));
    onChange([...value, draft]);
  };

  return (
    <div data-testid={testId}>
      {value.length === 0 ? (
        <p className="text-body-secondary small mb-2" data-testid={`${testId}-empty`}>
          {t('userManagement.authority.none')}
        </p>
      ) : (
        <table className="table table-sm align-middle mb-2">
          <thead>
            <tr>
              <th>{t('userManagement.authority.type')}</th>
              <th>{t('userManagement.authority.component')}</th>
              <th>{t('userManagement.authority.mode')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {value.map((a) => (
              <tr key={authorityKey(a)} data-testid={`${testId}-row`}>
                <td>{t(`userManagement.authority.types.${a.type}`)}</td>
                <td data-testid={`${testId}-row-name`}>{label(a, labels[`${a.type}:${a.componentId}`])}</td>
                <td>
                  <ModeBadge mode={a.mode} />
                </td>
                <td className="text-end">
                  <IconButton
                    kind="delete"
                    onClick={() => onChange(value.filter((x) => authorityKey(x) !== authorityKey(a)))}
                    testId={`${testId}-remove`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="row g-2 align-items-end">
        <div className="col-sm-3">
          <label className="form-label small mb-1" htmlFor={`${testId}-scope`}>
            {t('userManagement.authority.type')}
          </label>
          <select
            id={`${testId}-scope`}
            className="form-select form-select-sm"
            value={scope}
            onChange={(e) => {
              setScope(e.target.value as Scope);
              setNodeId('');
            }}
            data-testid={`${testId}-scope`}
          >
            <option value="PROCESS">{t('userManagement.authority.types.PROCESS')}</option>
            <option value="NODE">{t('userManagement.authority.types.NODE')}</option>
            <option value="GLOBAL">{t('userManagement.authority.global')}</option>
          </select>
        </div>
        {scope !== 'GLOBAL' && (
          <div className="col-sm-3">
            <label className="form-label small mb-1" htmlFor={`${testId}-process`}>
              {t('userManagement.authority.types.PROCESS')}
            </label>
            <select
              id={`${testId}-process`}
              className="form-select form-select-sm"
              value={processId}
              onChange={(e) => {
                setProcessId(e.target.value === '' ? '' : Number(e.target.value));
                setNodeId('');
              }}
              data-testid={`${testId}-process`}
            >
              <option value="">{t('userManagement.authority.choose')}</option>
              {(processes.data ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
        )}
        {scope === 'NODE' && (
          <div className="col-sm-3">
            <label className="form-label small mb-1" htmlFor={`${testId}-node`}>
              {t('userManagement.authority.types.NODE')}
            </label>
            <select
              id={`${testId}-node`}
              className="form-select form-select-sm"
              value={nodeId}
              disabled={processId === ''}
              onChange={(e) => setNodeId(e.target.value === '' ? '' : Number(e.target.value))}
              data-testid={`${testId}-node`}
            >
              <option value="">{t('userManagement.authority.choose')}</option>
              {(nodes.data ?? []).map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name} ({n.activityType})
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="col-sm-2">
          <label className="form-label small mb-1" htmlFor={`${testId}-mode`}>
            {t('userManagement.authority.mode')}
          </label>
          <select
            id={`${testId}-mode`}
            className="form-select form-select-sm"
            value={mode}
            onChange={(e) => setMode(e.target.value as AccessMode)}
            data-testid={`${testId}-mode`}
          >
            {AccessModes.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <div className="col-sm-auto">
          <button
            type="button"
            className="btn btn-sm btn-outline-primary"
            disabled={!draft || present.has(authorityKey(draft))}
            onClick={add}
            data-testid={`${testId}-add`}
          >
            <IconPlus className="me-1" />
            {t('userManagement.authority.add')}
          </button>
        </div>
      </div>
    </div>
  );
}
