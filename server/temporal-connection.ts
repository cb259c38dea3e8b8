/**
 * How every client of Temporal here connects (the API, the worker, the scripts): Temporal's client environment
 * configuration, read by the SDK's envconfig (`@temporalio/envconfig`), so one set of settings serves the CLI,
 * this product and Temporal Cloud: TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS,
 * TEMPORAL_TLS_CLIENT_CERT_PATH / _DATA, TEMPORAL_TLS_CLIENT_KEY_PATH / _DATA, TEMPORAL_TLS_SERVER_CA_CERT_PATH /
 * _DATA, TEMPORAL_TLS_SERVER_NAME, TEMPORAL_GRPC_META_*, and the TOML file of TEMPORAL_CONFIG_FILE (default
 * `~/.config/temporalio/temporal.toml`) with its profiles (TEMPORAL_PROFILE, default `default`); a variable
 * overrides its profile's value. Without an address the target is `localhost:7233` (the dev server `npm start`
 * runs), without a namespace `default`. An API key turns TLS on unless TLS is disabled (the SDK's rule).
 *
 * Every certificate and key is read and checked here, before any connection: a missing or unreadable file,
 * text that is not PEM, a certificate out of its validity period, a key that is not the certificate's key, a
 * certificate without its key (or the reverse), a profile that is not in the file: each throws a
 * TemporalSettingError naming the setting, which the entry points print as one line before exiting with
 * EXIT_CONFIG (scripts/start.ts does not restart a process that exits so). A TLS failure on the first connection
 * (wrong CA, wrong server name, a client certificate the server refuses) is diagnosed by `probeTemporalTls`.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import tls from 'node:tls';
import { loadClientConfigProfile, toClientOptions, type ClientConfigProfile } from '@temporalio/envconfig';
import type { TLSConfig } from '@temporalio/common/lib/internal-non-workflow';
import { codeOf, pemCertificates, SettingError } from './setting-error';

export const DEFAULT_TEMPORAL_ADDRESS = 'localhost:7233';
export const DEFAULT_TEMPORAL_NAMESPACE = 'default';

/** A Temporal setting that cannot work, with the name an operator sets it by. */
export class TemporalSettingError extends SettingError {
  constructor(setting: string, problem: string) {
    super(setting, `Temporal connection: ${setting}: ${problem}`);
    this.name = 'TemporalSettingError';
  }
}

/** What the SDK's Connection and NativeConnection take (besides the address), as envconfig maps a profile. */
export interface TemporalConnectOptions {
  address: string;
  tls?: TLSConfig | boolean;
  apiKey?: string;
  metadata?: Record<string, string>;
}

export interface TemporalConnectionSettings {
  address: string;
  /** False when neither TEMPORAL_ADDRESS nor the profile names one (the default: `npm start` runs a dev server). */
  addressConfigured: boolean;
  namespace: string;
  /** The TOML profile read, and its file; null when no file was read. */
  profile: string | null;
  configFile: string | null;
  /** TLS on the connection. */
  tls: boolean;
  /** A client certificate is presented (mutual TLS). */
  mtls: boolean;
  /** How the client proves who it is: `none`, `mtls`, `api-key` or `mtls+api-key`. */
  authentication: 'none' | 'mtls' | 'api-key' | 'mtls+api-key';
  /** TEMPORAL_TLS_SERVER_NAME: the name the server's certificate is checked against instead of the host. */
  serverName: string | null;
  /** Where the CA that verifies the server comes from: a setting's file or variable, or the system's roots. */
  serverCa: string | null;
  /** The SDK's connection options (certificates, private key, API key: masked by server/masking.ts). */
  options: TemporalConnectOptions;
  /** The settings (variables, or keys of the profile) that gave the CA, the client certificate and key. */
  settingNames: { serverCa: string; clientCert: string; clientKey: string; serverName: string };
}

/** The part of the settings that management shows: never the key, the certificates or the API key. */
export function temporalTarget(s: TemporalConnectionSettings) {
  return {
    address: s.address,
    namespace: s.namespace,
    profile: s.profile,
    configFile: s.configFile,
    tls: s.tls,
    mtls: s.mtls,
    authentication: s.authentication,
    serverName: s.serverName,
    serverCa: s.serverCa,
  };
}

type Env = Record<string, string | undefined>;

