/**
 * /entity/node, the Entities menu's node list (spec 1 section 2): every node the user may see, by process and
 * then by type (in the order of the node types), each linking to its side panel in the process's flow graph
 * (`graph?node=`) when the user administers the process (the graph's access), else named without a link. A
 * search box filters by node or process name. The nodes come from GET api/nodes per process the user sees.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { NodeDTO } from '@domain/graph-types';
import { DelayedSpinner } from '../../../components/DelayedSpinner';
import { nodeQueries } from '../../graph/api';
import { processQueries } from '../../processes/api';

/** The nodes of one process grouped by activity type, types in their first node's order (by id). */
function byType(nodes: readonly NodeDTO[]): [string, NodeDTO[]][] {
  const groups = new Map<string, NodeDTO[]>();
  for (const n of [...nodes].sort((a, b) => a.id - b.id)) {
    const list = groups.get(n.activityType) ?? [];
    list.push(n);
    groups.set(n.activityType, list);
  }
  return [...groups.entries()];
}

export function NodeListPage() {
  const { t } = useTranslation();
  const processes = useQuery(processQueries.list());
  const list = [...(processes.data ?? [])].sort((a, b) => a.id - b.id);
  const nodeLists = useQueries({ queries: list.map((p) => nodeQueries.list(p.id)) });
  const [search, setSearch] = useState('');
  const needle = useDeferredValue(search.trim().toLowerCase());

  const sections = list.map((p, i) => {
    const all = nodeLists[i]?.data ?? [];
    const processMatches = !needle || p.name.toLowerCase().includes(needle);
    const nodes = processMatches ? all : all.filter((n) => n.name.toLowerCase().includes(needle));
    return { process: p, nodes, pending: nodeLists[i]?.isPending ?? true };
  });
  const shown = sections.filter((s) => s.nodes.length > 0 || (s.pending && !needle));

  return (
    <div className="container py-4">
      <h1 className="h3 mb-3">{t('nodeList.title')}</h1>
      <p className="text-body-secondary">{t('nodeList.intro')}</p>
      <div className="mb-3" style={{ maxWidth: '24rem' }}>
        <label htmlFor="node-list-search" className="form-label">
          {t('nodeList.search')}
        </label>
        <input
          id="node-list-search"
          type="search"
          className="form-control"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {processes.isPending ? (
        <DelayedSpinner label={t('nodeList.loading')} />
      ) : shown.length === 0 ? (
        <p>{t('nodeList.empty')}</p>
      ) : (
        shown.map(({ process, nodes, pending }) => (
          <section key={process.id} className="mb-4" aria-labelledby={`node-list-process-${process.id}`}>
            <h2 className="h5" id={`node-list-process-${process.id}`}>
              {process.name}
            </h2>
            {pending ? (
              <DelayedSpinner label={t('nodeList.loading')} />
            ) : (
              byType(nodes).map(([type, group]) => (
                <div key={type} className="mb-2">
                  <h3 className="h6 text-body-secondary mb-1">
                    {t(`soaApp.graph.nodeTypes.${type}`, { defaultValue: type })}
                  </h3>
                  <ul className="list-inline mb-0">
                    {group.map((n) => (
                      <li key={n.id} className="list-inline-item me-3">
                        {process.accessMode === 'ADMIN' ? (
                          <Link to={`/entity/process/${process.id}/graph?node=${n.id}`}>{n.name}</Link>
                        ) : (
                          <span title={t('nodeList.noPanel')}>{n.name}</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </div>
              ))
            )}
          </section>
        ))
      )}
    </div>
  );
}
