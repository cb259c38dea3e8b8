/**
 * The web app runs under a Content-Security-Policy without 'unsafe-eval' (api/security-headers.ts), but ajv
 * compiles a schema into a `Function`. The browser imports the label import schema's validator from
 * domain/label-import-schema.ts, which builds it with `new Ajv(options).compile(schema)`: this plugin
 * answers `import Ajv from 'ajv'` in the web build with a module holding that validator compiled at build
 * time (ajv's standalone code) behind the same three calls (constructor, addFormat, compile).
 *
 * Formats stay the domain's own functions: addFormat registers them at run time and the precompiled code
 * calls them through `formats`. compile() refuses any other schema or options than the ones compiled here,
 * so a change to the domain module that this file does not follow fails loudly (the e2e import test) instead
 * of validating with a stale schema.
 */
import Ajv, { _ } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';

const VIRTUAL_ID = '\0precompiled-ajv';

async function precompiledModule(): Promise<string> {
  // Loaded when the build asks for it (not bundled into the config): the domain is TypeScript.
  const domain = (await tsImport('../domain/label-import-schema.ts', import.meta.url)) as {
    LABEL_IMPORT_SCHEMA: object;
    LABEL_IMPORT_AJV_OPTIONS: object;
    LABEL_IMPORT_FORMATS: Record<string, unknown>;
  };
  // The options and formats of domain/label-import-schema.ts validator(), read from the module itself.
  const { LABEL_IMPORT_SCHEMA, LABEL_IMPORT_AJV_OPTIONS: OPTIONS } = domain;
  const FORMATS = Object.keys(domain.LABEL_IMPORT_FORMATS);
  const ajv = new Ajv({ ...OPTIONS, code: { source: true, esm: true, formats: _`formats` } });
  // Only the shape matters here: the code calls `formats.<name>.validate(value)`.
  for (const name of FORMATS) ajv.addFormat(name, { type: 'string', validate: () => true });
  const standalone = standaloneCode(ajv, ajv.compile(LABEL_IMPORT_SCHEMA));
  const validateName = /export const validate = (validate\d+);/.exec(standalone)?.[1];
  if (!validateName) throw new Error('precompiled-ajv: no validate function in the standalone code');
  const imports: string[] = [];
  const code = standalone
    .replace('"use strict";', '')
    .replace(/export (const validate = |default )validate\d+;/g, '')
    .replace(/require\(("[^"]+")\)/g, (_m, spec: string) => {
      const name = `__ajvRuntime${imports.length}`;
      imports.push(`import * as ${name} from ${spec};`);
      return name;
    });
  return `${imports.join('\n')}
const registered = {};
const formats = new Proxy({}, {
  get: (_t, name) => ({
    validate: (value) => {
      const f = registered[name];
      return typeof f === 'function' ? f(value) : f.validate(value);
    },
  }),
});
${code}
const OPTIONS = ${JSON.stringify(JSON.stringify(OPTIONS))};
const SCHEMA = ${JSON.stringify(JSON.stringify(LABEL_IMPORT_SCHEMA))};
export default class PrecompiledAjv {
  constructor(options) {
    this.options = JSON.stringify(options);
  }
  addFormat(name, format) {
    registered[name] = format;
    return this;
  }
  compile(schema) {
    if (this.options !== OPTIONS || JSON.stringify(schema) !== SCHEMA)
      throw new Error('web/vite-precompiled-ajv.mts compiled another schema or other options: update it');
    return ${validateName};
  }
}
`;
}

export function precompiledAjv(): Plugin {
  return {
    name: 'precompiled-ajv',
    enforce: 'pre',
    resolveId(id) {
      return id === 'ajv' ? VIRTUAL_ID : null;
    },
    async load(id) {
      return id === VIRTUAL_ID ? await precompiledModule() : null;
    },
  };
}