/** The TOML file envconfig reads: TEMPORAL_CONFIG_FILE, else the user's `temporalio/temporal.toml` if present. */
function configFileOf(env: Env): { file: string | null; explicit: boolean } {
  if (env.TEMPORAL_CONFIG_FILE) return { file: env.TEMPORAL_CONFIG_FILE, explicit: true };
  const base = env.XDG_CONFIG_HOME || (env.HOME ? path.join(env.HOME, '.config') : null);
  const file = base ? path.join(base, 'temporalio', 'temporal.toml') : null;
  return { file: file && fs.existsSync(file) ? file : null, explicit: false };
}

type Pem = 'client_cert' | 'client_key' | 'server_ca_cert';

/** The setting that gave a certificate or key: its variable, else the profile's key in the file. */
function settingOf(what: Pem, kind: 'path' | 'data', env: Env, profile: string, file: string | null): string {
  const variable = `TEMPORAL_TLS_${what.toUpperCase()}_${kind.toUpperCase()}`;
  if (env[variable] !== undefined) return variable;
  return `${what}_${kind} of profile "${profile}"${file ? ` in ${file}` : ''}`;
}

function loadProfile(env: Env): { profile: ClientConfigProfile; name: string; file: string | null } {
  const { file, explicit } = configFileOf(env);
  const name = env.TEMPORAL_PROFILE || 'default';
  if (explicit && file) {
    try {
      fs.accessSync(file, fs.constants.R_OK);
    } catch (err) {
      throw new TemporalSettingError('TEMPORAL_CONFIG_FILE', `cannot read ${file} (${codeOf(err)})`);
    }
  }
  try {
    const profile = loadClientConfigProfile({
      overrideEnvVars: env as Record<string, string>,
      // No file at all: envconfig reads the variables alone.
      ...(file ? { configSource: { path: file } } : { disableFile: !env.TEMPORAL_PROFILE }),
    });
    return { profile, name, file };
  } catch (err) {
    const message = (err as Error).message;
    if (/Profile '.*' not found/.test(message))
      throw new TemporalSettingError(
        'TEMPORAL_PROFILE',
        `profile "${name}" is not in ${file ?? 'any configuration file (set TEMPORAL_CONFIG_FILE)'}`,
      );
    const both = /Cannot specify both (\w+)_path and \w+_data/.exec(message);
    if (both) {
      const upper = both[1].toUpperCase();
      throw new TemporalSettingError(
        `TEMPORAL_TLS_${upper}_PATH / TEMPORAL_TLS_${upper}_DATA`,
        `both a file and data are given (${both[1]}_path and ${both[1]}_data); set one`,
      );
    }
    throw new TemporalSettingError(
      env.TEMPORAL_CONFIG_FILE ? 'TEMPORAL_CONFIG_FILE' : `configuration file ${file}`,
      `${file} is not a valid client configuration file: ${message.split('\n')[0]}`,
    );
  }
}

/** The bytes of a certificate or key setting, read now (a missing file is the setting's error, not a stack). */
function readSource(
  source: { path: string } | { data: string | Uint8Array } | undefined,
  setting: (kind: 'path' | 'data') => string,
): { bytes: Buffer; setting: string } | null {
  if (!source) return null;
  if ('path' in source) {
    try {
      return { bytes: fs.readFileSync(source.path), setting: setting('path') };
    } catch (err) {
      throw new TemporalSettingError(setting('path'), `cannot read ${source.path} (${codeOf(err)})`);
    }
  }
  return { bytes: Buffer.from(source.data), setting: setting('data') };
}

/** The certificates of a PEM text, each checked for its validity period. */
const certificates = (pem: { bytes: Buffer; setting: string }, now: Date) =>
  pemCertificates(pem, now, (setting, problem) => new TemporalSettingError(setting, problem));

/**
 * The connection settings of this environment, every certificate and key checked; throws a
 * TemporalSettingError naming the setting that cannot work.
 */
