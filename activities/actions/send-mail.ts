/**
 * SEND_MAIL executor (spec 3 sections 3 and 7): nodemailer to the node's SMTP host and port (connected to
 * the address the net guard checked, TLS checked against the original name), signed in with the node's
 * username and the value of its process secret (active only). Port 465 is TLS from the start; on other
 * ports the password waits for STARTTLS unless the server is one the deployment's allowlist trusts (as the
 * e-mail poller's IMAP): a server on the path cannot strip STARTTLS to read it. Certificates are always
 * verified (a private CA comes from NODE_EXTRA_CA_CERTS). Receivers DO go to To, DW to Cc, UDW to Bcc
 * (envelope only); subject and template are rendered for the document. The result keeps the message id.
 */
import net from 'node:net';
import nodemailer from 'nodemailer';
import type { Knex } from 'knex';
import type { MailReceiver, NodeSettings } from '../../domain/graph-types';
import { renderTemplate, WildcardRenderError } from '../../domain/wildcard-render';
import { openValue, UnreadableCredential } from '../../db/crypto';
import { OutboundRefused, resolveOutbound } from '../../server/net-guard';
import {
  alreadySucceeded,
  beginSend,
  executionKey,
  loadActionNode,
  loadRenderData,
  permanentFailure,
  recordResult,
  refusalMessage,
} from './context';
import type { ActionExecutor, RunAutomaticNodeInput } from './index';
import { sealedSecret } from '../../db/queries/secrets';

const SMTP_TIMEOUT_MS = 30_000;

const looksLikeHtml = (s: string) => /<([a-z][a-z0-9]*)\b[^>]*>/i.test(s);

function receivers(list: readonly MailReceiver[] | undefined, type: MailReceiver['type']): string[] {
  return (list ?? []).filter((r) => r.type === type && r.email?.trim()).map((r) => r.email.trim());
}

/** Why the node cannot send, or null. */
function configProblem(s: NodeSettings): string | null {
  if (!s.smtpHost?.trim()) return 'The mail node has no SMTP host';
  if (!s.smtpPort || s.smtpPort < 1 || s.smtpPort > 65535) return 'The mail node has no valid SMTP port';
  if (!s.username?.trim()) return 'The mail node has no username';
  if (!s.secret?.id) return 'The mail node has no secret for the SMTP password';
  if (!(s.mailReceivers ?? []).some((r) => r.email?.trim())) return 'The mail node has no receivers';
  return null;
}

/**
 * TLS of an SMTP connection: 465 is TLS from the start; other ports must upgrade with STARTTLS before the
 * password is sent, unless the address is one the allowlist trusts (a local relay). The certificate is
 * checked against the configured name, not the IP connected to (an IP literal against its IP SANs).
 */
export function smtpTls(
  host: string,
  port: number,
  trusted: boolean,
): { secure: boolean; requireTLS: boolean; tls: { servername?: string } } {
  const secure = port === 465;
  return {
    secure,
    requireTLS: !secure && !trusted,
    tls: net.isIP(host) ? {} : { servername: host },
  };
}

/** Node's codes of a refused server certificate (untrusted, self-signed, expired, for another name). */
const REFUSED_CERTIFICATE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ALTNAME|HOSTNAME/;
/** Their messages, as nodemailer passes them on (it replaces the code with ESOCKET). */
const REFUSED_CERTIFICATE_MESSAGE =
  /certificate|self[- ]signed|altnames|Hostname\/IP does not match|unable to get (local )?issuer/i;

/**
 * SMTP answers 5xx, refused sign-ins and a server certificate that does not verify will not get better by
 * retrying: the step ends in ERROR at once (its message says why) instead of after every retry.
 */
export function isPermanentSmtpFailure(err: unknown): boolean {
  const e = err as { code?: string; message?: string; responseCode?: number; cause?: { code?: string } };
  if (e.code === 'EAUTH' || e.code === 'EENVELOPE' || (e.responseCode ?? 0) >= 500) return true;
  if ([e.code, e.cause?.code].some((c) => typeof c === 'string' && REFUSED_CERTIFICATE.test(c))) return true;
  return (
    (e.code === 'ESOCKET' || e.code === 'ETLS') && REFUSED_CERTIFICATE_MESSAGE.test(String(e.message ?? ''))
  );
}

