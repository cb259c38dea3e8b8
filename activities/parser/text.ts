/**
 * Plain text files: the charset is detected and the bytes decoded. A byte-order mark decides; valid UTF-8 is
 * UTF-8; otherwise the candidates of chardet plus the usual Polish and Western single-byte charsets are
 * each decoded and scored (Polish letters count most, Western accented letters next, control characters
 * against), since chardet alone mistakes short Polish CP1250 text for Baltic. The charset is decided on the
 * first SAMPLE_BYTES only and the file decoded once with it: scoring a whole 18 MB file under each candidate
 * held the worker's event loop for 4.5 s.
 */
import { analyse } from 'chardet';
import { badInput } from './work';
import { stepError } from '../../domain/step-errors';

const POLISH = new Set('ąćęłńóśźżĄĆĘŁŃÓŚŹŻ');
const WESTERN = new Set('àâäáãåæçèéêëìíîïñòôöõøùúûüýÿßÀÂÄÁÃÅÆÇÈÉÊËÌÍÎÏÑÒÔÖÕØÙÚÛÜÝ');
const FALLBACKS = ['windows-1250', 'iso-8859-2', 'windows-1252'];
/** How much of a single-byte file the charset is decided on. */
export const SAMPLE_BYTES = 256 * 1024;

function score(text: string): number {
  let s = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (code < 0x80) {
      if (code < 0x09 || (code > 0x0d && code < 0x20)) s -= 3;
      continue;
    }
    if (POLISH.has(ch)) s += 2;
    else if (WESTERN.has(ch)) s += 1;
    else if (/[\p{C}\uFFFD]/u.test(ch)) s -= 3;
    else if (!/\p{L}/u.test(ch) && !/[\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2026\u00a0]/.test(ch))
      s -= 1;
  }
  return s;
}

function decoder(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}

export interface DecodedText {
  text: string;
  encoding: string;
}

export function decodeText(buf: Buffer): DecodedText {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf)
    return { text: new TextDecoder('utf-8').decode(buf.subarray(3)), encoding: 'UTF-8' };
  if (buf[0] === 0xff && buf[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(buf.subarray(2)), encoding: 'UTF-16LE' };
  if (buf[0] === 0xfe && buf[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(buf.subarray(2)), encoding: 'UTF-16BE' };
  if (buf.subarray(0, 8192).includes(0)) throw badInput(stepError.notText.text({}));
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf), encoding: 'UTF-8' };
  } catch {
    // not UTF-8: a single-byte charset
  }
  const sample = buf.subarray(0, SAMPLE_BYTES);
  const confidence = new Map<string, number>();
  for (const m of analyse(sample)) confidence.set(m.name.toLowerCase(), m.confidence);
  const labels = [...new Set([...confidence.keys(), ...FALLBACKS])].filter((l) => !l.startsWith('utf'));
  let best: { decoder: TextDecoder; encoding: string } | null = null;
  let bestScore = -Infinity;
  for (const label of labels) {
    const d = decoder(label);
    if (!d) continue;
    const s = score(d.decode(sample)) + (confidence.get(label) ?? 0) / 100;
    if (s > bestScore) {
      best = { decoder: d, encoding: label };
      bestScore = s;
    }
  }
  if (!best) return { text: buf.toString('latin1'), encoding: 'latin1' };
  return { text: best.decoder.decode(buf), encoding: best.encoding };
}

/** The text content of a .txt document: decoded, line ends normalized. */
export function parseText(buf: Buffer): string {
  return decodeText(buf).text.replace(/\r\n?/g, '\n');
}