export function loadTemporalConnection(env: Env = process.env, now = new Date()): TemporalConnectionSettings {
  const { profile, name, file } = loadProfile(env);
  const address = profile.address || DEFAULT_TEMPORAL_ADDRESS;
  const namespace = profile.namespace || DEFAULT_TEMPORAL_NAMESPACE;
  const settingFor = (what: Pem) => (kind: 'path' | 'data') => settingOf(what, kind, env, name, file);

  const t = profile.tls;
  const tlsOn = t ? t.disabled !== true : profile.apiKey !== undefined;
  let clientCert: { bytes: Buffer; setting: string } | null = null;
  let clientKey: { bytes: Buffer; setting: string } | null = null;
  let serverCa: { bytes: Buffer; setting: string } | null = null;
  if (t && tlsOn) {
    clientCert = readSource(t.clientCert, settingFor('client_cert'));
    clientKey = readSource(t.clientKey, settingFor('client_key'));
    serverCa = readSource(t.serverCACert, settingFor('server_ca_cert'));
    if (serverCa) certificates(serverCa, now);
    if (clientCert && !clientKey)
      throw new TemporalSettingError(
        'TEMPORAL_TLS_CLIENT_KEY_PATH',
        `${clientCert.setting} is set without the client's private key (TEMPORAL_TLS_CLIENT_KEY_PATH or _DATA)`,
      );
    if (clientKey && !clientCert)
      throw new TemporalSettingError(
        'TEMPORAL_TLS_CLIENT_CERT_PATH',
        `${clientKey.setting} is set without the client's certificate (TEMPORAL_TLS_CLIENT_CERT_PATH or _DATA)`,
      );
    if (clientCert && clientKey) {
      const [leaf] = certificates(clientCert, now);
      let key: crypto.KeyObject;
      try {
        key = crypto.createPrivateKey(clientKey.bytes);
      } catch (err) {
        throw new TemporalSettingError(
          clientKey.setting,
          `not a valid unencrypted PEM private key (${(err as Error).message})`,
        );
      }
      if (!leaf.checkPrivateKey(key))
        throw new TemporalSettingError(
          clientKey.setting,
          `this key is not the key of the certificate of ${clientCert.setting}`,
        );
    }
  }

  // The SDK's own mapping of a profile (TLS on with an API key), over the bytes checked above.
  const { connectionOptions } = toClientOptions({
    ...profile,
    tls:
      t && tlsOn
        ? {
            ...t,
            clientCert: clientCert ? { data: clientCert.bytes } : undefined,
            clientKey: clientKey ? { data: clientKey.bytes } : undefined,
            serverCACert: serverCa ? { data: serverCa.bytes } : undefined,
          }
        : t,
  });
  const mtls = tlsOn && !!clientCert;
  const apiKey = !!profile.apiKey;
  return {
    address,
    addressConfigured: !!profile.address,
    namespace,
    profile: file ? name : null,
    configFile: file,
    tls: tlsOn,
    mtls,
    authentication: mtls && apiKey ? 'mtls+api-key' : mtls ? 'mtls' : apiKey ? 'api-key' : 'none',
    serverName: (tlsOn && t?.serverName) || null,
    serverCa: tlsOn ? (serverCa ? describeSource(t!.serverCACert!, serverCa.setting) : 'system roots') : null,
    settingNames: {
      serverCa:
        serverCa?.setting ??
        'TEMPORAL_TLS_SERVER_CA_CERT_PATH (the system roots verify the server without it)',
      clientCert: clientCert?.setting ?? 'TEMPORAL_TLS_CLIENT_CERT_PATH',
      clientKey: clientKey?.setting ?? 'TEMPORAL_TLS_CLIENT_KEY_PATH',
      serverName:
        env.TEMPORAL_TLS_SERVER_NAME !== undefined || !t?.serverName
          ? 'TEMPORAL_TLS_SERVER_NAME'
          : `server_name of profile "${name}" in ${file}`,
    },
    options: {
      address,
      ...(connectionOptions.tls != null ? { tls: connectionOptions.tls } : {}),
      ...(profile.apiKey ? { apiKey: profile.apiKey } : {}),
      ...(profile.grpcMeta && Object.keys(profile.grpcMeta).length ? { metadata: profile.grpcMeta } : {}),
    },
  };
}

const describeSource = (source: { path: string } | { data: unknown }, setting: string) =>
  'path' in source ? source.path : setting;

/** The options for the SDK's Connection.connect and NativeConnection.connect, for an address (default the settings'). */
export function connectOptions(s: TemporalConnectionSettings, address = s.address): TemporalConnectOptions {
  return { ...s.options, address };
}

/**
 * The setting a failed handshake points at, from the TLS error's code: the CA (the server's certificate does
 * not chain to it, or has expired), the server name (the certificate is for another name), the client
 * certificate (the server refused or wanted it), TEMPORAL_TLS itself (the server does not speak TLS).
 */
