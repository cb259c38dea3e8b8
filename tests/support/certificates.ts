/**
 * Certificates for TLS peers in tests, made with the `openssl` CLI into a temporary directory: a private CA,
 * a server certificate it signs for 127.0.0.1 (the right name when a test connects to that address), and
 * one it signs for mail.example.org only (a wrong name for the same address). EC P-256 keys: quick to make.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface KeyPair {
  key: string;
  cert: string;
}

export interface TestCertificates {
  dir: string;
  /** The CA's certificate file (PEM), as SMTP_CA_FILE or NODE_EXTRA_CA_CERTS would name it. */
  caFile: string;
  /** Signed by the CA for IP 127.0.0.1 and DNS localhost. */
  rightName: KeyPair;
  /** Signed by the CA for DNS mail.example.org only. */
  wrongName: KeyPair;
  remove(): void;
}

export function makeCertificates(): TestCertificates {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'test-certs-'));
  const at = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

  // prettier-ignore
  openssl(
    'req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2',
    '-subj', '/CN=Workbench test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  );

  const issue = (name: string, subject: string, altNames: string): KeyPair => {
    fs.writeFileSync(
      at(`${name}.ext`),
      `subjectAltName=${altNames}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
    );
    openssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${subject}`);
    // prettier-ignore
    openssl(
      'x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', `${name}.pem`, '-days', '2', '-extfile', `${name}.ext`,
    );
    return {
      key: fs.readFileSync(at(`${name}.key`), 'utf8'),
      cert: fs.readFileSync(at(`${name}.pem`), 'utf8'),
    };
  };

  return {
    dir,
    caFile: at('ca.pem'),
    rightName: issue('right', '127.0.0.1', 'IP:127.0.0.1,DNS:localhost'),
    wrongName: issue('wrong', 'mail.example.org', 'DNS:mail.example.org'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
