import { stepError, stepErrorKey } from './step-errors';

describe('stepErrorKey', () => {
  it('reads every message of the catalogue back into its key and parameters', () => {
    expect(stepErrorKey(stepError.pdfDamaged.text({ what: 'pdf' }))).toEqual({
      key: 'error.step.parser.damaged',
      params: { what: 'pdf' },
    });
    expect(stepErrorKey(stepError.pdfPassword.text({ what: 'office' }))).toEqual({
      key: 'error.step.parser.password',
      params: { what: 'office' },
    });
    for (const e of Object.values(stepError)) {
      const text = (e.text as (p: { what: 'pdf' }) => string)({ what: 'pdf' });
      expect(stepErrorKey(text)?.key).toBe(e.key);
    }
  });

  it('reads the messages steps kept before they had keys, and leaves unknown ones alone', () => {
    expect(
      stepErrorKey('The PDF file is damaged and cannot be read: export it again and upload the new file.'),
    ).toEqual({ key: 'error.step.parser.damaged', params: { what: 'pdf' } });
    expect(
      stepErrorKey('The spreadsheet is damaged and cannot be read: export it again and upload the new file.'),
    ).toBeNull();
    expect(stepErrorKey('Something else went wrong')).toBeNull();
  });
});
