/**
 * Writes the Kubernetes JSON schemas that `scripts/check-chart.sh` gives kubeconform (no network: it cannot
 * download them) into deploy/schemas/, one per kind the chart renders, in kubeconform's layout
 * (`<kind>-<group>-<version>.json`, `<kind>-<version>.json` for the core group), standalone (every `$ref`
 * inlined) and strict (an object with `properties` allows no other property), as the `-standalone-strict`
 * schemas of yannh/kubernetes-json-schema are. Run again when the chart renders a new kind:
 *
 *   npx tsx scripts/k8s-schemas.ts [output directory, default deploy/schemas]
 *
 * The source is the `_definitions.json` that kubeconform v0.8.0 ships as a test fixture (its schema cache of
 * https://raw.githubusercontent.com/yannh/kubernetes-json-schema/master/master/_definitions.json), taken from
 * the Go module cache after `go mod download`: deploy/schemas/README.md says which Kubernetes it describes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
export const SCHEMAS_DIR = path.join(ROOT, 'deploy', 'schemas');
export const KUBECONFORM_MODULE = 'github.com/yannh/kubeconform@v0.8.0';
/** sha256 of the fixture's URL: kubeconform's on-disk cache names files so (pkg/cache/ondisk.go). */
export const DEFINITIONS_FIXTURE =
  'fixtures/cache/6dc6142c64b944d783a3e783526114da8e747a14a11d8b32dd1f12e2d89a8330';

/** The kinds the chart renders: [group, version, kind]. */
export const KINDS: [string, string, string][] = [
  ['apps', 'v1', 'Deployment'],
  ['', 'v1', 'Service'],
  ['', 'v1', 'Secret'],
  ['', 'v1', 'PersistentVolumeClaim'],
  ['batch', 'v1', 'Job'],
  ['networking.k8s.io', 'v1', 'Ingress'],
  ['autoscaling', 'v2', 'HorizontalPodAutoscaler'],
  ['policy', 'v1', 'PodDisruptionBudget'],
];

type Schema = { [key: string]: unknown };
interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** kubeconform's file name of a kind: `{{ .ResourceKind }}{{ .KindSuffix }}.json`. */
export function schemaFileName(group: string, version: string, kind: string): string {
  const suffix = group ? `-${group.split('.')[0]}-${version}` : `-${version}`;
  return `${kind}${suffix}.json`.toLowerCase();
}

/** The definition's schema with every `$ref` replaced by its target, and `additionalProperties: false`. */
export function standaloneStrict(definitions: Record<string, Schema>, name: string): Schema {
  const expand = (node: unknown, trail: string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => expand(n, trail));
    if (!node || typeof node !== 'object') return node;
    const obj = node as Schema;
    if (typeof obj.$ref === 'string') {
      const target = obj.$ref.replace(/^.*#\/definitions\//, '');
      if (trail.includes(target)) throw new Error(`recursive schema ${[...trail, target].join(' -> ')}`);
      const { $ref: _ref, ...rest } = obj;
      const resolved = expand(definitions[target], [...trail, target]) as Schema;
      if (!resolved) throw new Error(`unknown definition ${target}`);
      return { ...resolved, ...rest };
    }
    const out: Schema = {};
    for (const [k, v] of Object.entries(obj)) out[k] = k === 'enum' ? v : expand(v, trail);
    if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return expand(definitions[name], [name]) as Schema;
}

function moduleDir(): string {
  // Go's usual place searched last, as scripts/check-chart.sh does.
  const env = { ...process.env, PATH: `${process.env.PATH ?? ''}${path.delimiter}/usr/local/go/bin` };
  const r = spawnSync('go', ['mod', 'download', '-json', KUBECONFORM_MODULE], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`go mod download ${KUBECONFORM_MODULE} failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { Dir: string }).Dir;
}

function main(outDir: string): void {
  const source = path.join(moduleDir(), DEFINITIONS_FIXTURE);
  const { definitions } = JSON.parse(fs.readFileSync(source, 'utf8')) as {
    definitions: Record<string, Schema>;
  };
  fs.mkdirSync(outDir, { recursive: true });
  for (const [group, version, kind] of KINDS) {
    const name = Object.keys(definitions).find((n) =>
      ((definitions[n]['x-kubernetes-group-version-kind'] as GroupVersionKind[]) ?? []).some(
        (g) => g.group === group && g.version === version && g.kind === kind,
      ),
    );
    if (!name) throw new Error(`no definition of ${group}/${version} ${kind} in ${source}`);
    const file = path.join(outDir, schemaFileName(group, version, kind));
    fs.writeFileSync(file, JSON.stringify(standaloneStrict(definitions, name)) + '\n');
    console.log(`${path.relative(ROOT, file)} (${name})`);
  }
}

if (require.main === module) main(path.resolve(process.argv[2] ?? SCHEMAS_DIR));