function settingOfTlsFailure(s: TemporalConnectionSettings, code: string): string {
  const n = s.settingNames;
  if (/CERT_HAS_EXPIRED|CERT_NOT_YET_VALID/.test(code)) return `${n.serverCa} (the server's certificate)`;
  if (/SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|CERT_SIGNATURE_FAILURE|CERT_UNTRUSTED/.test(code))
    return n.serverCa;
  if (/ALTNAME|HOSTNAME|HOST_MISMATCH/.test(code)) return n.serverName;
  if (
    /ALERT_(CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|ACCESS_DENIED|CERTIFICATE_EXPIRED|HANDSHAKE_FAILURE)|AFTER_HANDSHAKE/.test(
      code,
    )
  )
    return s.mtls
      ? `${n.clientCert} / ${n.clientKey}`
      : `${n.clientCert} (the server wants a client certificate)`;
  if (/WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG|UNKNOWN_PROTOCOL|RECORD_LAYER/.test(code))
    return 'TEMPORAL_TLS (the server at this address does not serve TLS)';
  return `TLS settings (${n.serverCa}, ${n.serverName}${s.mtls ? `, ${n.clientCert}, ${n.clientKey}` : ''})`;
}

/**
 * One TLS handshake with the settings' CA, server name and client certificate (ALPN h2, as gRPC), to tell a
 * TLS misconfiguration (throws a TemporalSettingError naming the TLS settings) from a server that is merely
 * down or slow (returns false: the caller's retries deal with it). True when the handshake succeeded and the
 * server kept the connection (a server refusing the client certificate closes it right after a TLS 1.3
 * handshake: the probe waits for its first answer to an HTTP/2 preface). Without TLS, true at once.
 */
export async function probeTemporalTls(
  s: TemporalConnectionSettings,
  address = s.address,
  timeoutMs = 5000,
): Promise<boolean> {
  const t = s.options.tls;
  if (!s.tls || !t) return true;
  const cfg: TLSConfig = t === true ? {} : t;
  const { host, port } = hostPort(address);
  const name = cfg.serverNameOverride ?? host;
  return new Promise<boolean>((resolve, reject) => {
    let handshook = false;
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const socket = tls.connect({
      host,
      port,
      servername: net.isIP(name) ? undefined : name,
      ca: cfg.serverRootCACertificate ? [Buffer.from(cfg.serverRootCACertificate)] : undefined,
      cert: cfg.clientCertPair ? Buffer.from(cfg.clientCertPair.crt) : undefined,
      key: cfg.clientCertPair ? Buffer.from(cfg.clientCertPair.key) : undefined,
      ALPNProtocols: ['h2'],
      // The name is checked as the SDK checks it: against TEMPORAL_TLS_SERVER_NAME when set, else the host.
      checkServerIdentity: (_host, cert) => tls.checkServerIdentity(name, cert),
    });
    const timer = setTimeout(() => finish(() => resolve(false)), timeoutMs);
    const refuse = (code: string, problem: string) =>
      finish(() =>
        reject(
          new TemporalSettingError(
            settingOfTlsFailure(s, code),
            `TLS with ${address} failed: ${problem}${code ? ` (${code})` : ''}`,
          ),
        ),
      );
    socket.once('secureConnect', () => {
      handshook = true;
      // The HTTP/2 client preface and an empty SETTINGS frame; a server that keeps the client answers with its own.
      socket.write(Buffer.concat([Buffer.from(H2_PREFACE), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])]));
    });
    socket.once('data', () => finish(() => resolve(true)));
    socket.once('error', (err: NodeJS.ErrnoException & { reason?: string }) => {
      // Nobody there (yet): not a TLS question.
      if (!handshook && NETWORK_ERRORS.has(err.code ?? '')) return finish(() => resolve(false));
      refuse(err.code ?? '', err.reason ?? err.message.split('\n')[0]);
    });
    socket.once('end', () =>
      handshook
        ? refuse('AFTER_HANDSHAKE', 'the server closed the connection after the handshake')
        : refuse('', 'the server closed the connection during the handshake'),
    );
  });
}

const H2_PREFACE = 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n';
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
]);

function hostPort(address: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(address.trim());
  if (!m) return { host: address, port: 7233 };
  return { host: m[1], port: m[2] ? Number(m[2]) : 7233 };
}
