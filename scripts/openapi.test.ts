/**
 * The API contract (issue 32): docs/openapi.json and the typed client's types (api/client/schema.ts) are
 * exactly what `npm run openapi` writes from the route declarations (a route, body or response changed
 * without regenerating fails here), and the document is a valid OpenAPI 3 document for a real validator
 * (@apidevtools/swagger-parser, against the official OpenAPI 3.0 JSON Schema plus its own checks).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { routeKey } from '../api/route';
import { currentDocument, declaredRoutes, documentText, DOCUMENT_FILE } from './openapi';

const REGENERATE = 'run `npm run openapi` and commit docs/openapi.json and api/client/schema.ts';

describe('the OpenAPI document', () => {
  const doc = currentDocument();

  it(`is committed as docs/openapi.json (else ${REGENERATE})`, () => {
    expect(fs.readFileSync(DOCUMENT_FILE, 'utf8') === documentText(doc)).toBe(true);
  });

  it(`gives the committed client types (else ${REGENERATE})`, () => {
    const root = path.resolve(__dirname, '..');
    const run = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['scripts/openapi.ts', '--check'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);

  it('describes the answer of every route (a JSON schema, a file type or no body)', () => {
    const routes = declaredRoutes();
    expect(routes.length).toBeGreaterThan(200);
    expect(routes.filter((r) => r.response === undefined).map(routeKey)).toEqual([]);
    const paths = doc.paths as Record<
      string,
      Record<string, { responses: Record<string, { content?: unknown }> }>
    >;
    const described = Object.values(paths).flatMap((ops) =>
      Object.values(ops).filter((op) =>
        Object.entries(op.responses).some(([status, r]) => status.startsWith('2') && r.content),
      ),
    );
    // all but the answers without a body
    expect(described.length).toBeGreaterThan(170);
  });

  it('validates as OpenAPI 3', async () => {
    // validate() dereferences in place: give it a copy
    const api = await SwaggerParser.validate(structuredClone(doc) as never);
    expect((api as { openapi: string }).openapi).toMatch(/^3\.0\./);
  });

  it('is refused by the validator when broken (the validator checks)', async () => {
    const broken = structuredClone(doc) as { paths: Record<string, Record<string, { responses?: unknown }>> };
    delete broken.paths['/api/processes'].get.responses;
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow();
    const badRef = structuredClone(doc) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    badRef.paths['/api/processes'].get.responses['400'] = { $ref: '#/components/responses/Nothing' };
    await expect(SwaggerParser.validate(badRef as never)).rejects.toThrow();
  });
});
