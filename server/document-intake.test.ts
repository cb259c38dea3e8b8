import { sanitizeFilename } from './document-intake';

describe('sanitizeFilename', () => {
  it('neutralises bidirectional controls, so a name shows in the order it is stored (issue 25 finding 8)', () => {
    expect(sanitizeFilename('\u202e_evil.txt')).toBe('__evil.txt');
    expect(sanitizeFilename('invoice\u202Efdp.exe')).toBe('invoice_fdp.exe');
    expect(sanitizeFilename('a\u2066b\u2069c\u200f.txt')).toBe('a_b_c_.txt');
  });

  it('keeps right-to-left scripts, and drops paths and control characters as before', () => {
    expect(sanitizeFilename('שלום.txt')).toBe('שלום.txt');
    expect(sanitizeFilename('../../etc/pa\u0000ss')).toBe('pa_ss');
  });
});