async function execute(
  input: RunAutomaticNodeInput,
  knex: Knex,
  allowlist: readonly string[],
): Promise<void> {
  const node = await loadActionNode(knex, input.nodeId);
  const s = node.settings;
  const problem = configProblem(s);
  if (problem) throw await permanentFailure(knex, input, problem);
  const secret = await sealedSecret(knex, s.secret!.id, node.processId);
  if (!secret) throw await permanentFailure(knex, input, 'The secret of the mail node no longer exists');
  if (!secret.active)
    throw await permanentFailure(knex, input, `The secret "${secret.name}" of the mail node is inactive`);
  let password: string;
  try {
    password = openValue('secrets', 'value', secret.value) ?? '';
  } catch (err) {
    if (err instanceof UnreadableCredential)
      throw await permanentFailure(knex, input, `Secret "${secret.name}": ${err.message}`);
    throw err;
  }

  const data = await loadRenderData(knex, input);
  let subject: string;
  let content: { html: string } | { text: string };
  try {
    subject = renderTemplate(s.subject ?? '', data, 'header');
    const template = s.template ?? '';
    content = looksLikeHtml(template)
      ? { html: renderTemplate(template, data, 'html') }
      : { text: renderTemplate(template, data) };
  } catch (err) {
    if (err instanceof WildcardRenderError) throw await permanentFailure(knex, input, err.message);
    throw err;
  }

  const host = s.smtpHost!.trim();
  let address: string;
  let trusted: boolean;
  try {
    ({ address, allowlisted: trusted } = await resolveOutbound(host, allowlist));
  } catch (err) {
    if (err instanceof OutboundRefused)
      throw await permanentFailure(knex, input, refusalMessage(err), { host });
    throw err;
  }
  const username = s.username!.trim();
  const transport = nodemailer.createTransport({
    host: address,
    port: s.smtpPort!,
    ...smtpTls(host, s.smtpPort!, trusted),
    auth: { user: username, pass: password },
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  const outbox = await beginSend(knex, input);
  if (outbox === 'done') return;
  if (outbox === 'interrupted') {
    transport.close();
    throw await permanentFailure(
      knex,
      input,
      `An earlier attempt stopped while sending the mail through ${host}:${s.smtpPort}: it may have been ` +
        'delivered, so it is not sent again. Rerun the step to send it once more.',
      { host },
    );
  }
  const to = receivers(s.mailReceivers, 'DO');
  const cc = receivers(s.mailReceivers, 'DW');
  const bcc = receivers(s.mailReceivers, 'UDW');
  let info: { messageId?: string; accepted?: unknown; rejected?: unknown };
  try {
    info = await transport.sendMail({
      from: username.includes('@') ? username : `${username}@${host}`,
      to,
      cc,
      bcc,
      subject,
      ...content,
    });
  } catch (err) {
    const message = `Sending the mail through ${host}:${s.smtpPort} failed: ${(err as Error).message}`;
    if (isPermanentSmtpFailure(err)) throw await permanentFailure(knex, input, message, { host });
    await recordResult(knex, input, 'FAILURE', { host, error: message });
    throw new Error(message, { cause: err });
  } finally {
    transport.close();
  }
  // Sent: a failure to record it is not a failure to send (the outbox mark stays, and a retry does not send).
  await recordResult(knex, input, 'SUCCESS', {
    messageId: info.messageId,
    accepted: info.accepted,
    rejected: info.rejected,
    to,
    cc,
    bcc,
    subject,
  });
}

export const sendMail: ActionExecutor = async (input, deps) => {
  if (await alreadySucceeded(deps.knex, executionKey(input))) return;
  await execute(input, deps.knex, deps.outboundAllowlist ?? []);
};
