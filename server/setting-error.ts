/**
 * A setting that cannot work (a Temporal TLS file, DATABASE_URL's sslrootcert, ...): the entry points print it
 * as one line naming the setting and exit with EXIT_CONFIG, which scripts/start.ts does not restart.
 */
import crypto from 'node:crypto';

/** The exit code of a process stopped by a bad setting (sysexits EX_CONFIG): a supervisor does not restart it. */
export const EXIT_CONFIG = 78;

/** A setting that cannot work, with the name an operator sets it by. */
export class SettingError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettingError';
  }
}

/**
 * At a process's start: a SettingError becomes one log line naming the setting and the exit code a supervisor
 * does not restart (scripts/start.ts); anything else returns to the caller.
 */
export function exitOnSettingError(
  err: unknown,
  log: { error(message: string, fields?: Record<string, unknown>): void },
): void {
  if (!(err instanceof SettingError)) return;
  log.error(err.message, { setting: err.setting });
  process.exit(EXIT_CONFIG);
}

/** The errno code of a failed file read, else its message. */
export const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? (err as Error).message;

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM text, each checked for its validity period; `fail` makes the error naming the setting. */
export function pemCertificates(
  pem: { bytes: Buffer; setting: string },
  now: Date,
  fail: (setting: string, problem: string) => SettingError,
): crypto.X509Certificate[] {
  const blocks = pem.bytes.toString('utf8').match(PEM_CERT) ?? [];
  if (!blocks.length) throw fail(pem.setting, 'no PEM certificate in it');
  return blocks.map((block) => {
    let cert: crypto.X509Certificate;
    try {
      cert = new crypto.X509Certificate(block);
    } catch (err) {
      throw fail(pem.setting, `not a valid PEM certificate (${(err as Error).message})`);
    }
    const subject = cert.subject.replace(/\n/g, ', ');
    if (new Date(cert.validTo) < now)
      throw fail(pem.setting, `the certificate ${subject} expired on ${cert.validTo}`);
    if (new Date(cert.validFrom) > now)
      throw fail(pem.setting, `the certificate ${subject} is not valid before ${cert.validFrom}`);
    return cert;
  });
}
