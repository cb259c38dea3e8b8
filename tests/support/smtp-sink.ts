/**
 * A real SMTP peer for the suites (smtp-server on a free loopback port) that parses every mail it accepts
 * into an inbox, and waits for the mails the API sent (account-registration, api-keys suites).
 */
import { SMTPServer } from 'smtp-server';
import { freePort } from '../../scripts/lib/ports';

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

// --- a little MIME: enough for the single-part text mails the API sends ---

function bytesToUtf8(s: string, decode: (s: string) => number[]): string {
  return Buffer.from(decode(s)).toString('utf8');
}

function quotedPrintable(s: string, underscoreIsSpace = false): number[] {
  const out: number[] = [];
  const src = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < src.length; i++) {
    const hex = src.slice(i + 1, i + 3);
    if (src[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else if (underscoreIsSpace && src[i] === '_') {
      out.push(0x20);
    } else {
      out.push(...Buffer.from(src[i], 'utf8'));
    }
  }
  return out;
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=); whitespace between two of them is dropped. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?[^?]+\?([QqBb])\?([^?]*)\?=/g, (_, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : bytesToUtf8(data, (d) => quotedPrintable(d, true)),
    );
}

function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headerLines = raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n');
  const header = (name: string) =>
    headerLines
      .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
      ?.slice(name.length + 1)
      .trim() ?? '';
  const body = raw.slice(split + 4);
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? bytesToUtf8(body, (b) => quotedPrintable(b))
        : body;
  return { to, subject: decodeWords(header('Subject')), text: text.replace(/\r\n/g, '\n') };
}

/** An SMTP peer on a loopback port that parses every mail it accepts into the inbox. */
async function startSmtp(port: number, inbox: ReceivedMail[]): Promise<SMTPServer> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const rcpt = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        inbox.push(parseMail(Buffer.concat(chunks).toString('utf8'), rcpt));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return smtp;
}

export interface SmtpSink {
  port: number;
  inbox: ReceivedMail[];
  /**
   * The latest mail to this address (the API answers after the SMTP peer accepted it; the test server may
   * parse it a moment later, longer on a busy machine: waited for, up to 30 s).
   */
  mailTo(address: string): Promise<ReceivedMail>;
  /** The mails to this address received so far. */
  mailsTo(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  const inbox: ReceivedMail[] = [];
  const smtp = await startSmtp(port, inbox);
  const mailsTo = (address: string) => inbox.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    port,
    inbox,
    mailsTo,
    async mailTo(address) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const found = mailsTo(address).at(-1);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise<void>((resolve) => smtp.close(resolve)),
  };
}

/** The key at the end of a link `baseUrl + path + /KEY` in a mail. */
export function linkKey(mail: ReceivedMail, baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const match = new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${path}/([A-Za-z0-9]+)`).exec(
    mail.text,
  );
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[1];
}
