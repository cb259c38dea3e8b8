import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_LLM_BASE_URL, loadConfig, loadWorkerConfig, webhookTaskQueueOf } from './config';
import { makeCertificates, type TestCertificates } from '../tests/support/certificates';

const OLD_CONSTANT = 'dev-only-secret-change-me-dev-only-secret-change-me-0123456789';

describe('loadConfig: the JWT secret', () => {
  let dataDir: string;
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    DATABASE_URL: 'postgres://localhost/x',
    DATA_DIR: dataDir,
    ...extra,
  });

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('generates a random secret into the data directory on first start and reuses it after', () => {
    const first = loadConfig(env()).jwtSecret;
    const file = path.join(dataDir, 'keys', 'jwt-secret');
    expect(fs.existsSync(file)).toBe(true);
    expect(Buffer.from(first, 'base64')).toHaveLength(64);
    expect(first).not.toBe(OLD_CONSTANT);
    expect(loadConfig(env()).jwtSecret).toBe(first);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });

  it('gives each installation its own secret', () => {
    const a = loadConfig(env()).jwtSecret;
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
    try {
      expect(loadConfig({ ...env(), DATA_DIR: other }).jwtSecret).not.toBe(a);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });

  it('uses JWT_SECRET when set, without writing a key', () => {
    const secret = 'x'.repeat(32);
    expect(loadConfig(env({ JWT_SECRET: secret })).jwtSecret).toBe(secret);
    expect(fs.existsSync(path.join(dataDir, 'keys', 'jwt-secret'))).toBe(false);
  });

  it('refuses a JWT_SECRET shorter than 32 bytes', () => {
    expect(() => loadConfig(env({ JWT_SECRET: 'x'.repeat(31) }))).toThrow(/at least 32 bytes/);
  });

  it('refuses to start with profile prod and no JWT_SECRET', () => {
    for (const profiles of ['prod', 'dev, prod', 'prod,api-docs']) {
      expect(() => loadConfig(env({ APP_PROFILES: profiles }))).toThrow(/JWT_SECRET must be set/);
      expect(() => loadConfig(env({ APP_PROFILES: profiles, JWT_SECRET: '' }))).toThrow(
        /JWT_SECRET must be set/,
      );
    }
    expect(fs.existsSync(path.join(dataDir, 'keys', 'jwt-secret'))).toBe(false);
    expect(loadConfig(env({ APP_PROFILES: 'prod', JWT_SECRET: 'y'.repeat(40) })).jwtSecret).toBe(
      'y'.repeat(40),
    );
  });
});

describe('loadConfig: SMTP_CA_FILE, the private CA of the mail server', () => {
  let certs: TestCertificates;
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    DATABASE_URL: 'postgres://localhost/x',
    JWT_SECRET: 'j'.repeat(40),
    SMTP_HOST: 'mail.example.org',
    ...extra,
  });
  beforeAll(() => {
    certs = makeCertificates();
  });
  afterAll(() => certs?.remove());

  it('takes a readable file of PEM certificates, as an absolute path', () => {
    const relative = path.relative(process.cwd(), certs.caFile);
    expect(loadConfig(env({ SMTP_CA_FILE: relative })).smtp).toMatchObject({
      host: 'mail.example.org',
      caFile: certs.caFile,
    });
    expect(loadConfig(env()).smtp?.caFile).toBeUndefined();
  });

  it('refuses a missing file, a directory, and a file without a certificate', () => {
    const missing = path.join(certs.dir, 'missing.pem');
    expect(() => loadConfig(env({ SMTP_CA_FILE: missing }))).toThrow(
      `SMTP_CA_FILE ${missing} cannot be read (ENOENT)`,
    );
    expect(() => loadConfig(env({ SMTP_CA_FILE: certs.dir }))).toThrow(/cannot be read \(EISDIR\)/);
    const key = path.join(certs.dir, 'ca.key');
    expect(() => loadConfig(env({ SMTP_CA_FILE: key }))).toThrow(/holds no PEM certificate/);
    const broken = path.join(certs.dir, 'broken.pem');
    fs.writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(() => loadConfig(env({ SMTP_CA_FILE: broken }))).toThrow(/does not parse/);
    // Checked without SMTP_HOST too: the mistake shows at start, not when mail is configured later.
    expect(() => loadConfig(env({ SMTP_HOST: '', SMTP_CA_FILE: missing }))).toThrow(/SMTP_CA_FILE/);
  });

  it('stops the API at start with one line saying what is wrong', () => {
    const missing = path.join(certs.dir, 'missing.pem');
    const root = path.resolve(__dirname, '..');
    const run = spawnSync(path.join(root, 'node_modules', '.bin', 'tsx'), ['api/server.ts'], {
      cwd: root,
      env: { ...process.env, ...env({ SMTP_CA_FILE: missing, DATA_DIR: certs.dir }) },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `The API cannot start: SMTP_CA_FILE ${missing} cannot be read (ENOENT)`,
    ]);
  });
});

