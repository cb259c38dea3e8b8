/**
 * The error catalogue of step failures (issue 29 section 2): the messages automatic steps fail with, each
 * with the catalogue key (`error.step.*`, English and Polish in web/src/i18n/{en,pl}/error.json) the
 * interface shows it under in the reader's language. The English text is what the activity fails with and
 * what a step's errorMessage keeps (the API and the timeline keep it as the technical detail); the parser
 * builds its messages here (`stepError.pdfDamaged({ what: 'pdf' })`), and `stepErrorKey` reads a stored
 * message back into its key and parameters, so steps that failed before a message had a key are read the
 * same way. A message the catalogue does not know is shown as it is.
 */

/** What a parser was reading: a parameter translated with `error.step.what.<what>`. */
export type ParsedWhat = 'pdf' | 'office';
const WHAT_TEXT: Record<ParsedWhat, string> = { pdf: 'PDF file', office: 'office document' };
const whatOf = (text: string): ParsedWhat | undefined =>
  (Object.keys(WHAT_TEXT) as ParsedWhat[]).find((k) => WHAT_TEXT[k] === text);

interface Entry<P extends Record<string, string>> {
  key: string;
  text: (p: P) => string;
  /** Reads the parameters back from a message (null: not this one). */
  read: (message: string) => P | null;
}

const fixed = (key: string, text: string): Entry<Record<string, never>> => ({
  key,
  text: () => text,
  read: (m) => (m === text ? {} : null),
});

const aboutWhat = (key: string, text: (what: string) => string): Entry<{ what: ParsedWhat }> => {
  const [before, after] = text('\u0000').split('\u0000');
  return {
    key,
    text: ({ what }) => text(WHAT_TEXT[what]),
    read: (m) => {
      if (!m.startsWith(before) || !m.endsWith(after)) return null;
      const what = whatOf(m.slice(before.length, m.length - after.length));
      return what ? { what } : null;
    },
  };
};

/** A message with named parameters (`{{host}}`), read back by a pattern; the parameters are shown as they are. */
function withParams<N extends string>(key: string, template: string): Entry<Record<N, string>> {
  const names: string[] = [];
  const source = template
    .split(/(\{\{\w+\}\})/)
    .map((part) => {
      const name = /^\{\{(\w+)\}\}$/.exec(part)?.[1];
      if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(name);
      return '([\\s\\S]+?)';
    })
    .join('');
  const pattern = new RegExp(`^${source}$`);
  return {
    key,
    text: (p) => template.replace(/\{\{(\w+)\}\}/g, (_, n: string) => (p as Record<string, string>)[n] ?? ''),
    read: (m) => {
      const found = pattern.exec(m);
      if (!found) return null;
      return Object.fromEntries(names.map((n, i) => [n, found[i + 1]])) as Record<N, string>;
    },
  };
}

