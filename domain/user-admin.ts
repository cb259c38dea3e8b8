/**
 * Rules of user and role administration (issue 15 section 1), shared by the admin forms and the API
 * (api/routes/users.ts). Decisions the spec leaves open, as a JHipster administrator would expect:
 * - role names look like the built-in ones: `ROLE_` then capitals, digits and `_`, at most 50 characters;
 * - the built-in roles (ROLE_ADMIN, ROLE_USER, ROLE_SUPER_ANNOTATOR) cannot be renamed or deleted;
 * - an authority is a mode on a process or a node; the global permission is a PROCESS authority on
 *   component -1 (spec 1 section 6), there is no global NODE authority;
 * - first and last names at most 50 characters, language one of the app's locales.
 */
import { ALL_ROLES, AccessModes, ComponentTypes, GLOBAL_COMPONENT_ID, type AccessMode } from './enums';
import type { ComponentType } from './enums';
import type { AdminUserDTO } from './api-types';
import type { Rule } from './validation';

export const ROLE_NAME_MAX = 50;
export const ROLE_NAME_PATTERN = /^ROLE_[A-Z0-9_]+$/;
export const PERSON_NAME_MAX = 50;
export const USER_LANG_KEYS = ['en', 'pl'] as const;
/** Users list page size (spec 1 section 9). */
export const USERS_PAGE_SIZE = 10;
/** The user list and search's sortable properties and their columns. */
export const USER_SORTS: Readonly<Record<string, string>> = {
  id: 'id',
  login: 'login',
  firstName: 'first_name',
  lastName: 'last_name',
  email: 'email',
  activated: 'activated',
  langKey: 'lang_key',
  createdBy: 'created_by',
  createdDate: 'created_date',
  lastModifiedBy: 'last_modified_by',
  lastModifiedDate: 'last_modified_date',
};

export const isBuiltInRole = (name: string): boolean => (ALL_ROLES as readonly string[]).includes(name);

export const roleNameRule: Rule = (v) => {
  const name = (v ?? '').trim();
  if (!name) return { code: 'NotBlank', key: 'entity.validation.required' };
  if (name.length > ROLE_NAME_MAX)
    return { code: 'Size', key: 'entity.validation.maxlength', params: { max: ROLE_NAME_MAX } };
  if (!ROLE_NAME_PATTERN.test(name)) return { code: 'Pattern', key: 'userManagement.validation.roleName' };
  return null;
};

export const personNameRule: Rule = (v) =>
  (v ?? '').length > PERSON_NAME_MAX
    ? { code: 'Size', key: 'entity.validation.maxlength', params: { max: PERSON_NAME_MAX } }
    : null;

export const userLangKeyRule: Rule = (v) =>
  (USER_LANG_KEYS as readonly string[]).includes(v)
    ? null
    : { code: 'Pattern', key: 'entity.validation.pattern' };

export interface AuthorityInput {
  componentId: number;
  type: ComponentType;
  mode: AccessMode;
}

/**
 * The shape of one authority of a form or a body (the component's existence needs the database: the
 * API checks it). Returns a violation for a wrong type or mode, or a NODE on the global component.
 */
export function authorityShapeRule(a: { componentId?: unknown; type?: unknown; mode?: unknown }) {
  if (
    !(ComponentTypes as readonly unknown[]).includes(a.type) ||
    !(AccessModes as readonly unknown[]).includes(a.mode)
  )
    return { code: 'Pattern' as const, key: 'userManagement.validation.authority' };
  if (typeof a.componentId !== 'number' || !Number.isSafeInteger(a.componentId))
    return { code: 'NotBlank' as const, key: 'entity.validation.required' };
  if (a.componentId === GLOBAL_COMPONENT_ID ? a.type !== 'PROCESS' : a.componentId < 1)
    return { code: 'Pattern' as const, key: 'userManagement.validation.authority' };
  return null;
}

/** A user as the admin form sends it and the API saves it (authorities by their fields). */
export type UserInput = Pick<
  AdminUserDTO,
  'login' | 'firstName' | 'lastName' | 'email' | 'activated' | 'langKey' | 'roles'
> & {
  authorities: AuthorityInput[];
  /** only on creation; without it the user gets a mail with a link to choose one */
  password?: string;
};

/** The same authority twice (same component, type and mode) counts once. */
export const authorityKey = (a: AuthorityInput): string => `${a.type}:${a.componentId}:${a.mode}`;
