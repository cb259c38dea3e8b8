/** Serves the built web app, with index.html for every client-side route (not for /api or /management). */
import fs from 'node:fs';
import path from 'node:path';
import type { Context, Next } from 'koa';
import send from 'koa-send';

const RESERVED = /^\/(api|management|i18n|websocket)(\/|$)/;

export function serveWeb(webDir: string) {
  return async (ctx: Context, next: Next) => {
    await next();
    if (ctx.body !== undefined || ctx.status !== 404 || (ctx.method !== 'GET' && ctx.method !== 'HEAD'))
      return;
    if (RESERVED.test(ctx.path)) return;
    const file = path.join(webDir, path.normalize(ctx.path));
    if (file.startsWith(webDir) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      await send(ctx, path.relative(webDir, file), {
        root: webDir,
        maxage: ctx.path.startsWith('/assets/') ? 31536000000 : 0,
      });
      return;
    }
    if (fs.existsSync(path.join(webDir, 'index.html'))) {
      await send(ctx, 'index.html', { root: webDir });
    } else {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The web app is not built: run `npm run build:web`.';
    }
  };
}
