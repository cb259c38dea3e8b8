import { HttpError } from './errors';
import { idParam, MAX_ID } from './validate';

describe('idParam', () => {
  it('accepts whole numbers from 0 to the database integer limit', () => {
    expect(idParam('0')).toBe(0);
    expect(idParam(' 42 ')).toBe(42);
    expect(idParam(7)).toBe(7);
    expect(idParam(String(MAX_ID))).toBe(2147483647);
  });

  it('answers 400 with a detail for anything else', () => {
    for (const bad of [
      '2147483648',
      '99999999999999999999',
      '-1',
      '1e3',
      '0x10',
      '1.5',
      '',
      'abc',
      undefined,
      -3,
    ])
      expect(() => idParam(bad, 'index')).toThrow(
        expect.objectContaining({
          status: 400,
          body: expect.objectContaining({
            detail: 'Parameter index must be a whole number from 0 to 2147483647',
          }),
        }) as HttpError,
      );
  });
});
