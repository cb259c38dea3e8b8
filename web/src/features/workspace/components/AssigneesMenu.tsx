/**
 * The assignees menu of the workspace header (spec 2 sections 2, 4 and 6), opened from the 'Assignees'
 * button beside the block button. Three views, back to the list each time it opens:
 * - list: the assignees (a lock on the one who blocks the document, a remove icon where ../assignees.ts
 *   allows it), 'Assign myself' and 'Edit Assignees';
 * - deletion approval: removing the blocker is confirmed first; the API unblocks and removes at once, and
 *   the state and the document lists are reloaded;
 * - edit: a search box (prefix of first name, last name or e-mail), the Assigned and Others groups with
 *   checkboxes, Save and Cancel; Save closes the menu unless an error message is shown.
 * A click outside closes the list view only: the other two are left with their buttons.
 * The documents dashboard opens it from a row's assignee cell (`toggle` replaces the header's button).
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccessMode } from '@domain';
import type { UserRefDTO } from '@domain/document-state-types';
import { errorMessages } from '../../../api/errors';
import { useOutsideClick } from '../../../components/hooks';
import { IconClose, IconLock, IconPencil, IconPlus, IconSearch, IconUser } from '../../../components/icons';
import { toast } from '../../../components/toast';
import { useAssignees, workspaceQueries } from '../api';
import { assigneeGroups, assigneeRights } from '../assignees';
import { userName } from '../model';
import '../assignees.css';

type View = { kind: 'list' } | { kind: 'approve'; user: UserRefDTO } | { kind: 'edit' };

/** What the menu reads of a document: its state (workspace) or its list entry (dashboard). */
export interface AssigneesMenuDocument {
  document: { id: number; processId: number };
  assignees: UserRefDTO[];
  blockedBy: UserRefDTO | null;
}

export interface AssigneesMenuProps {
  state: AssigneesMenuDocument;
  userId: number | null;
  processMode: AccessMode | null;
  /** the content of the toggle button instead of the header's 'Assignees' with the count */
  toggle?: ReactNode;
  toggleClassName?: string;
}

