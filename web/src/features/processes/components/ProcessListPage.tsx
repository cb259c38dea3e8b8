/** The Spheres list: search by name or tag, the table of processes with their tags and actions. */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { hasGlobalProcessPermission, higherMode, isAdmin, processMode, type ProcessDTO } from '@domain';
import { IconPlus } from '../../../components/icons';
import { TagList } from '../../../components/TagList';
import { useSession } from '../../account/session';
import { managementQueries, profileFlags } from '../../shell/api';
import { useUploadableProcesses } from '../../upload/api';
import { processQueries, tagQueries, useSaveProcessTags } from '../api';
import { EMPTY_SEARCH, filterProcesses, isSearchActive, type ProcessSearch } from '../filter';
import { ProcessRowActions } from './ProcessRowActions';
import { ProcessSearchBar } from './ProcessSearchBar';
import { TagSelectModal } from './TagSelectModal';

export function ProcessListPage() {
  const { t } = useTranslation();
  const { principal } = useSession();
  const processes = useQuery(processQueries.list());
  const tags = useQuery(tagQueries.list());
  const { data: info } = useQuery(managementQueries.info());
  const ragProfile = profileFlags(info).rag;
  const [search, setSearch] = useState<ProcessSearch>(EMPTY_SEARCH);
  const canCreate = !!principal && hasGlobalProcessPermission(principal, 'WRITE');

  const all = useMemo(() => processes.data ?? [], [processes.data]);
  const rows = useMemo(() => filterProcesses(all, search), [all, search]);
  // The Sphere whose tags are being edited, with the selection so far.
  const [tagging, setTagging] = useState<{ process: ProcessDTO; tagIds: number[] } | null>(null);
  const saveTags = useSaveProcessTags();
  const modeOf = (p: ProcessDTO) =>
    higherMode(principal ? processMode(principal, p.id) : null, p.accessMode ?? null);
  const modes = useMemo(
    () =>
      new Map(
        all.map((p) => [
          p.id,
          higherMode(principal ? processMode(principal, p.id) : null, p.accessMode ?? null),
        ]),
      ),
    [all, principal],
  );
  const uploadable = useUploadableProcesses(principal, modes);

  return (
    <div className="container-xxl py-4 page">
      <div className="page-header d-flex flex-wrap align-items-center gap-3 mb-3">
        <div className="me-auto">
          <h1 className="h3 mb-0">{t('soaApp.process.home.title')}</h1>
          <p className="text-body-secondary mb-0 small">{t('soaApp.process.home.subtitle')}</p>
        </div>
        {canCreate && (
          <Link to="/entity/process/new" className="btn btn-primary" data-testid="process-create">
            <IconPlus className="me-1" />
            {t('soaApp.process.home.createLabel')}
          </Link>
        )}
      </div>

      <div className="card shadow-sm border-0">
        <div className="card-body border-bottom">
          <ProcessSearchBar search={search} onChange={setSearch} tags={tags.data ?? []} />
        </div>
        {processes.isPending ? (
          <div className="p-5 text-center" data-testid="process-loading">
            <div
              className="spinner-border text-primary"
              role="status"
              aria-label={t('global.common.loading')}
            />
          </div>
        ) : processes.isError ? (
          <div className="p-4 text-danger" data-testid="process-error">
            {t('soaApp.process.home.loadError')}
          </div>
        ) : rows.length === 0 ? (
          <div className="p-5 text-center text-body-secondary empty-state" data-testid="process-empty">
            {all.length === 0 || !isSearchActive(search)
              ? t('soaApp.process.home.notFound')
              : t('soaApp.process.home.noMatch')}
          </div>
        ) : (
          <div className="process-table-wrap">
            <table className="table table-hover align-middle mb-0 process-table" data-testid="process-table">
              <thead>
                <tr>
                  <th className="col-id">{t('soaApp.process.table.id')}</th>
                  <th className="col-name">{t('soaApp.process.table.name')}</th>
                  <th className="col-system-tags">{t('soaApp.process.table.systemTags')}</th>
                  <th className="col-user-tags">{t('soaApp.process.table.userTags')}</th>
                  <th className="col-actions text-end">
                    <span className="visually-hidden">{t('soaApp.process.table.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.id} data-testid="process-row" data-process-id={p.id}>
                    <td className="text-body-secondary process-id">{p.id}</td>
                    <td className="fw-medium process-name" data-testid="process-name">
                      {p.name}
                    </td>
                    <td data-label={t('soaApp.process.table.systemTags')}>
                      <TagList
                        tags={p.processTags.filter((tag) => tag.predefined)}
                        testId="process-system-tags"
                      />
                    </td>
                    <td data-label={t('soaApp.process.table.userTags')}>
                      <TagList
                        tags={p.processTags.filter((tag) => !tag.predefined)}
                        testId="process-user-tags"
                      />
                    </td>
                    <td className="text-end">
                      <ProcessRowActions
                        process={p}
                        mode={modeOf(p)}
                        ragProfile={ragProfile}
                        canUpload={uploadable.has(p.id)}
                        onEditTags={() =>
                          setTagging({ process: p, tagIds: p.processTags.map((tag) => tag.id) })
                        }
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      {tagging && (
        <TagSelectModal
          title={t('soaApp.processTag.selectModal.editTitle', { name: tagging.process.name })}
          tags={tags.data ?? []}
          isLoading={tags.isPending}
          selectedIds={tagging.tagIds}
          onChange={(tagIds) => setTagging({ ...tagging, tagIds })}
          onClose={() => setTagging(null)}
          canManage={canCreate}
          canCreateSystem={!!principal && isAdmin(principal)}
          saving={saveTags.isPending}
          onSave={() =>
            saveTags.mutate(
              { id: tagging.process.id, tagIds: tagging.tagIds },
              { onSuccess: () => setTagging(null) },
            )
          }
        />
      )}
      <Outlet />
    </div>
  );
}
