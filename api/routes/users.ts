/**
 * User administration (spec 1 section 7 "Administration and users", issue 15 section 1;
 * docs/api-users.md): users, roles and authorities. ROLE_ADMIN only: declared in ./access.ts (checked
 * before the body is read) and checked again here. Handlers validate with domain/user-admin.ts and
 * domain/validation.ts, call api/services/user-admin.ts and shape the answer; the list reloads are the
 * client's.
 */
import { NO_CONTENT, route, type Route } from '../route';
import { accountDto, authorityDto, id } from '../responses';
import type { AuthorityViewDTO, RoleDTO } from '../../domain/api-types';

import { ADMIN_ROLE } from './access';
import type { Context } from 'koa';
import { z } from 'zod';
import type { AppDeps } from '../app';
import { currentUser, assertRole } from '../auth';
import { FieldErrorCollector, HttpError, notFound, setAlert } from '../errors';
import { pageRequest, setTotal } from '../paging';
import {
  createUserAdmin,
  findUser,
  listAuthorities,
  listUsers,
  missingComponents,
  unknownRoles,
} from '../services/user-admin';
import { firstValue, idParam } from '../validate';
import { Roles } from '../../domain/enums';
import {
  authorityShapeRule,
  personNameRule,
  roleNameRule,
  userLangKeyRule,
  USER_SORTS,
  USERS_PAGE_SIZE,
  type AuthorityInput,
} from '../../domain/user-admin';
import { emailRule, loginRule, passwordRule } from '../../domain/validation';
import { authoritiesByIds } from '../../db/queries/roles';

const text = z.string().nullish();
const MAX_GRANTS = 500;
const authoritySchema = z.object({
  id: z.number().int().nullish(),
  componentId: z.number().int().nullish(),
  type: text,
  mode: text,
});
const authorities = z.array(authoritySchema).max(MAX_GRANTS).nullish();
export const schemas = {
  user: z.object({
    id: z.number().int().nullish(),
    login: text,
    firstName: text,
    lastName: text,
    email: text,
    activated: z.boolean().nullish(),
    langKey: text,
    roles: z.array(z.string()).max(MAX_GRANTS).nullish(),
    authorities,
    password: text,
  }),
  role: z.object({ id: z.number().int().nullish(), name: text, authorities }),
  authority: authoritySchema,
};

type AuthorityBody = z.infer<typeof authoritySchema>;

/** A new entity may not carry an id (JHipster's `idexists`); an update must. */
const idExists = () =>
  new HttpError(400, {
    message: 'error.idexists',
    errorKey: 'idexists',
    detail: 'A new entity cannot already have an ID',
  });

/** An authority as listed: with the names of what it grants on. */
const authorityViewDto = authorityDto.extend({
  componentName: z.string().nullable(),
  processId: id.nullable(),
  processName: z.string().nullable(),
}) satisfies z.ZodType<AuthorityViewDTO>;
const roleDto = z.object({
  id,
  name: z.string(),
  builtIn: z.boolean(),
  authorities: z.array(authorityDto),
}) satisfies z.ZodType<RoleDTO>;