export const stepError = {
  pdfDamaged: aboutWhat(
    'error.step.parser.damaged',
    (w) => `The ${w} is damaged and cannot be read: export it again and upload the new file.`,
  ),
  pdfPassword: aboutWhat(
    'error.step.parser.password',
    (w) => `The ${w} is password-protected: remove the password and upload it again.`,
  ),
  pdfNoPages: aboutWhat('error.step.parser.noPages', (w) => `The ${w} has no pages that can be read.`),
  pdfTextDamaged: aboutWhat(
    'error.step.parser.textDamaged',
    (w) => `The text of the ${w} cannot be read: it is damaged.`,
  ),
  officeDamaged: fixed(
    'error.step.parser.officeDamaged',
    'The office document cannot be opened (damaged, password-protected or not really an office file): save it again and upload the new file.',
  ),
  notText: fixed(
    'error.step.parser.notText',
    'The file is not plain text (it holds binary data): upload it in its own format or as UTF-8 text.',
  ),
  notImage: fixed(
    'error.step.parser.notImage',
    'The file is not an image it claims to be: upload a PNG, JPEG or TIFF image.',
  ),
  imageUnreadable: fixed(
    'error.step.parser.imageUnreadable',
    'The image cannot be read (damaged, or a format the OCR does not read): upload it again as PNG, JPEG or TIFF.',
  ),
  notEmail: fixed(
    'error.step.parser.notEmail',
    'The file is not an e-mail message (RFC 822 .eml): save the message as .eml and upload it again.',
  ),
  notJson: fixed(
    'error.step.parser.notJson',
    'The JSON file is not valid JSON: check its syntax and upload it again.',
  ),
  // actions (activities/actions/*) and the LLM prompt: what an administrator can change in the node
  ipsNoReceivers: fixed('error.step.action.ipsNoReceivers', 'The IPS node has no receivers'),
  ipsNoDocumentName: fixed('error.step.action.ipsNoDocumentName', 'The IPS node has no document name'),
  ipsNoPayload: fixed('error.step.action.ipsNoPayload', 'The IPS node has no payload'),
  notReceiver: withParams<'id'>(
    'error.step.action.notReceiver',
    'The receiver node {{id}} is not an inter-process receiver',
  ),
  emptyDocumentName: fixed('error.step.action.emptyDocumentName', 'The rendered document name is empty'),
  emptyFilename: fixed('error.step.action.emptyFilename', 'The rendered filename is empty'),
  sftpNoConnection: fixed('error.step.action.sftpNoConnection', 'The SFTP node has no SFTP connection'),
  sftpNoFilename: fixed('error.step.action.sftpNoFilename', 'The SFTP node has no filename'),
  driveNoConnection: fixed(
    'error.step.action.driveNoConnection',
    'The cloud-drive node has no cloud-drive connection',
  ),
  driveNoFilename: fixed('error.step.action.driveNoFilename', 'The cloud-drive node has no filename'),
  driveNoFolder: withParams<'name'>(
    'error.step.action.driveNoFolder',
    'The cloud-drive connection "{{name}}" has no folder',
  ),
  mailSecretGone: fixed('error.step.action.mailSecretGone', 'The secret of the mail node no longer exists'),
  mailSecretInactive: withParams<'name'>(
    'error.step.action.mailSecretInactive',
    'The secret "{{name}}" of the mail node is inactive',
  ),
  addressRefused: withParams<'detail'>(
    'error.step.action.addressRefused',
    '{{detail}} An administrator may admit the address with OUTBOUND_ALLOWLIST.',
  ),
  requestStatus: withParams<'host' | 'status'>(
    'error.step.action.requestStatus',
    'The request to {{host}} answered HTTP {{status}}',
  ),
  requestFailed: withParams<'host' | 'detail'>(
    'error.step.action.requestFailed',
    'The request to {{host}} failed: {{detail}}',
  ),
  requestInterrupted: withParams<'host'>(
    'error.step.action.requestInterrupted',
    'An earlier attempt stopped while sending the request to {{host}}: it may have been received, so it is not sent again. Rerun the step to send it once more.',
  ),
  llmEmptyPrompt: fixed('error.step.llm.emptyPrompt', 'The prompt of the LLM prompt node is empty'),
  llmFailed: withParams<'detail'>('error.step.llm.failed', 'The LLM API failed: {{detail}}'),
  internal: fixed(
    'error.step.internal',
    'The step failed because of an internal error (the worker log has the details): rerun the step, and tell an administrator if it fails again.',
  ),
} as const;

/** Every entry as a reader of messages (what `stepErrorKey` needs of it). */
const READERS: Pick<Entry<Record<string, string>>, 'key' | 'read'>[] = Object.values(stepError);

/** The catalogue key of a step's error message and its parameters, or null when the catalogue lacks it. */
export function stepErrorKey(message: string): { key: string; params: Record<string, string> } | null {
  for (const e of READERS) {
    const params = e.read(message);
    if (params) return { key: e.key, params };
  }
  return null;
}
