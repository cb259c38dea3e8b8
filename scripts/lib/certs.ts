/**
 * Certificates made with `openssl` for a TLS or mTLS Temporal frontend: a CA, a server certificate for the
 * names and addresses the clients dial, and a client certificate signed by the same CA. `npm run cluster` keeps
 * them under .data/cluster/certs; the tests make theirs in a temporary folder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface CertificateSet {
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

const openssl = (args: string[], cwd: string) => {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT')
      throw new Error('openssl is not installed (Debian: apt-get install openssl)', { cause: err });
    throw new Error(`openssl ${args[0]} failed: ${e.stderr?.toString().trim() ?? String(err)}`, {
      cause: err,
    });
  }
};

/** A CA (its certificate and key, `<name>.pem` and `<name>.key`) in dir. */
export function makeCa(
  dir: string,
  name = 'ca',
  subject = '/CN=Workbench Temporal CA',
): { cert: string; key: string } {
  fs.mkdirSync(dir, { recursive: true });
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '825', '-subj', subject]
      .concat(['-keyout', `${name}.key`, '-out', `${name}.pem`])
      .concat([
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      ]),
    dir,
  );
  return { cert: path.join(dir, `${name}.pem`), key: path.join(dir, `${name}.key`) };
}

/** A leaf certificate `<name>.pem` with key `<name>.key` signed by the CA, for a server (with its names) or a client. */
export function makeLeaf(
  dir: string,
  ca: { cert: string; key: string },
  name: string,
  opts: { commonName: string; usage: 'server' | 'client'; dnsNames?: string[]; ips?: string[] },
): { cert: string; key: string } {
  const ext = path.join(dir, `${name}.ext`);
  const san = [...(opts.dnsNames ?? []).map((d) => `DNS:${d}`), ...(opts.ips ?? []).map((i) => `IP:${i}`)];
  fs.writeFileSync(
    ext,
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      `extendedKeyUsage=${opts.usage === 'server' ? 'serverAuth' : 'clientAuth'}`,
      ...(san.length ? [`subjectAltName=${san.join(',')}`] : []),
    ].join('\n') + '\n',
  );
  openssl(
    ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${opts.commonName}`].concat([
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
    ]),
    dir,
  );
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      ca.cert,
      '-CAkey',
      ca.key,
      '-CAcreateserial',
      '-days',
      '825',
    ].concat(['-sha256', '-extfile', ext, '-out', `${name}.pem`]),
    dir,
  );
  fs.rmSync(path.join(dir, `${name}.csr`), { force: true });
  fs.rmSync(ext, { force: true });
  fs.chmodSync(path.join(dir, `${name}.key`), 0o600);
  return { cert: path.join(dir, `${name}.pem`), key: path.join(dir, `${name}.key`) };
}

/** A CA, a server certificate for localhost / 127.0.0.1 (and any other names) and a client certificate. */
export function makeCertificateSet(dir: string, serverNames: string[] = []): CertificateSet {
  const ca = makeCa(dir);
  const server = makeLeaf(dir, ca, 'server', {
    commonName: 'localhost',
    usage: 'server',
    dnsNames: ['localhost', ...serverNames],
    ips: ['127.0.0.1', '::1'],
  });
  const client = makeLeaf(dir, ca, 'client', { commonName: 'workbench', usage: 'client' });
  return {
    dir,
    caCert: ca.cert,
    caKey: ca.key,
    serverCert: server.cert,
    serverKey: server.key,
    clientCert: client.cert,
    clientKey: client.key,
  };
}
