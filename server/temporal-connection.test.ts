import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeCa, makeCertificateSet, makeLeaf, type CertificateSet } from '../scripts/lib/certs';
import { maskObject } from './masking';
import { loadTemporalConnection, temporalTarget, TemporalSettingError } from './temporal-connection';

describe('Temporal connection settings (envconfig variables and TOML profiles -> SDK options)', () => {
  let dir: string;
  let certs: CertificateSet;
  let other: { cert: string; key: string };
  // A home of its own: the user's ~/.config/temporalio/temporal.toml must not leak into the cases.
  let home: string;
  const env = (vars: Record<string, string> = {}) => ({ HOME: home, ...vars });

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-connection-'));
    home = path.join(dir, 'home');
    fs.mkdirSync(home);
    certs = makeCertificateSet(path.join(dir, 'certs'));
    const otherCa = makeCa(path.join(dir, 'other'), 'ca', '/CN=Other CA');
    other = makeLeaf(path.join(dir, 'other'), otherCa, 'client', { commonName: 'other', usage: 'client' });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const mtlsVars = () => ({
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.caCert,
    TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: certs.clientKey,
  });

  /** The one-line message of the setting error a loading throws. */
  const errorOf = (vars: Record<string, string>, now?: Date): TemporalSettingError => {
    try {
      loadTemporalConnection(env(vars), now);
    } catch (err) {
      expect(err).toBeInstanceOf(TemporalSettingError);
      expect((err as Error).message).not.toContain('\n');
      return err as TemporalSettingError;
    }
    throw new Error('no error');
  };

  it('keeps the defaults without any setting: the dev server on localhost:7233, namespace default, plain', () => {
    const s = loadTemporalConnection(env());
    expect(temporalTarget(s)).toEqual({
      address: 'localhost:7233',
      namespace: 'default',
      profile: null,
      configFile: null,
      tls: false,
      mtls: false,
      authentication: 'none',
      serverName: null,
      serverCa: null,
    });
    expect(s.options).toEqual({ address: 'localhost:7233' });
  });

  it('maps the mTLS variables to the certificates and key the SDK connects with', () => {
    const s = loadTemporalConnection(
      env({
        TEMPORAL_ADDRESS: 'temporal.internal:7233',
        TEMPORAL_NAMESPACE: 'docs',
        TEMPORAL_TLS_SERVER_NAME: 'frontend.temporal',
        ...mtlsVars(),
      }),
    );
    expect(temporalTarget(s)).toMatchObject({
      address: 'temporal.internal:7233',
      namespace: 'docs',
      tls: true,
      mtls: true,
      authentication: 'mtls',
      serverName: 'frontend.temporal',
      serverCa: certs.caCert,
    });
    expect(s.options).toEqual({
      address: 'temporal.internal:7233',
      tls: {
        serverNameOverride: 'frontend.temporal',
        serverRootCACertificate: fs.readFileSync(certs.caCert),
        clientCertPair: { crt: fs.readFileSync(certs.clientCert), key: fs.readFileSync(certs.clientKey) },
      },
    });
  });

  it('takes certificates as data too, and turns TLS on for an API key (system roots)', () => {
    const s = loadTemporalConnection(
      env({
        TEMPORAL_TLS_CLIENT_CERT_DATA: fs.readFileSync(certs.clientCert, 'utf8'),
        TEMPORAL_TLS_CLIENT_KEY_DATA: fs.readFileSync(certs.clientKey, 'utf8'),
      }),
    );
    expect(s.mtls).toBe(true);
    expect(s.serverCa).toBe('system roots');
    const keyOnly = loadTemporalConnection(
      env({ TEMPORAL_ADDRESS: 'ns.tmprl.cloud:7233', TEMPORAL_API_KEY: 'k-1' }),
    );
    expect(temporalTarget(keyOnly)).toMatchObject({ tls: true, mtls: false, authentication: 'api-key' });
    expect(keyOnly.options).toEqual({ address: 'ns.tmprl.cloud:7233', tls: true, apiKey: 'k-1' });
    // TEMPORAL_TLS=false wins over the API key's default.
    expect(loadTemporalConnection(env({ TEMPORAL_API_KEY: 'k', TEMPORAL_TLS: 'false' })).options.tls).toBe(
      false,
    );
  });

  it('reads the profile of TEMPORAL_PROFILE from TEMPORAL_CONFIG_FILE, a variable overriding its value', () => {
    const file = path.join(dir, 'temporal.toml');
    fs.writeFileSync(
      file,
      [
        '[profile.default]',
        'address = "localhost:7233"',
        '',
        '[profile.prod]',
        'address = "temporal.prod:7233"',
        'namespace = "prod-ns"',
        '[profile.prod.tls]',
        `server_ca_cert_path = "${certs.caCert}"`,
        `client_cert_path = "${certs.clientCert}"`,
        `client_key_path = "${certs.clientKey}"`,
        'server_name = "frontend.prod"',
        '[profile.prod.grpc_meta]',
        'x-team = "docs"',
      ].join('\n'),
    );
    const s = loadTemporalConnection(
      env({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod', TEMPORAL_NAMESPACE: 'override-ns' }),
    );
    expect(temporalTarget(s)).toEqual({
      address: 'temporal.prod:7233',
      namespace: 'override-ns',
      profile: 'prod',
      configFile: file,
      tls: true,
      mtls: true,
      authentication: 'mtls',
      serverName: 'frontend.prod',
      serverCa: certs.caCert,
    });
    expect(s.options.metadata).toEqual({ 'x-team': 'docs' });
    expect(s.options.tls).toMatchObject({ serverNameOverride: 'frontend.prod' });
    // The default profile of the same file.
    expect(loadTemporalConnection(env({ TEMPORAL_CONFIG_FILE: file })).options).toEqual({
      address: 'localhost:7233',
    });
    // The user's file where the CLI keeps it, without TEMPORAL_CONFIG_FILE.
    fs.mkdirSync(path.join(home, '.config', 'temporalio'), { recursive: true });
    fs.copyFileSync(file, path.join(home, '.config', 'temporalio', 'temporal.toml'));
    try {
      expect(loadTemporalConnection(env({ TEMPORAL_PROFILE: 'prod' })).address).toBe('temporal.prod:7233');
    } finally {
      fs.rmSync(path.join(home, '.config'), { recursive: true });
    }
    // A path in the profile that is not there names the profile's key and file.
    fs.writeFileSync(
      file,
      `[profile.prod.tls]\nclient_cert_path = "/nope/c.pem"\nclient_key_path = "${certs.clientKey}"\n`,
    );
    expect(errorOf({ TEMPORAL_CONFIG_FILE: file, TEMPORAL_PROFILE: 'prod' }).message).toBe(
      `Temporal connection: client_cert_path of profile "prod" in ${file}: cannot read /nope/c.pem (ENOENT)`,
    );
  });

  it('names the setting that cannot work, in one line', () => {
    expect(errorOf({ ...mtlsVars(), TEMPORAL_TLS_CLIENT_CERT_PATH: '/missing/client.pem' }).message).toBe(
      'Temporal connection: TEMPORAL_TLS_CLIENT_CERT_PATH: cannot read /missing/client.pem (ENOENT)',
    );
    const notPem = path.join(dir, 'not.pem');
    fs.writeFileSync(notPem, 'hello');
    expect(errorOf({ ...mtlsVars(), TEMPORAL_TLS_SERVER_CA_CERT_PATH: notPem }).setting).toBe(
      'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
    );
    const broken = path.join(dir, 'broken.pem');
    fs.writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    expect(errorOf({ ...mtlsVars(), TEMPORAL_TLS_CLIENT_CERT_PATH: broken }).message).toMatch(
      /^Temporal connection: TEMPORAL_TLS_CLIENT_CERT_PATH: not a valid PEM certificate/,
    );
    expect(
      errorOf({ ...mtlsVars(), TEMPORAL_TLS_CLIENT_KEY_DATA: 'junk', TEMPORAL_TLS_CLIENT_KEY_PATH: '' })
        .setting,
    ).toMatch(/TEMPORAL_TLS_CLIENT_KEY/);
    expect(errorOf({ ...mtlsVars(), TEMPORAL_TLS_CLIENT_KEY_PATH: other.key }).message).toBe(
      'Temporal connection: TEMPORAL_TLS_CLIENT_KEY_PATH: this key is not the key of the certificate of TEMPORAL_TLS_CLIENT_CERT_PATH',
    );
    const inThreeYears = new Date(Date.now() + 3 * 365 * 86400_000);
    expect(errorOf(mtlsVars(), inThreeYears).message).toMatch(
      /^Temporal connection: TEMPORAL_TLS_SERVER_CA_CERT_PATH: the certificate CN=Workbench Temporal CA expired on /,
    );
    expect(errorOf({ TEMPORAL_TLS_CLIENT_CERT_PATH: certs.clientCert }).setting).toBe(
      'TEMPORAL_TLS_CLIENT_KEY_PATH',
    );
    expect(errorOf({ TEMPORAL_CONFIG_FILE: path.join(dir, 'absent.toml') }).message).toBe(
      `Temporal connection: TEMPORAL_CONFIG_FILE: cannot read ${path.join(dir, 'absent.toml')} (ENOENT)`,
    );
    expect(errorOf({ TEMPORAL_PROFILE: 'staging' }).setting).toBe('TEMPORAL_PROFILE');
    const badToml = path.join(dir, 'bad.toml');
    fs.writeFileSync(badToml, '[profile.x\naddress=');
    expect(errorOf({ TEMPORAL_CONFIG_FILE: badToml }).setting).toBe('TEMPORAL_CONFIG_FILE');
  });

  it('shows no certificate, key or API key once masked for management', () => {
    const s = loadTemporalConnection(env({ ...mtlsVars(), TEMPORAL_API_KEY: 'secret-api-key-1' }));
    const shown = JSON.stringify(maskObject({ temporal: s }));
    expect(shown).not.toContain('secret-api-key-1');
    expect(shown).not.toContain('BEGIN');
    expect(shown).not.toMatch(/"\d+":\d+/); // no byte of a buffer
    expect(JSON.parse(shown).temporal).toMatchObject({
      tls: true,
      mtls: true,
      authentication: 'mtls+api-key',
    });
    expect(JSON.stringify(temporalTarget(s))).not.toContain('secret-api-key-1');
  });
});
