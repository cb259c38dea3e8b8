import { apiKeyFromHeaders, expirationDateRule, expirationInstant } from './api-keys';

describe('API key rules', () => {
  const now = new Date('2026-11-24T12:00:00Z');

  it('reads a calendar day as the end of that day in UTC, and ISO date-times as they are', () => {
    expect(expirationInstant('2026-12-01')?.toISOString()).toBe('2026-12-01T23:59:59.999Z');
    expect(expirationInstant('2026-12-01T10:00:00+02:00')?.toISOString()).toBe('2026-12-01T08:00:00.000Z');
    for (const bad of ['2026-02-30', '2026-13-01', 'tomorrow', '2026-12-01T10:00', '1/12/2026', ''])
      expect(expirationInstant(bad)).toBeNull();
  });

  it('wants a date in the future, at most 366 days ahead', () => {
    expect(expirationDateRule(undefined, now)?.key).toBe('entity.validation.required');
    expect(expirationDateRule('  ', now)?.key).toBe('entity.validation.required');
    expect(expirationDateRule('nope', now)?.key).toBe('apiKeys.validation.date');
    expect(expirationDateRule('2026-11-23', now)?.key).toBe('apiKeys.validation.future');
    // today still has hours left
    expect(expirationDateRule('2026-11-24', now)).toBeNull();
    expect(expirationDateRule('2027-11-24', now)).toBeNull();
    expect(expirationDateRule('2027-11-25', now)).toMatchObject({
      key: 'apiKeys.validation.tooFar',
      params: { max: 366 },
    });
  });

  it('takes the X-API-Key header, or a bearer token that looks like a key, and nothing else', () => {
    expect(apiKeyFromHeaders('wbk_x', undefined)).toBe('wbk_x');
    expect(apiKeyFromHeaders(undefined, 'Bearer wbk_y')).toBe('wbk_y');
    expect(apiKeyFromHeaders(undefined, 'Bearer eyJhbGciOi')).toBeNull();
    expect(apiKeyFromHeaders(undefined, undefined)).toBeNull();
  });
});