describe('loadConfig: sign-in throttling and proxies', () => {
  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    DATABASE_URL: 'postgres://localhost/x',
    JWT_SECRET: 'z'.repeat(32),
    ...extra,
  });

  it('has per-pair, per-address and per-account defaults', () => {
    expect(loadConfig(env()).loginThrottle).toEqual({
      maxFailures: 5,
      lockSeconds: 60,
      addressMaxFailures: 20,
      addressWindowSeconds: 600,
      accountMaxFailures: 50,
      accountWindowSeconds: 3600,
      knownAddressDays: 30,
    });
  });

  it('refuses a throttling value that is not a positive integer', () => {
    expect(() => loadConfig(env({ LOGIN_ADDRESS_MAX_FAILURES: '0' }))).toThrow(/LOGIN_ADDRESS_MAX_FAILURES/);
    expect(() => loadConfig(env({ LOGIN_MAX_FAILURES: 'many' }))).toThrow(/LOGIN_MAX_FAILURES/);
  });

  it('trusts no proxy unless TRUST_PROXY says how many', () => {
    expect(loadConfig(env()).trustProxy).toBe(0);
    expect(loadConfig(env({ TRUST_PROXY: 'false' })).trustProxy).toBe(0);
    expect(loadConfig(env({ TRUST_PROXY: 'true' })).trustProxy).toBe(1);
    expect(loadConfig(env({ TRUST_PROXY: '2' })).trustProxy).toBe(2);
    expect(() => loadConfig(env({ TRUST_PROXY: 'yes' }))).toThrow(/TRUST_PROXY/);
  });
});