export function AssigneesMenu({ state, userId, processMode, toggle, toggleClassName }: AssigneesMenuProps) {
  const { t } = useTranslation();
  const doc = state.document;
  const assignees = state.assignees;
  const blockerId = state.blockedBy?.id ?? null;
  const rights = assigneeRights(processMode, userId, assignees);
  const { assign, remove, save } = useAssignees(doc.id);

  const [open, setOpen] = useState(false);
  const [view, setView] = useState<View>({ kind: 'list' });
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  const closable = view.kind === 'list';
  useOutsideClick(ref, open && closable, () => setOpen(false));

  const users = useQuery({
    ...workspaceQueries.assignable(doc.processId),
    enabled: open && view.kind === 'edit',
  });

  const toggleOpen = () => {
    if (open) {
      if (closable) setOpen(false);
      return;
    }
    setView({ kind: 'list' });
    setOpen(true);
  };

  const removeNow = (user: UserRefDTO) =>
    remove.mutate(user.id, {
      onSuccess: () => {
        toast.success(t('workspace.assignees.removed', { name: userName(user) }));
        setView({ kind: 'list' });
      },
    });
  const requestRemove = (user: UserRefDTO) => {
    if (user.id === blockerId) setView({ kind: 'approve', user });
    else removeNow(user);
  };

  const openEdit = () => {
    setQuery('');
    setError(null);
    setSelected(assignees.map((a) => a.id));
    setView({ kind: 'edit' });
  };
  const onSave = () => {
    setError(null);
    save.mutate(
      { replace: rights.replace, before: assignees.map((a) => a.id), selected },
      {
        onSuccess: () => {
          toast.success(t('workspace.assignees.saved'));
          setOpen(false);
        },
        onError: (e) => setError(errorMessages(t, e).join(' ') || t('workspace.assignees.saveFailed')),
      },
    );
  };

  const pending = assign.isPending || remove.isPending || save.isPending;

  return (
    <div className="ws-assignees" ref={ref}>
      <button
        type="button"
        className={toggleClassName ?? 'btn btn-sm btn-outline-secondary'}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={toggleOpen}
        data-testid="assignees-toggle"
      >
        {toggle ?? (
          <>
            <IconUser className="me-1" />
            {t('workspace.assignees.button')}
            <span className="badge rounded-pill text-bg-secondary ms-1" data-testid="assignees-count">
              {assignees.length}
            </span>
          </>
        )}
      </button>
      {open && (
        <div
          className="ws-assignees-menu shadow"
          role="dialog"
          aria-label={t('workspace.assignees.title')}
          data-testid="assignees-menu"
          data-view={view.kind}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && closable) setOpen(false);
          }}
        >
          {view.kind === 'list' && (
            <>
              <div className="ws-assignees-title">{t('workspace.assignees.title')}</div>
              {assignees.length === 0 ? (
                <p className="small text-body-secondary px-3 py-2 mb-0" data-testid="assignees-empty">
                  {t('workspace.assignees.none')}
                </p>
              ) : (
                <ul className="list-unstyled mb-0 ws-assignees-list">
                  {assignees.map((a) => (
                    <li
                      key={a.id}
                      className="ws-assignee"
                      data-testid="assignee-entry"
                      data-user-id={a.id}
                      data-blocker={a.id === blockerId}
                    >
                      <span className="ws-assignee-name">
                        <span className="text-truncate d-block">
                          {userName(a)}
                          {a.id === userId && (
                            <span className="text-body-secondary"> ({t('workspace.assignees.you')})</span>
                          )}
                        </span>
                        <span className="small text-body-secondary text-truncate d-block">{a.email}</span>
                      </span>
                      {a.id === blockerId && (
                        <span
                          className="text-warning-emphasis"
                          title={t('workspace.assignees.blocks')}
                          data-testid="assignee-blocker"
                        >
                          <IconLock size={14} />
                          <span className="visually-hidden">{t('workspace.assignees.blocks')}</span>
                        </span>
                      )}
                      {rights.remove(a.id) && (
                        <button
                          type="button"
                          className="btn btn-sm btn-link text-danger p-0 ms-1"
                          disabled={pending}
                          onClick={() => requestRemove(a)}
                          title={t('workspace.assignees.remove', { name: userName(a) })}
                          aria-label={t('workspace.assignees.remove', { name: userName(a) })}
                          data-testid="assignee-remove"
                        >
                          <IconClose size={14} />
                        </button>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {(rights.assignSelf || rights.edit) && (
                <div className="ws-assignees-actions">
                  {rights.assignSelf && userId !== null && (
                    <button
                      type="button"
                      className="dropdown-item"
                      disabled={pending}
                      onClick={() =>
                        assign.mutate(userId, {
                          onSuccess: () => toast.success(t('workspace.assignees.assignedMyself')),
                        })
                      }
                      data-testid="assign-myself"
                    >
                      <IconPlus size={14} className="me-2" />
                      {t('workspace.assignees.assignMyself')}
                    </button>
                  )}
                  {rights.edit && (
                    <button
                      type="button"
                      className="dropdown-item"
                      disabled={pending}
                      onClick={openEdit}
                      data-testid="edit-assignees"
                    >
                      <IconPencil size={14} className="me-2" />
                      {t('workspace.assignees.edit')}
                    </button>
                  )}
                </div>
              )}
            </>
          )}

          {view.kind === 'approve' && (
            <div data-testid="assignee-delete-approval">
              <div className="ws-assignees-title text-danger">{t('workspace.assignees.approveTitle')}</div>
              <div className="p-3">
                <p className="small mb-3">
                  {t('workspace.assignees.approveBody', { name: userName(view.user) })}
                </p>
                <div className="d-flex justify-content-end gap-2">
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-secondary"
                    onClick={() => setView({ kind: 'list' })}
                    data-testid="assignee-delete-cancel"
                  >
                    {t('workspace.assignees.cancel')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-danger"
                    disabled={remove.isPending}
                    onClick={() => removeNow(view.user)}
                    data-testid="assignee-delete-confirm"
                  >
                    {remove.isPending && (
                      <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />
                    )}
                    {t('workspace.assignees.removeConfirm')}
                  </button>
                </div>
              </div>
            </div>
          )}

          {view.kind === 'edit' && (
            <EditView
              assigned={assignees}
              candidates={users.data ?? []}
              loading={users.isPending}
              failed={users.isError}
              query={query}
              onQuery={setQuery}
              selected={selected}
              onSelected={setSelected}
              locked={(id) => !rights.remove(id)}
              error={error}
              saving={save.isPending}
              onSave={onSave}
              onCancel={() => setView({ kind: 'list' })}
            />
          )}
        </div>
      )}
    </div>
  );
}

function EditView({
  assigned,
  candidates,
  loading,
  failed,
  query,
  onQuery,
  selected,
  onSelected,
  locked,
  error,
  saving,
  onSave,
  onCancel,
}: {
  assigned: UserRefDTO[];
  candidates: UserRefDTO[];
  loading: boolean;
  failed: boolean;
  query: string;
  onQuery: (q: string) => void;
  selected: number[];
  onSelected: (ids: number[]) => void;
  /** An assignee the user may not take off (somebody else, for a writer). */
  locked: (id: number) => boolean;
  error: string | null;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const groups = assigneeGroups(assigned, candidates, query);
  const toggle = (id: number, on: boolean) =>
    onSelected(on ? [...selected, id] : selected.filter((x) => x !== id));

  const group = (key: 'assigned' | 'others', users: UserRefDTO[]) => (
    <section className="ws-assignees-group" data-testid={`assignees-group-${key}`}>
      <h3 className="ws-assignees-group-title">{t(`workspace.assignees.${key}`)}</h3>
      {users.length === 0 ? (
        <p className="small text-body-secondary mb-1 px-1">{t('workspace.assignees.noMatch')}</p>
      ) : (
        users.map((u) => {
          const id = `ws-assignee-${key}-${u.id}`;
          const isLocked = key === 'assigned' && locked(u.id);
          return (
            <div key={u.id} className="form-check ws-assignee-option" data-testid="assignee-option">
              <input
                id={id}
                type="checkbox"
                className="form-check-input"
                checked={selected.includes(u.id)}
                disabled={isLocked || saving}
                onChange={(e) => toggle(u.id, e.target.checked)}
                data-user-id={u.id}
              />
              <label className="form-check-label small" htmlFor={id}>
                {userName(u)} <span className="text-body-secondary">{u.email}</span>
              </label>
            </div>
          );
        })
      )}
    </section>
  );

  return (
    <div data-testid="assignees-edit">
      <div className="ws-assignees-title">{t('workspace.assignees.edit')}</div>
      <div className="px-3 pt-2">
        <div className="input-group input-group-sm">
          <span className="input-group-text">
            <IconSearch size={13} />
          </span>
          <input
            type="search"
            className="form-control"
            placeholder={t('workspace.assignees.search')}
            aria-label={t('workspace.assignees.search')}
            value={query}
            onChange={(e) => onQuery(e.target.value)}
            data-testid="assignees-search"
            autoFocus
          />
        </div>
      </div>
      <div className="ws-assignees-groups">
        {group('assigned', groups.assigned)}
        {loading ? (
          <p className="small text-body-secondary px-1 mb-0">{t('workspace.assignees.loading')}</p>
        ) : failed ? (
          <p className="small text-danger px-1 mb-0">{t('workspace.assignees.usersFailed')}</p>
        ) : (
          group('others', groups.others)
        )}
      </div>
      {error && (
        <div
          className="alert alert-danger small py-1 px-2 mx-3 mb-2"
          role="alert"
          data-testid="assignees-error"
        >
          {error}
        </div>
      )}
      <div className="d-flex justify-content-end gap-2 px-3 pb-3">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={onCancel}
          disabled={saving}
          data-testid="assignees-cancel"
        >
          {t('workspace.assignees.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-primary"
          onClick={onSave}
          disabled={saving}
          data-testid="assignees-save"
        >
          {saving && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {t('workspace.assignees.save')}
        </button>
      </div>
    </div>
  );
}
