import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { AuthUser } from './auth';
import { errorMiddleware } from './errors';
import { fileResponse, gateAccess, layerKeys, mountRoutes, NO_CONTENT, route, type Route } from './route';
import { ADMIN_ROLE, PUBLIC, SIGNED_IN, onNode, onProcess, param, query } from './routes/access';

// Role, public and signed-in gates never touch the database.
const knex = {} as Knex;
const ok = () => undefined;

describe('route(): a route is declared with who may call it', () => {
  it('refuses a route without an access declaration', () => {
    expect(() => route({ method: 'GET', path: '/x' } as never, ok)).toThrow(
      'Route GET /x is not declared properly: no access declaration',
    );
  });

  it.each([
    [{ who: 'anyone' }, /who anyone is not/],
    [{ who: 'role' }, /needs its role/],
    [{ who: 'global', mode: 'OWN' }, /mode OWN is not one of READ,WRITE,ADMIN/],
    [{ who: 'process', mode: 'READ' }, /needs refs from param, query or body/],
    [{ who: 'process', mode: 'READ', ref: [] }, /needs the ref of its id/],
    [{ who: 'node', mode: 'WRITE', ref: { from: 'header', name: 'x', kind: 'node' } }, /from param, query/],
    [{ who: 'node', mode: 'WRITE', ref: param('id', 'planet' as never) }, /ref kind planet is unknown/],
    [{ ...SIGNED_IN, byKey: 'yes' }, /byKey must be a boolean/],
  ])('refuses the access declaration %j', (access, message) => {
    expect(() => route({ method: 'GET', path: '/x', access } as never, ok)).toThrow(message);
  });

  it('refuses a method, path or body it cannot mount', () => {
    expect(() => route({ method: 'PATCH', path: '/x', access: PUBLIC } as never, ok)).toThrow(/method PATCH/);
    expect(() => route({ method: 'GET', path: 'x', access: PUBLIC }, ok)).toThrow(/start with \//);
    expect(() => route({ method: 'POST', path: '/x', access: PUBLIC, body: 'xml' } as never, ok)).toThrow(
      /'multipart' or \{ schema, object \}/,
    );
  });

  it('keeps the declaration on the route', () => {
    const access = onProcess('ADMIN', param('id', 'process'));
    const r = route({ method: 'DELETE', path: '/api/x/:id', access }, ok);
    expect([r.method, r.path, r.access, r.body]).toEqual(['DELETE', '/api/x/:id', access, undefined]);
  });
});

describe('mountRoutes(): only declared routes, each behind its gate', () => {
  it('cannot mount a route that skipped route() and has no access', () => {
    const bare = { method: 'GET', path: '/x', handler: ok } as unknown as Route;
    expect(() => mountRoutes([[bare]], knex)).toThrow(
      'Route GET /x is not declared properly: no access declaration',
    );
  });

  it('refuses the same method and path declared twice, in any two groups', () => {
    const a = route({ method: 'GET', path: '/x', access: PUBLIC }, ok);
    const b = route({ method: 'GET', path: '/x', access: SIGNED_IN }, ok);
    expect(() => mountRoutes([[a], [b]], knex)).toThrow('GET /x is declared twice');
    expect(() =>
      mountRoutes([[a, route({ method: 'POST', path: '/x', access: PUBLIC }, ok)]], knex),
    ).not.toThrow();
  });

  it('puts the gate of its declaration first on every layer', () => {
    const access = onNode('READ', query('nodeId', 'node'));
    const [router] = mountRoutes([[route({ method: 'GET', path: '/api/n', access }, ok)]], knex);
    expect(router.stack.flatMap((l) => layerKeys(l))).toEqual(['GET /api/n']);
    expect(gateAccess(router.stack[0].stack[0])).toBe(access);
    expect(gateAccess(router.stack[0].stack[1])).toBeUndefined();
  });
});

describe('a mounted route over HTTP', () => {
  const echo = z.object({ name: z.string().min(2) });
  const nerTag = z.object({ type: z.literal('SPAN'), start: z.number() });
  const speechTag = z.object({ type: z.literal('TIME'), ts: z.number() });
  const routes: Route[] = [
    route(
      { method: 'POST', path: '/echo', access: SIGNED_IN, body: { schema: echo, object: 'thing' } },
      (ctx, { body }) => {
        ctx.body = body();
      },
    ),
    route(
      { method: 'POST', path: '/admin', access: ADMIN_ROLE, body: { schema: echo, object: 'thing' } },
      (ctx, { body }) => {
        ctx.body = body();
      },
    ),
    route(
      {
        method: 'POST',
        path: '/shapes',
        access: SIGNED_IN,
        body: { schema: [nerTag, speechTag], object: 'tag' },
      },
      (ctx, { body }) => {
        const raw = (ctx.request as unknown as { body: { type?: string } }).body;
        ctx.body = raw.type === 'TIME' ? body(speechTag) : body(nerTag);
      },
    ),
    route(
      { method: 'POST', path: '/sneaky', access: SIGNED_IN, body: { schema: echo, object: 'thing' } },
      (ctx, { body }) => {
        // a schema the declaration does not name (the types refuse it; a cast gets through to run time)
        ctx.body = (body as unknown as (s: z.ZodType) => unknown)(nerTag);
      },
    ),
    route(
      { method: 'GET', path: '/answer', access: PUBLIC, response: z.strictObject({ n: z.number() }) },
      (ctx) => {
        ctx.body = ctx.query.bad ? { n: 1, secret: 'x' } : { n: 1 };
      },
    ),
    // a plain z.object: the check is strict all the same, at any depth
    route(
      {
        method: 'GET',
        path: '/loose',
        access: PUBLIC,
        response: z.object({
          items: z.array(z.object({ id: z.number(), at: z.iso.datetime(), note: z.string().optional() })),
        }),
      },
      (ctx) => {
        const item: Record<string, unknown> = { id: 1, at: new Date(0) };
        if (ctx.query.extra) item.token = 'x';
        if (ctx.query.lacking) delete item.at;
        if (ctx.query.note) item.note = 'n';
        ctx.body = { items: [item] };
      },
    ),
    route(
      {
        method: 'POST',
        path: '/created',
        access: PUBLIC,
        status: 201,
        response: z.object({ id: z.number() }),
      },
      (ctx) => {
        ctx.status = ctx.query.ok ? 201 : 200;
        ctx.body = { id: 1 };
      },
    ),
    route({ method: 'DELETE', path: '/gone', access: PUBLIC, response: NO_CONTENT }, (ctx) => {
      if (ctx.query.body) ctx.body = { deleted: true };
      else ctx.status = 204;
    }),
    route(
      { method: 'GET', path: '/file', access: PUBLIC, response: fileResponse('text/csv', 'audio/*') },
      (ctx) => {
        ctx.type = String(ctx.query.type);
        ctx.body = Buffer.from('a,b');
      },
    ),
  ];
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = new Koa();
    app.silent = true;
    app.use(errorMiddleware);
    // the test's own authentication: `X-Roles: ROLE_USER,ROLE_ADMIN` signs in with those roles
    app.use(async (ctx, next) => {
      const roles = ctx.get('X-Roles');
      if (roles)
        ctx.state.user = { id: 7, login: 'u', roles: roles.split(','), authorities: [] } as never as AuthUser;
      await next();
    });
    for (const router of mountRoutes([routes], knex)) app.use(router.routes());
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const post = async (path: string, body: string, roles?: string) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(roles ? { 'X-Roles': roles } : {}) },
      body,
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('answers 401 and 403 before the body is read (a broken body is not even parsed)', async () => {
    expect((await post('/echo', '{broken')).status).toBe(401);
    expect((await post('/admin', '{broken', 'ROLE_USER')).status).toBe(403);
    // past the gate the same body is a 400 of the parser
    expect((await post('/echo', '{broken', 'ROLE_USER')).status).toBe(400);
  });

  it('validates the declared schema and names the declared object in the field errors', async () => {
    expect(await post('/echo', JSON.stringify({ name: 'ab' }), 'ROLE_USER')).toEqual({
      status: 200,
      body: { name: 'ab' },
    });
    const refused = await post('/echo', JSON.stringify({ name: 'a' }), 'ROLE_USER');
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual([
      { objectName: 'thing', field: 'name', message: 'Size', key: 'entity.validation.too_small' },
    ]);
  });

  it('reads one of the declared shapes, and refuses a schema the route does not declare', async () => {
    expect((await post('/shapes', JSON.stringify({ type: 'TIME', ts: 3 }), 'ROLE_USER')).body).toEqual({
      type: 'TIME',
      ts: 3,
    });
    expect(
      (await post('/shapes', JSON.stringify({ type: 'SPAN', ts: 3 }), 'ROLE_USER')).body.fieldErrors,
    ).toEqual([
      { objectName: 'tag', field: 'start', message: 'NotBlank', key: 'entity.validation.required' },
    ]);
    expect((await post('/sneaky', JSON.stringify({ type: 'SPAN', start: 1 }), 'ROLE_USER')).status).toBe(500);
  });

  it('checks an answer against the declared response under test', async () => {
    expect((await fetch(`${base}/answer`)).status).toBe(200);
    expect((await fetch(`${base}/answer?bad=1`)).status).toBe(500);
  });

  it('fails an answer with a field the schema lacks, or lacking one it has, even with a plain z.object', async () => {
    expect((await fetch(`${base}/loose`)).status).toBe(200);
    expect((await fetch(`${base}/loose?note=1`)).status).toBe(200);
    expect((await fetch(`${base}/loose?extra=1`)).status).toBe(500);
    expect((await fetch(`${base}/loose?lacking=1`)).status).toBe(500);
  });

  it('fails another success status, a body where none is declared, and a file of another type', async () => {
    expect((await fetch(`${base}/created?ok=1`, { method: 'POST' })).status).toBe(201);
    expect((await fetch(`${base}/created`, { method: 'POST' })).status).toBe(500);
    expect((await fetch(`${base}/gone`, { method: 'DELETE' })).status).toBe(204);
    expect((await fetch(`${base}/gone?body=1`, { method: 'DELETE' })).status).toBe(500);
    expect((await fetch(`${base}/file?type=text/csv`)).status).toBe(200);
    expect((await fetch(`${base}/file?type=audio/ogg`)).status).toBe(200);
    expect((await fetch(`${base}/file?type=application/json`)).status).toBe(500);
  });
});
