/**
 * The API's outgoing mail (password resets, activations) verifies the SMTP server's certificate (issue 25
 * finding 4): real smtp-server peers on loopback with certificates made by openssl. A server whose
 * certificate names another host, or chains to a CA the API was not given, gets no mail and the mail
 * component of `management/health` is DOWN; with its CA in SMTP_CA_FILE and the right name it gets the mail.
 */
import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import nodemailer from 'nodemailer';
import { isPermanentSmtpFailure, smtpTls } from '../../activities/actions/send-mail';
import { loadConfig } from '../../server/config';
import { buildUser, call, setupSuite, startTestApi, type TestApi } from '../support/harness';
import { makeCertificates, type KeyPair, type TestCertificates } from '../support/certificates';

interface Peer {
  server: SMTPServer;
  port: number;
  /** Envelope senders the peer was given: only a client that trusted the TLS session gets that far. */
  mailFrom: string[];
  /** Recipients of the mails it accepted. */
  delivered: string[];
}

async function startPeer(pair: KeyPair, secure: boolean): Promise<Peer> {
  const peer: Omit<Peer, 'server' | 'port'> = { mailFrom: [], delivered: [] };
  const server = new SMTPServer({
    secure,
    key: pair.key,
    cert: pair.cert,
    authOptional: true,
    logger: false,
    onMailFrom(address, _session, cb) {
      peer.mailFrom.push(address.address);
      cb();
    },
    onData(stream, session, cb) {
      stream.resume();
      stream.on('end', () => {
        peer.delivered.push(...session.envelope.rcptTo.map((r) => r.address));
        cb();
      });
    },
  });
  // A client that refuses the handshake is an error of the server's connection, not of the test.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { ...peer, server, port: (server.server.address() as AddressInfo).port };
}

describe('outgoing mail of the API over TLS', () => {
  const suite = setupSuite();
  let certs: TestCertificates;
  /** TLS from the start (SMTP_SECURE=true): right name, wrong name. */
  let right: Peer;
  let wrong: Peer;
  /** Plain SMTP offering STARTTLS with the wrong-name certificate. */
  let starttls: Peer;

  beforeAll(async () => {
    certs = makeCertificates();
    right = await startPeer(certs.rightName, true);
    wrong = await startPeer(certs.wrongName, true);
    starttls = await startPeer(certs.wrongName, false);
  });
  afterAll(async () => {
    for (const p of [right, wrong, starttls])
      if (p) await new Promise<void>((resolve) => p.server.close(() => resolve()));
    certs?.remove();
  });

  /** An API whose mail settings come from these variables, as a deployment's would. */
  async function withMailApi(env: Record<string, string>, test: (api: TestApi) => Promise<void>) {
    const { smtp } = loadConfig({ ...process.env, PORT: '0', SMTP_HOST: '127.0.0.1', ...env });
    const api = await startTestApi({ smtp });
    try {
      await test(api);
    } finally {
      await api.close();
    }
  }

  const mailHealth = async (api: TestApi) =>
    (await call(api.baseUrl, '/management/health', { token: suite.admin })).body.components.mail;

  /** Asks for a password reset of a new user; its answer and the user's address. */
  async function requestReset(api: TestApi) {
    const user = await buildUser(suite.knex);
    const res = await call(api.baseUrl, '/api/account/reset-password/init', {
      method: 'POST',
      text: user.email,
    });
    return { status: res.status, email: user.email };
  }

  it('refuses a server whose certificate names another host, though its CA is trusted', async () => {
    await withMailApi(
      { SMTP_PORT: String(wrong.port), SMTP_SECURE: 'true', SMTP_CA_FILE: certs.caFile },
      async (api) => {
        const health = await mailHealth(api);
        expect(health.status).toBe('DOWN');
        expect(health.details.error).toMatch(/altnames|does not match/i);
        const reset = await requestReset(api);
        expect(reset.status).toBe(500);
        // The handshake failed before the first command: no sender, no recipient, no reset key.
        expect(wrong.mailFrom).toEqual([]);
        expect(wrong.delivered).toEqual([]);
      },
    );
  });

  it('refuses a server whose certificate chains to a CA it was not given', async () => {
    await withMailApi({ SMTP_PORT: String(right.port), SMTP_SECURE: 'true' }, async (api) => {
      const health = await mailHealth(api);
      expect(health.status).toBe('DOWN');
      expect(health.details.error).toMatch(/certificate/i);
      const reset = await requestReset(api);
      expect(reset.status).toBe(500);
      expect(right.mailFrom).toEqual([]);
      expect(right.delivered).toEqual([]);
    });
  });

  it('refuses a STARTTLS upgrade to a certificate for another host (SMTP_SECURE=false)', async () => {
    await withMailApi(
      { SMTP_PORT: String(starttls.port), SMTP_SECURE: 'false', SMTP_CA_FILE: certs.caFile },
      async (api) => {
        expect((await mailHealth(api)).status).toBe('DOWN');
        expect((await requestReset(api)).status).toBe(500);
        expect(starttls.mailFrom).toEqual([]);
        expect(starttls.delivered).toEqual([]);
      },
    );
  });

  it("ends a SEND_MAIL step at once when the server's certificate is refused; a refused connection is retried", async () => {
    /** What a mail node's transport (activities/actions/send-mail.ts) gets from a server, thrown or null. */
    const failureOf = async (port: number, secure: boolean) => {
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port,
        // the node's TLS rules for a server named localhost on 465 (TLS at once) or 587 (STARTTLS required)
        ...smtpTls('localhost', secure ? 465 : 587, false),
        auth: { user: 'u', pass: 'p' },
        connectionTimeout: 5000,
      });
      try {
        await transport.sendMail({ from: 'a@example.com', to: 'b@example.com', text: 'x' });
        return null;
      } finally {
        transport.close();
      }
    };
    // self-signed by a CA the node does not trust; for another name; STARTTLS to another name
    for (const [port, secure] of [
      [right.port, true],
      [wrong.port, true],
      [starttls.port, false],
    ] as const) {
      const err = await failureOf(port, secure).catch((e: unknown) => e);
      expect(err).toHaveProperty('message');
      const e = err as { code?: string; message: string; cause?: { code?: string } };
      expect({
        port,
        code: e.code,
        cause: e.cause?.code,
        message: e.message,
        permanent: isPermanentSmtpFailure(err),
      }).toMatchObject({ port, permanent: true });
    }
    expect(right.mailFrom).toEqual([]);
    // nothing listening: the server may come back, so the step is retried
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const refused = await failureOf(closed, true).catch((e: unknown) => e);
    expect(refused).toHaveProperty('message');
    expect(isPermanentSmtpFailure(refused)).toBe(false);
  });

  it('sends to the server with its CA from SMTP_CA_FILE and the right name', async () => {
    await withMailApi(
      { SMTP_PORT: String(right.port), SMTP_SECURE: 'true', SMTP_CA_FILE: certs.caFile },
      async (api) => {
        expect(await mailHealth(api)).toEqual({
          status: 'UP',
          details: { host: '127.0.0.1', port: right.port },
        });
        const reset = await requestReset(api);
        expect(reset.status).toBe(200);
        // The API answers once the peer accepted the mail (its data ended).
        expect(right.delivered).toEqual([reset.email]);
      },
    );
  });
});
