/**
 * `POST api/v2/document-info?page&size&sort&paged` with body {paged, filters[{type, value}]} (spec 2
 * section 7): a page of one process's documents for the dashboards and the workspace's documents panel,
 * or with issue filters the issues dashboard's documents with their issue counts; the total in X-Total-Count
 * (of documents: exact up to 1,000 matches, else the planner's estimate, X-Total-Count-Exact false), and
 * for documents X-Next-Cursor, the `?after=` of the next page (keyset paging: deep pages cost what the first
 * does; `page` counts from the cursor's row then). The process is the body's PROCESS filter (checked by the
 * service after the
 * parse, declared in ./access.ts).
 */
import Router from '@koa/router';
import type { AppDeps } from '../app';
import { currentUser } from '../auth';
import { listDocumentInfo, pageRequest } from '../services/document-info';

export function documentInfoRoutes({ knex }: AppDeps): Router {
  const router = new Router();

  router.post('/api/v2/document-info', async (ctx) => {
    const user = currentUser(ctx);
    const paging = pageRequest(ctx.query);
    const { rows, total, exact, next } = await listDocumentInfo(
      knex,
      user,
      (ctx.request as unknown as { body: unknown }).body,
      paging,
    );
    ctx.set('X-Total-Count', String(total));
    ctx.set('X-Total-Count-Exact', String(exact));
    const expose = ['X-Total-Count', 'X-Total-Count-Exact'];
    if (next) {
      ctx.set('X-Next-Cursor', next);
      expose.push('X-Next-Cursor');
    }
    ctx.set('Access-Control-Expose-Headers', expose.join(', '));
    ctx.body = rows;
  });

  return router;
}
