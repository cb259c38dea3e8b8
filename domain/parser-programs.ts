/**
 * The external programs of the file parser (activities/parser/): one list, read by the start check that
 * installs what is missing (scripts/lib/system-deps.ts), by `management/health` (api/services/
 * parser-programs.ts) and by the parser itself (the OCR languages). A program the parser starts must be
 * listed here: a unit test reads the parser's sources and fails otherwise.
 *
 * Each entry is one health component: the executables it needs on PATH, the Debian packages that bring
 * them (scripts/install-system-deps.sh installs these as its `runtime` set, a test keeps the two equal),
 * how to read its version, and what else it needs (tesseract's languages, pocketsphinx's model, LibreOffice's
 * Writer and Calc modules). Pure data: the checks themselves do I/O and live outside domain/.
 */

/** The languages the OCR reads (tesseract `-l eng+pol`). */
export const OCR_LANGUAGES = ['eng', 'pol'] as const;

/** The pocketsphinx acoustic model the recognizer uses (its compiled-in default, Debian pocketsphinx-en-us). */
export const POCKETSPHINX_MODEL = 'en-us';

export type ParserComponent = 'tesseract' | 'poppler' | 'libreoffice' | 'sox' | 'pocketsphinx';

/** Something an entry needs besides its executables; checked by the I/O side. */
export type ProgramRequirement =
  | { kind: 'tesseract-languages'; languages: readonly string[] }
  | { kind: 'pocketsphinx-model'; model: string }
  | { kind: 'libreoffice-modules'; modules: readonly ('writer' | 'calc')[] };

export interface ParserProgram {
  /** The component name in `management/health`. */
  component: ParserComponent;
  /** What the parser does with it (shown by the start check). */
  purpose: string;
  /** Executables the parser starts, all needed, looked up on PATH. */
  executables: readonly string[];
  /** Debian packages that bring the executables and the requirements. */
  packages: readonly string[];
  /** How to read the version: the executable, its arguments, the version in its output (stdout + stderr). */
  version?: { executable: string; args: readonly string[]; pattern: RegExp };
  requires?: readonly ProgramRequirement[];
  /** Only needed with this speech engine (ASR_ENGINE); needed always when absent. */
  asrEngine?: 'pocketsphinx';
}

export const PARSER_PROGRAMS: readonly ParserProgram[] = [
  {
    component: 'tesseract',
    purpose: 'OCR of images and scanned PDF pages',
    executables: ['tesseract'],
    packages: ['tesseract-ocr', ...OCR_LANGUAGES.map((l) => `tesseract-ocr-${l}`)],
    version: { executable: 'tesseract', args: ['--version'], pattern: /tesseract v?(\d+(?:\.\d+)+)/i },
    requires: [{ kind: 'tesseract-languages', languages: OCR_LANGUAGES }],
  },
  {
    component: 'poppler',
    purpose: 'PDF text layer, page images and the images of scanned pages',
    executables: ['pdftotext', 'pdftoppm', 'pdfimages', 'pdfinfo'],
    packages: ['poppler-utils'],
    version: { executable: 'pdftotext', args: ['-v'], pattern: /pdftotext version (\d+(?:\.\d+)+)/i },
  },
  {
    component: 'libreoffice',
    purpose: 'office documents and spreadsheets to PDF',
    executables: ['soffice'],
    packages: ['libreoffice-writer-nogui', 'libreoffice-calc-nogui'],
    version: { executable: 'soffice', args: ['--version'], pattern: /LibreOffice (\d+(?:\.\d+)+)/ },
    requires: [{ kind: 'libreoffice-modules', modules: ['writer', 'calc'] }],
  },
  {
    component: 'sox',
    purpose: 'recordings to 16 kHz mono WAV before speech recognition',
    executables: ['sox'],
    packages: ['sox'],
    version: { executable: 'sox', args: ['--version'], pattern: /SoX v?(\d+(?:\.\d+)+)/i },
  },
  {
    component: 'pocketsphinx',
    purpose: 'speech recognition (ASR_ENGINE=pocketsphinx)',
    executables: ['pocketsphinx_continuous', 'pocketsphinx_batch'],
    packages: ['pocketsphinx', `pocketsphinx-${POCKETSPHINX_MODEL}`],
    requires: [{ kind: 'pocketsphinx-model', model: POCKETSPHINX_MODEL }],
    asrEngine: 'pocketsphinx',
  },
];

/** The entries a deployment needs: pocketsphinx only when it recognizes speech itself. */
export function neededParserPrograms(asrEngine: string): readonly ParserProgram[] {
  return PARSER_PROGRAMS.filter((p) => !p.asrEngine || p.asrEngine === asrEngine);
}

/** Every Debian package of the list, in order, once (the `runtime` set of install-system-deps.sh). */
export function parserPackages(programs: readonly ParserProgram[] = PARSER_PROGRAMS): string[] {
  return [...new Set(programs.flatMap((p) => p.packages))];
}
