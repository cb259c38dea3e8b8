import en from '../i18n/en/error.json';
import pl from '../i18n/pl/error.json';
import { stepError } from '@domain/step-errors';

const lookup = (messages: unknown, key: string): unknown =>
  key.split('.').reduce<unknown>((o, part) => (o as Record<string, unknown> | undefined)?.[part], messages);

describe('the step error catalogue', () => {
  it('has every step error key in English and Polish, with the same placeholders', () => {
    for (const { key } of Object.values(stepError)) {
      const english = lookup(en, key);
      const polish = lookup(pl, key);
      expect([key, typeof english]).toEqual([key, 'string']);
      expect([key, typeof polish]).toEqual([key, 'string']);
      const holes = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
      expect(holes(polish as string)).toEqual(holes(english as string));
    }
    for (const what of ['pdf', 'office']) {
      expect(typeof lookup(en, `error.step.what.${what}`)).toBe('string');
      expect(typeof lookup(pl, `error.step.what.${what}`)).toBe('string');
    }
  });
});
