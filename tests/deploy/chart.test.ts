/**
 * The Helm chart (deploy/helm/workbench) checked by the real tools: scripts/check-chart.sh runs `helm lint`,
 * `helm template` with the default and the production values and `kubeconform -strict` against the vendored
 * schemas (deploy/schemas/); a broken copy of the chart must fail it, so the check is not vacuous. The tools
 * are installed from the Go module proxy when missing (.ci/run does it before the suites).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CHART = path.join(ROOT, 'deploy', 'helm', 'workbench');
const SCHEMAS = path.join(ROOT, 'deploy', 'schemas');
const CHECK = path.join(ROOT, 'scripts', 'check-chart.sh');
/** The Kubernetes version check-chart.sh renders for (that of the vendored schemas). */
const KUBE_VERSION = /^KUBE_VERSION=(\S+)$/m.exec(fs.readFileSync(CHECK, 'utf8'))![1];

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}`, stdout: r.stdout };
}

/** The tools' paths, as `check-chart.sh --install` prints them (`helm=...`, `kubeconform=...`). */
const tools: Record<string, string> = {};
const tool = (name: 'helm' | 'kubeconform') => tools[name];

/** `helm template` of the chart with extra arguments, and kubeconform -strict over its output. */
function templateAndValidate(chart: string, args: string[]) {
  const rendered = run(tool('helm'), [
    'template',
    'workbench',
    chart,
    '--namespace',
    'workbench',
    '--kube-version',
    KUBE_VERSION,
    ...args,
  ]);
  if (rendered.status !== 0) return { ...rendered, manifests: '' };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chart-')), 'rendered.yaml');
  fs.writeFileSync(file, rendered.stdout);
  const validated = run(tool('kubeconform'), [
    '-strict',
    '-summary',
    '-schema-location',
    `${SCHEMAS}/{{ .ResourceKind }}{{ .KindSuffix }}.json`,
    file,
  ]);
  return { ...validated, manifests: rendered.stdout };
}

/** A copy of the chart to break. */
function chartCopy(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chart-copy-')), 'workbench');
  fs.cpSync(CHART, dir, { recursive: true });
  return dir;
}

beforeAll(
  () => {
    // helm and kubeconform built with `go install` when missing: minutes on a fresh machine, once.
    const r = run('bash', [CHECK, '--install']);
    if (r.status !== 0) throw new Error(`installing helm and kubeconform failed:\n${r.out}`);
    for (const m of r.stdout.matchAll(/^(helm|kubeconform)=(.+)$/gm)) tools[m[1]] = m[2];
  },
  30 * 60 * 1000,
);

describe('the Helm chart', () => {
  it('passes helm lint, helm template and kubeconform -strict with the default and the production values', () => {
    const r = run('bash', [CHECK]);
    expect({ status: r.status, out: r.out }).toEqual({ status: 0, out: expect.any(String) });
    expect(r.out).toContain('[chart] helm lint, helm template and kubeconform passed');
    // Both value sets went through kubeconform: its summary line, once each, with nothing invalid.
    expect(
      r.out.match(/Summary: \d+ resources found in 1 file - Valid: \d+, Invalid: 0, Errors: 0, Skipped: 0/g),
    ).toHaveLength(2);
  }, 120000);

  it('fails the check when a template renders a field Kubernetes does not know', () => {
    const copy = chartCopy();
    const file = path.join(copy, 'templates', 'worker-deployment.yaml');
    const text = fs.readFileSync(file, 'utf8');
    // `replica` for `replicas`: valid YAML that helm renders and lints, refused by the strict schema.
    fs.writeFileSync(
      file,
      text.replace('  replicas: {{ .Values.worker.replicas }}', '  replica: {{ .Values.worker.replicas }}'),
    );
    const r = run('bash', [CHECK], { CHART_DIR: copy });
    expect(r.status).toBe(1);
    // Reported for each value set: one failure does not hide the next check.
    expect(r.out).toContain('[chart] FAILED: kubeconform -strict (default values)');
    expect(r.out).toContain('[chart] FAILED: kubeconform -strict (values-production.yaml)');
    expect(r.out).toMatch(/additional properties 'replica' not allowed/i);
  }, 120000);

  it('fails the check when a template does not render', () => {
    const copy = chartCopy();
    fs.appendFileSync(
      path.join(copy, 'templates', 'api-service.yaml'),
      '\n{{ .Values.api.service.port | nosuchfunction }}\n',
    );
    const r = run('bash', [CHECK], { CHART_DIR: copy });
    expect(r.status).toBe(1);
    expect(r.out).toContain('[chart] FAILED: helm lint --strict (default values)');
    expect(r.out).toContain('[chart] FAILED: helm template (default values)');
  }, 120000);

  it('renders the optional parts valid too: a database URL as a value, mTLS to Temporal, ingress without TLS', () => {
    const r = templateAndValidate(CHART, [
      '--set',
      'database.existingSecret=',
      '--set',
      'database.url=postgres://workbench:secret@postgresql:5432/workbench',
      '--set',
      'temporal.tls.enabled=true',
      '--set',
      'temporal.tls.existingSecret=workbench-temporal-tls',
      '--set',
      'temporal.tls.serverCaKey=ca.crt',
      '--set',
      'temporal.tls.serverName=temporal.example.com',
      '--set',
      'ingress.enabled=true',
      '--set',
      'ingress.tls.enabled=false',
      '--set',
      'worker.metricsPort=0',
      '--set',
      'migrations.enabled=false',
    ]);
    expect({ status: r.status, out: r.out }).toEqual({ status: 0, out: expect.any(String) });
    expect(r.manifests).toContain('value: /etc/workbench/temporal-tls/tls.crt');
    expect(r.manifests).toContain('value: /etc/workbench/temporal-tls/ca.crt');
    expect(r.manifests).toContain('value: "http://workbench.example.com"');
    expect(r.manifests).not.toContain('WORKER_METRICS_PORT');
    expect(r.manifests).not.toContain('kind: Job');
  }, 120000);

  it('generates keys of the form the application reads when none are given', () => {
    const r = templateAndValidate(CHART, []);
    expect(r.status).toBe(0);
    const value = (key: string) => {
      const m = r.manifests.match(new RegExp(`^  ${key}: "([^"]+)"$`, 'm'));
      return Buffer.from(m![1], 'base64').toString('utf8');
    };
    // server/config.ts: JWT_SECRET of at least 32 bytes; db/crypto.ts: DATA_ENCRYPTION_KEY base64 of 32 bytes.
    expect(Buffer.byteLength(value('JWT_SECRET'))).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(value('DATA_ENCRYPTION_KEY'), 'base64')).toHaveLength(32);
  }, 120000);

  it('keeps files in object storage when asked: FILES_STORE and the AWS settings, no volume', () => {
    const r = templateAndValidate(CHART, [
      '--set',
      'files.objectStorage.enabled=true',
      '--set',
      'files.objectStorage.url=s3://workbench-files/prod',
      '--set',
      'files.objectStorage.region=eu-central-1',
      '--set',
      'files.objectStorage.endpoint=https://s3.example.com',
      '--set',
      'files.objectStorage.credentialsSecret=workbench-s3',
    ]);
    expect({ status: r.status, out: r.out }).toEqual({ status: 0, out: expect.any(String) });
    expect(r.manifests).toContain('value: "s3://workbench-files/prod"');
    expect(r.manifests).toContain('value: "eu-central-1"');
    expect(r.manifests).toContain('value: "https://s3.example.com"');
    expect(r.manifests).toMatch(
      /name: AWS_SECRET_ACCESS_KEY\n\s+valueFrom:\n\s+secretKeyRef:\n\s+name: workbench-s3/,
    );
    expect(r.manifests).not.toContain('kind: PersistentVolumeClaim');
    expect(r.manifests).not.toContain('name: FILES_DIR');
    expect(r.manifests).not.toContain('claimName:');
    // the volume is the default
    const volume = templateAndValidate(CHART, []);
    expect(volume.manifests).toContain('kind: PersistentVolumeClaim');
    expect(volume.manifests).toContain('name: FILES_DIR');
    expect(volume.manifests).not.toContain('FILES_STORE');
  }, 120000);

  it("mounts a private PostgreSQL CA for DATABASE_URL's sslrootcert in every pod and the migration Job", () => {
    const r = templateAndValidate(CHART, ['--set', 'database.tls.caSecret=postgres-ca']);
    expect({ status: r.status, out: r.out }).toEqual({ status: 0, out: expect.any(String) });
    // the API, the worker and the migration Job: each mounts it and has the volume
    expect(r.manifests.match(/mountPath: \/etc\/workbench\/postgres-tls/g)).toHaveLength(3);
    expect(r.manifests.match(/secretName: postgres-ca/g)).toHaveLength(3);
    expect(templateAndValidate(CHART, []).manifests).not.toContain('postgres-tls');
  }, 120000);

  it('refuses object storage without a bucket URL, and a missing database', () => {
    const storage = templateAndValidate(CHART, ['--set', 'files.objectStorage.enabled=true']);
    expect(storage.status).not.toBe(0);
    expect(storage.out).toContain('files.objectStorage.url: set s3://bucket/prefix');
    const database = templateAndValidate(CHART, ['--set', 'database.existingSecret=']);
    expect(database.status).not.toBe(0);
    expect(database.out).toContain('set database.existingSecret');
  }, 120000);

  it('vendors the schemas scripts/k8s-schemas.ts makes from kubeconform v0.8.0, one per kind the chart renders', () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-'));
    const r = run(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [
      path.join(ROOT, 'scripts', 'k8s-schemas.ts'),
      out,
    ]);
    expect({ status: r.status, out: r.out }).toEqual({ status: 0, out: expect.any(String) });
    const made = fs.readdirSync(out).sort();
    const vendored = fs
      .readdirSync(SCHEMAS)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(vendored).toEqual(made);
    for (const f of made)
      expect(fs.readFileSync(path.join(SCHEMAS, f), 'utf8')).toBe(fs.readFileSync(path.join(out, f), 'utf8'));
  }, 300000);
});
