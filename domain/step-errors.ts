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
