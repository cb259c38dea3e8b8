/**
 * Administration calls (spec 1 section 7 "Administration and users"): users (paged, search), roles,
 * authorities and audits. Key and queryOptions factories per resource; every change reloads the lists.
 */
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUserDTO, AuditDTO, AuthorityDTO, AuthorityViewDTO, RoleDTO } from '@domain/api-types';
import type { AuthorityInput, UserInput } from '@domain/user-admin';
import { http, request } from '../../api/client';

export interface Paged<T> {
  rows: T[];
  total: number;
}

export interface UserPageQuery {
  page: number;
  size: number;
  /** applied from 2 characters (spec 1 section 5) */
  filter: string;
}

export interface AuditPageQuery {
  fromDate: string;
  toDate: string;
  page: number;
  size: number;
}

/** What the user form sends (authorities by their fields); `id` for an update. */
export type UserSave = UserInput & { id?: number };

export interface RoleSave {
  id?: number;
  name: string;
  authorities: AuthorityInput[];
}

export const adminKeys = {
  all: ['admin'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  userPage: (q: UserPageQuery) => [...adminKeys.users(), 'page', q] as const,
  user: (id: number) => [...adminKeys.users(), 'detail', id] as const,
  roles: () => [...adminKeys.all, 'roles'] as const,
  authorities: () => [...adminKeys.all, 'authorities'] as const,
  audits: (q: AuditPageQuery) => [...adminKeys.all, 'audits', q] as const,
};

async function paged<T>(path: string, query: Record<string, string | number>, signal: AbortSignal) {
  const res = await request<T[]>(path, { query, signal });
  return { rows: res.data, total: Number(res.headers.get('X-Total-Count') ?? res.data.length) };
}

export const adminQueries = {
  userPage: (q: UserPageQuery) =>
    queryOptions({
      queryKey: adminKeys.userPage(q),
      queryFn: ({ signal }): Promise<Paged<AdminUserDTO>> => {
        const common = { page: q.page, size: q.size, sort: 'id,asc' };
        return q.filter.trim().length >= 2
          ? paged('api/_search/users', { ...common, filteredValue: q.filter.trim() }, signal)
          : paged('api/users', common, signal);
      },
      placeholderData: keepPreviousData,
    }),
  user: (id: number) =>
    queryOptions({
      queryKey: adminKeys.user(id),
      queryFn: ({ signal }) => http.get<AdminUserDTO>(`api/users/${id}`, { signal }),
    }),
  roles: () =>
    queryOptions({
      queryKey: adminKeys.roles(),
      queryFn: ({ signal }) => http.get<RoleDTO[]>('api/roles', { signal }),
    }),
  authorities: () =>
    queryOptions({
      queryKey: adminKeys.authorities(),
      queryFn: ({ signal }) => http.get<AuthorityViewDTO[]>('api/authorities', { signal }),
    }),
  audits: (q: AuditPageQuery) =>
    queryOptions({
      queryKey: adminKeys.audits(q),
      queryFn: ({ signal }): Promise<Paged<AuditDTO>> =>
        paged('management/audits', { ...q, sort: 'auditEventDate,desc' }, signal),
      placeholderData: keepPreviousData,
    }),
};

/** Reloads users, roles and authorities after any change (a change of one shows in the others). */
function useReloadAdmin() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
      queryClient.invalidateQueries({ queryKey: adminKeys.roles() }),
      queryClient.invalidateQueries({ queryKey: adminKeys.authorities() }),
    ]);
}

export function useSaveUser() {
  const reload = useReloadAdmin();
  return useMutation({
    mutationFn: (user: UserSave) =>
      user.id === undefined
        ? http.post<AdminUserDTO>('api/users', user)
        : http.put<AdminUserDTO>('api/users', user),
    onSettled: reload,
  });
}

export function useDeleteUser() {
  const reload = useReloadAdmin();
  return useMutation({ mutationFn: (id: number) => http.delete(`api/users/${id}`), onSettled: reload });
}

export function useSaveRole() {
  const reload = useReloadAdmin();
  return useMutation({
    mutationFn: (role: RoleSave) =>
      role.id === undefined ? http.post<RoleDTO>('api/roles', role) : http.put<RoleDTO>('api/roles', role),
    onSettled: reload,
  });
}

export function useDeleteRole() {
  const reload = useReloadAdmin();
  return useMutation({ mutationFn: (id: number) => http.delete(`api/roles/${id}`), onSettled: reload });
}

/** The fields of an authority, as the forms edit them. */
export const authorityInput = (a: AuthorityDTO): AuthorityInput => ({
  componentId: a.componentId,
  type: a.type,
  mode: a.mode,
});
