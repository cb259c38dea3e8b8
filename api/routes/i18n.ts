/** GET /i18n/{locale}.json: the deep merge of web/src/i18n/{locale}/*.json (one file per feature). */
import { route, type Route } from '../route';
import { z } from 'zod';

import { PUBLIC, withKeys } from './access';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../app';
import { notFound } from '../errors';

export const LOCALES = ['en', 'pl'] as const;

type Tree = { [k: string]: string | Tree };

/** A translation file: nested objects of message keys down to their texts. */
const translations = z.record(z.string(), z.unknown());

export function deepMerge(target: Tree, source: Tree): Tree {
  for (const [k, v] of Object.entries(source)) {
    const t = target[k];
    target[k] = typeof v === 'object' && typeof t === 'object' ? deepMerge(t, v) : v;
  }
  return target;
}

export async function loadLocale(i18nDir: string, locale: string): Promise<Tree> {
  const dir = path.join(i18nDir, locale);
  const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  const merged: Tree = {};
  for (const f of files) deepMerge(merged, JSON.parse(await fs.readFile(path.join(dir, f), 'utf8')) as Tree);
  return merged;
}

export function i18nRoutes({ config }: AppDeps): Route[] {
  const cache = new Map<string, Tree>();

  return [
    route(
      { method: 'GET', path: '/i18n/:file', access: withKeys(PUBLIC), response: translations },
      async (ctx) => {
        const match = /^([a-z]{2})\.json$/.exec(ctx.params.file ?? '');
        const locale = match?.[1];
        if (!locale || !(LOCALES as readonly string[]).includes(locale)) throw notFound('locale');
        let tree = process.env.NODE_ENV === 'production' ? cache.get(locale) : undefined;
        if (!tree) {
          tree = await loadLocale(config.i18nDir, locale);
          cache.set(locale, tree);
        }
        ctx.set('Cache-Control', 'no-cache');
        ctx.body = tree;
      },
    ),
  ];
}