export function userRoutes(deps: AppDeps): Route[] {
  const { knex } = deps;
  const admin = createUserAdmin(deps);
  // Declared ROLE_ADMIN in ./access.ts (the gate refuses before the body is read); checked again here.

  /**
   * Authorities of a body: given by their fields, or by the id of an existing authority. Checks the shape
   * of each and that its process or node exists; reports `authorities[i]`.
   */
  async function validAuthorities(
    errors: FieldErrorCollector,
    list: readonly AuthorityBody[],
  ): Promise<AuthorityInput[]> {
    const byId = new Map<number, AuthorityInput>();
    const ids = list.filter((a) => a.componentId == null && a.id != null).map((a) => a.id!);
    if (ids.length)
      for (const r of await authoritiesByIds(knex, ids))
        byId.set(r.id, { componentId: r.componentId, type: r.type, mode: r.mode });
    const resolved = list.map((a) => (a.componentId == null && a.id != null ? (byId.get(a.id) ?? a) : a));
    let shapeless = false;
    resolved.forEach((a, i) => {
      const violation = authorityShapeRule(a);
      if (violation) shapeless = true;
      errors.check(`authorities[${i}]`, violation);
    });
    if (shapeless) return [];
    const inputs = resolved as AuthorityInput[];
    for (const i of await missingComponents(knex, inputs))
      errors.check(`authorities[${i}]`, {
        code: 'NotBlank',
        key: 'userManagement.validation.componentNotFound',
      });
    return inputs;
  }

  async function validUser(input: z.infer<typeof schemas.user>, creating: boolean) {
    const roles = input.roles ?? [Roles.USER];
    const langKey = input.langKey ?? 'en';
    const errors = new FieldErrorCollector('adminUserDTO')
      .check('login', loginRule(input.login ?? ''))
      .check('email', emailRule(input.email ?? ''))
      .check('firstName', personNameRule(input.firstName ?? ''))
      .check('lastName', personNameRule(input.lastName ?? ''))
      .check('langKey', userLangKeyRule(langKey));
    if (creating && input.password) errors.check('password', passwordRule(input.password));
    for (const name of await unknownRoles(knex, roles))
      errors.check(`roles[${roles.indexOf(name)}]`, {
        code: 'Pattern',
        key: 'userManagement.validation.roleUnknown',
      });
    const grants = await validAuthorities(errors, input.authorities ?? []);
    errors.throwIfAny();
    return {
      login: input.login!.trim(),
      email: input.email!.trim(),
      firstName: input.firstName?.trim() || null,
      lastName: input.lastName?.trim() || null,
      activated: input.activated ?? true,
      langKey,
      roles: [...new Set(roles)],
      authorities: grants,
      password: creating && input.password ? input.password : undefined,
    };
  }

  async function validRole(input: z.infer<typeof schemas.role>) {
    const errors = new FieldErrorCollector('role').check('name', roleNameRule(input.name ?? ''));
    const grants = await validAuthorities(errors, input.authorities ?? []);
    errors.throwIfAny();
    return { name: input.name!.trim(), authorities: grants };
  }

  /** Users as a page (`paged=false`: all), filtered by `filteredValue` when given; the total in X-Total-Count. */
  async function respondUsers(ctx: Context, filter?: string) {
    const paging = pageRequest(ctx.query, {
      defaultSize: USERS_PAGE_SIZE,
      sorts: USER_SORTS,
      defaultSort: 'id,asc',
    });
    const all = firstValue(ctx.query.paged) === 'false';
    const { rows, total } = await listUsers(knex, { filter, page: all ? null : paging, sort: paging.sort });
    setTotal(ctx, total);
    ctx.body = rows;
  }

  return [
    route({ method: 'GET', path: '/api/users', access: ADMIN_ROLE, response: z.array(accountDto) }, (ctx) => {
      assertRole(ctx, Roles.ADMIN);
      return respondUsers(ctx);
    }),

    route(
      { method: 'GET', path: '/api/_search/users', access: ADMIN_ROLE, response: z.array(accountDto) },
      (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        return respondUsers(ctx, firstValue(ctx.query.filteredValue) ?? '');
      },
    ),

    route(
      { method: 'GET', path: '/api/users/:id', access: ADMIN_ROLE, response: accountDto },
      async (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        const user = await findUser(knex, idParam(ctx.params.id));
        if (!user) throw notFound('user');
        ctx.body = user;
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/users',
        access: ADMIN_ROLE,
        body: { schema: schemas.user, object: 'adminUserDTO' },
        response: accountDto,
        status: 201,
      },
      async (ctx, { body }) => {
        assertRole(ctx, Roles.ADMIN);
        const input = body();
        if (input.id != null) throw idExists();
        const created = await admin.createUser(currentUser(ctx), await validUser(input, true));
        ctx.status = 201;
        ctx.set('Location', `/api/users/${created.id}`);
        setAlert(ctx, 'userManagement.created', created.login);
        ctx.body = created;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/users',
        access: ADMIN_ROLE,
        body: { schema: schemas.user, object: 'adminUserDTO' },
        response: accountDto,
      },
      async (ctx, { body }) => {
        assertRole(ctx, Roles.ADMIN);
        const input = body();
        const id = idParam(input.id, 'id');
        const updated = await admin.updateUser(currentUser(ctx), id, await validUser(input, false));
        setAlert(ctx, 'userManagement.updated', updated.login);
        ctx.body = updated;
      },
    ),

    route(
      { method: 'DELETE', path: '/api/users/:id', access: ADMIN_ROLE, response: NO_CONTENT },
      async (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        const deleted = await admin.deleteUser(currentUser(ctx), idParam(ctx.params.id));
        setAlert(ctx, 'userManagement.deleted', deleted.login);
        ctx.status = 204;
      },
    ),

    route(
      { method: 'GET', path: '/api/authorities', access: ADMIN_ROLE, response: z.array(authorityViewDto) },
      async (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        ctx.body = await listAuthorities(knex);
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/authorities',
        access: ADMIN_ROLE,
        body: { schema: schemas.authority, object: 'authority' },
        response: authorityDto,
        status: [201, 200],
      },
      async (ctx, { body }) => {
        assertRole(ctx, Roles.ADMIN);
        const input = body();
        if (input.id != null) throw idExists();
        const errors = new FieldErrorCollector('authority');
        const [grant] = await validAuthorities(errors, [input]);
        errors.throwIfAny();
        const { authority, created } = await admin.createAuthority(currentUser(ctx), grant);
        ctx.status = created ? 201 : 200;
        setAlert(ctx, 'userManagement.authority.created', authority.id);
        ctx.body = authority;
      },
    ),

    route(
      { method: 'DELETE', path: '/api/authorities/:id', access: ADMIN_ROLE, response: NO_CONTENT },
      async (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        const id = idParam(ctx.params.id);
        await admin.deleteAuthority(currentUser(ctx), id);
        setAlert(ctx, 'userManagement.authority.deleted', id);
        ctx.status = 204;
      },
    ),

    route(
      { method: 'GET', path: '/api/roles', access: ADMIN_ROLE, response: z.array(roleDto) },
      async (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        ctx.body = await admin.listRoles();
      },
    ),

    route(
      {
        method: 'POST',
        path: '/api/roles',
        access: ADMIN_ROLE,
        body: { schema: schemas.role, object: 'role' },
        response: roleDto,
        status: 201,
      },
      async (ctx, { body }) => {
        assertRole(ctx, Roles.ADMIN);
        const input = body();
        if (input.id != null) throw idExists();
        const role = await admin.createRole(currentUser(ctx), await validRole(input));
        ctx.status = 201;
        setAlert(ctx, 'userManagement.role.created', role.name);
        ctx.body = role;
      },
    ),

    route(
      {
        method: 'PUT',
        path: '/api/roles',
        access: ADMIN_ROLE,
        body: { schema: schemas.role, object: 'role' },
        response: roleDto,
      },
      async (ctx, { body }) => {
        assertRole(ctx, Roles.ADMIN);
        const input = body();
        const id = idParam(input.id, 'id');
        const role = await admin.updateRole(currentUser(ctx), id, await validRole(input));
        setAlert(ctx, 'userManagement.role.updated', role.name);
        ctx.body = role;
      },
    ),

    route(
      { method: 'DELETE', path: '/api/roles/:id', access: ADMIN_ROLE, response: NO_CONTENT },
      async (ctx) => {
        assertRole(ctx, Roles.ADMIN);
        const role = await admin.deleteRole(currentUser(ctx), idParam(ctx.params.id));
        setAlert(ctx, 'userManagement.role.deleted', role.name);
        ctx.status = 204;
      },
    ),
  ];
}
