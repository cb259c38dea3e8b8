import { MASK, isSecretKey, maskObject, maskUrlCredentials, maskValue } from './masking';

describe('masking of secrets (management/env and configprops)', () => {
  it('hides values whose key names a secret', () => {
    for (const key of [
      'JWT_SECRET',
      'SMTP_PASSWORD',
      'DATA_ENCRYPTION_KEY',
      'DATA_ENCRYPTION_KEY_PREVIOUS',
      'WHISPER_API_KEY',
      'whisperApiKey',
      'GOOGLE_OAUTH_CLIENT_SECRET',
      'jwtSecret',
      'pass',
      'GITHUB_TOKEN',
      'AWS_SECRET_ACCESS_KEY',
      'privateKey',
      'SENTRY_DSN',
    ])
      expect([key, maskValue(key, 'value-123')]).toEqual([key, MASK]);
  });

  it('keeps ordinary values, and masks the credentials of any URL whatever its key', () => {
    expect(maskValue('PORT', '8080')).toBe('8080');
    expect(maskValue('TEMPORAL_ADDRESS', 'localhost:7233')).toBe('localhost:7233');
    expect(isSecretKey('MONKEY_BUSINESS')).toBe(false);
    expect(maskValue('DATABASE_URL', 'postgres://app:s3cret@db:5432/workbench')).toBe(
      `postgres://app:${MASK}@db:5432/workbench`,
    );
    expect(maskUrlCredentials('see https://token123@example.com/x and http://plain.example')).toBe(
      `see https://${MASK}@example.com/x and http://plain.example`,
    );
  });

  it('masks deeply in a configuration object', () => {
    const masked = maskObject({
      port: 8080,
      databaseUrl: 'postgres://u:p@h/d',
      smtp: { host: 'mail', user: 'me', pass: 'pw' },
      asr: { engine: 'whisper', whisperApiKey: 'k' },
      list: ['a', 'redis://:pw@cache:6379'],
    });
    expect(masked).toEqual({
      port: 8080,
      databaseUrl: `postgres://u:${MASK}@h/d`,
      smtp: { host: 'mail', user: 'me', pass: MASK },
      asr: { engine: 'whisper', whisperApiKey: MASK },
      list: ['a', `redis://:${MASK}@cache:6379`],
    });
  });
});