describe('loadWorkerConfig: the worker reads what the API reads', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('agrees with the API on the files, the allowlist, the limits, Temporal and the speech engine', () => {
    const env: NodeJS.ProcessEnv = {
      DATABASE_URL: 'postgres://localhost/x',
      DATA_DIR: dataDir,
      FILES_DIR: 'shared/files',
      FILES_STORE: 's3://workbench-files/prod',
      AWS_ENDPOINT_URL_S3: 'http://s3.local:7070',
      OUTBOUND_ALLOWLIST: ' 127.0.0.1 , sink.local,',
      UPLOAD_MAX_BYTES: '1234',
      OFFICE_MAX_UNCOMPRESSED_BYTES: '5678',
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_NAMESPACE: 'ns',
      TEMPORAL_TASK_QUEUE: 'q',
      ASR_ENGINE: 'whisper',
      WHISPER_URL: 'http://asr.local/v1',
    };
    const api = loadConfig(env);
    const worker = loadWorkerConfig(env);
    for (const key of [
      'filesDir',
      'filesStore',
      'outboundAllowlist',
      'uploadMaxBytes',
      'officeMaxUncompressedBytes',
      'temporalAddress',
      'temporalNamespace',
      'taskQueue',
      'asr',
      'databaseUrl',
    ] as const)
      expect({ key, value: worker[key] }).toEqual({ key, value: api[key] });
    expect(worker.outboundAllowlist).toEqual(['127.0.0.1', 'sink.local']);
    expect(worker.googleOAuth.tokenUrl).toBe(api.googleOAuth.tokenUrl);
  });

  it('has the defaults of the actions and reads the optional settings', () => {
    const bare = loadWorkerConfig({});
    expect(bare.databaseUrl).toBeUndefined();
    expect(bare.llmBaseUrl).toBe(DEFAULT_LLM_BASE_URL);
    expect(bare.lexiconTimeoutMs).toBeUndefined();
    expect(bare.scheduleSync).toBe(true);
    expect(bare.documentSweep).toEqual({ everyMs: 60_000, olderThanMs: 60_000 });
    expect(loadWorkerConfig({ DOCUMENT_SWEEP: 'off' }).documentSweep).toBeNull();
    expect(loadWorkerConfig({ DOCUMENT_SWEEP_SECONDS: '5' }).documentSweep).toEqual({
      everyMs: 5000,
      olderThanMs: 5000,
    });
    expect(() => loadWorkerConfig({ DOCUMENT_SWEEP_SECONDS: '0' })).toThrow(/DOCUMENT_SWEEP_SECONDS/);
    const set = loadWorkerConfig({
      LEXICON_TIMEOUT_SECONDS: '7',
      SCHEDULE_SYNC: 'off',
      WORKFLOW_BUNDLE_PATH: '/b.js',
      LLM_BASE_URL: 'http://llm.local/v1',
    });
    expect(set).toMatchObject({
      lexiconTimeoutMs: 7000,
      scheduleSync: false,
      workflowBundlePath: '/b.js',
      llmBaseUrl: 'http://llm.local/v1',
    });
    expect(() => loadWorkerConfig({ LEXICON_TIMEOUT_SECONDS: 'soon' })).toThrow(/LEXICON_TIMEOUT_SECONDS/);
    expect(() => loadWorkerConfig({ ASR_ENGINE: 'other' })).toThrow(/ASR_ENGINE/);
  });

  it('puts webhook deliveries on WEBHOOK_TASK_QUEUE, else on the main queue with -webhooks, for both', () => {
    for (const load of [loadConfig, loadWorkerConfig]) {
      const env = { DATABASE_URL: 'postgres://localhost/x', DATA_DIR: dataDir };
      expect(webhookTaskQueueOf(load(env))).toBe('workbench-webhooks');
      expect(webhookTaskQueueOf(load({ ...env, TEMPORAL_TASK_QUEUE: 'q' }))).toBe('q-webhooks');
      expect(
        webhookTaskQueueOf(load({ ...env, TEMPORAL_TASK_QUEUE: 'q', WEBHOOK_TASK_QUEUE: 'hooks' })),
      ).toBe('hooks');
    }
    // a suite's API overrides the main queue: its deliveries follow it
    expect(webhookTaskQueueOf({ ...loadWorkerConfig({}), taskQueue: 'test-1' })).toBe('test-1-webhooks');
  });
});

describe('loadWorkerConfig: production settings of the worker (issue 27 section 4)', () => {
  it('gives a 30 s shutdown grace and no caps of its own by default, the values of the environment otherwise', () => {
    expect(loadWorkerConfig({}).shutdownGraceMs).toBe(30_000);
    expect(loadWorkerConfig({}).parserConcurrency).toEqual({
      office: undefined,
      ocr: undefined,
      asr: undefined,
    });
    const c = loadWorkerConfig({
      WORKER_SHUTDOWN_GRACE: '5',
      PARSER_OFFICE_CONCURRENCY: '1',
      PARSER_OCR_CONCURRENCY: '2',
      PARSER_ASR_CONCURRENCY: '3',
      WORKER_HEALTH_PORT: '9465',
    });
    expect([c.shutdownGraceMs, c.parserConcurrency, c.healthPort]).toEqual([
      5000,
      { office: 1, ocr: 2, asr: 3 },
      9465,
    ]);
  });

  it('refuses a cap or a grace that is not a positive integer', () => {
    expect(() => loadWorkerConfig({ PARSER_OFFICE_CONCURRENCY: '0' })).toThrow(/PARSER_OFFICE_CONCURRENCY/);
    expect(() => loadWorkerConfig({ WORKER_SHUTDOWN_GRACE: 'soon' })).toThrow(/WORKER_SHUTDOWN_GRACE/);
  });
});

describe('loadConfig: the first administrator of a prod database', () => {
  const base = { DATABASE_URL: 'postgres://x@127.0.0.1/x', JWT_SECRET: 'k'.repeat(40) };
  it('reads ADMIN_USERNAME and ADMIN_PASSWORD together, or neither', () => {
    expect(loadConfig(base).initialAdmin).toBeNull();
    expect(loadConfig({ ...base, ADMIN_USERNAME: 'ops', ADMIN_PASSWORD: 'pw-123' }).initialAdmin).toEqual({
      username: 'ops',
      password: 'pw-123',
    });
    expect(() => loadConfig({ ...base, ADMIN_USERNAME: 'ops' })).toThrow(/set together/);
  });
});
