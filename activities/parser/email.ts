/**
 * E-mail (.eml, RFC 822): mailparser reads it; the content is the subject, sender and date as header lines,
 * the text body (the HTML body stripped to text when there is no text part), and the attachments listed by
 * name, type and size. Attachments are not parsed themselves.
 */
import { simpleParser, type AddressObject } from 'mailparser';
import { badInput } from './work';
import { stepError } from '../../domain/step-errors';

type Address = { name: string; address?: string; group?: Address[] };

/** `Name <address>` without the quoting mailparser's text adds; groups flattened. */
function addresses(a: AddressObject | AddressObject[] | undefined): string {
  if (!a) return '';
  const flat = (list: Address[]): Address[] => list.flatMap((x) => (x.group ? flat(x.group) : [x]));
  return flat((Array.isArray(a) ? a : [a]).flatMap((x) => x.value as Address[]))
    .map((x) => (x.name && x.address ? `${x.name} <${x.address}>` : (x.address ?? x.name)))
    .join(', ');
}

/** HTML to plain text for a mail without a text part: block ends become line breaks, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h[1-6]|blockquote)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export async function parseEmail(buf: Buffer): Promise<string> {
  const mail = await simpleParser(buf, { skipImageLinks: true });
  const headerCount = mail.headers?.size ?? 0;
  const body = (mail.text ?? (mail.html ? htmlToText(mail.html) : '')).replace(/\r\n?/g, '\n').trim();
  if (headerCount === 0 || (!mail.subject && !mail.from && !body))
    throw badInput(stepError.notEmail.text({}));
  const lines: string[] = [];
  if (mail.subject) lines.push(`Subject: ${mail.subject}`);
  const from = addresses(mail.from);
  if (from) lines.push(`From: ${from}`);
  const to = addresses(mail.to);
  if (to) lines.push(`To: ${to}`);
  if (mail.date) lines.push(`Date: ${mail.date.toISOString()}`);
  lines.push('', body);
  const attachments = mail.attachments.filter((a) => a.contentDisposition !== 'inline' || a.filename);
  if (attachments.length > 0) {
    lines.push('', 'Attachments:');
    for (const a of attachments)
      lines.push(`- ${a.filename ?? '(unnamed)'} (${a.contentType}, ${a.size} bytes)`);
  }
  return lines.join('\n').trim();
}
