import {
  MASK,
  isSecretKey,
  looksRandom,
  maskObject,
  maskText,
  maskUrlCredentials,
  maskValue,
} from './masking';

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

/** Values planted under harmless names: only their secret part may be hidden, and it must be. */
describe('masking by value, whatever the name', () => {
  const shown = (value: string) => maskValue('SOME_SETTING', value) as string;

  it.each([
    ['GitHub personal token', 'ghp_', `ghp_${'A1b2C3d4'.repeat(4)}wxyz`],
    ['GitHub OAuth token', 'gho_', `gho_${'Z9y8X7w6'.repeat(4)}abcd`],
    ['GitHub server token', 'ghs_', `ghs_${'Q1w2E3r4'.repeat(4)}t5y6`],
    ['GitHub fine-grained token', 'github_pat_', `github_pat_11ABCDEFG0_${'xYz123AbC'.repeat(6)}`],
    ['Stripe live secret key', 'sk_live_', `sk_live_${'51HxYzAbC'.repeat(3)}`],
    ['Stripe restricted key', 'rk_live_', `rk_live_${'51HxYzAbC'.repeat(3)}`],
    ['Slack bot token', 'xoxb-', 'xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx'],
    [
      'Slack user token',
      'xoxp-',
      'xoxp-1234567890-1234567890-1234567890123-0123456789abcdef0123456789abcdef',
    ],
    ['AWS access key id', 'AKIA', 'AKIAIOSFODNN7EXAMPLE'],
    ['OpenAI key', 'sk-', `sk-${'T3BlbkFJ9x'.repeat(5)}`],
    ['OpenAI project key', 'sk-', `sk-proj-${'Ab3_Cd4-Ef5'.repeat(5)}`],
    ['workbench API key', 'wbk_', 'wbk_q7Vh3kP2Lx9Zt4Rm8Nc1Wy6Bd0Fs5Gj2Hk7Ql3Xv9'],
    ['Standard Webhooks secret', 'whsec_', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
  ])('%s: the prefix stays, the token goes', (_kind, prefix, token) => {
    const value = `before ${token} after`;
    expect(shown(value)).toBe(`before ${prefix}${MASK} after`);
    expect(shown(token)).not.toContain(token.slice(prefix.length + 4));
  });

  it('masks a JWT and the credentials of an Authorization header', () => {
    const jwt =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.' +
      'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    expect(shown(jwt)).toBe(MASK);
    expect(shown(`token of the bot: ${jwt}.`)).toBe(`token of the bot: ${MASK}.`);
    expect(shown('Authorization: Bearer abc.def-123_456')).toBe(`Authorization: Bearer ${MASK}`);
    expect(shown('Basic dXNlcjpwYXNzd29yZA==')).toBe(`Basic ${MASK}`);
  });

  it('masks the body of a PEM block and keeps its labels, even with escaped line ends or no END line', () => {
    const body = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7';
    const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`;
    expect(shown(pem)).toBe(`-----BEGIN PRIVATE KEY-----${MASK}-----END PRIVATE KEY-----\n`);
    const escaped = `-----BEGIN RSA PRIVATE KEY-----\\n${body}\\n-----END RSA PRIVATE KEY-----`;
    expect(shown(escaped)).toBe(`-----BEGIN RSA PRIVATE KEY-----${MASK}-----END RSA PRIVATE KEY-----`);
    expect(shown(`-----BEGIN OPENSSH PRIVATE KEY-----\n${body}`)).toBe(
      `-----BEGIN OPENSSH PRIVATE KEY-----${MASK}`,
    );
  });

  it('masks secret-named keys of a JSON value and keeps the rest of it', () => {
    const serviceAccount = JSON.stringify({
      type: 'service_account',
      project_id: 'workbench-test',
      private_key_id: 'a1b2c3d4e5f6',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n',
      client_email: 'robot@workbench-test.iam.gserviceaccount.com',
      nested: [{ password: 'hunter2', user: 'me' }, { note: `key ghp_${'A1b2C3d4'.repeat(5)}` }],
    });
    expect(JSON.parse(shown(serviceAccount))).toEqual({
      type: 'service_account',
      project_id: 'workbench-test',
      private_key_id: MASK,
      private_key: MASK,
      client_email: 'robot@workbench-test.iam.gserviceaccount.com',
      nested: [{ password: MASK, user: 'me' }, { note: `key ghp_${MASK}` }],
    });
    // Not JSON as a whole (cut off): its pairs are still masked.
    expect(shown('{"user": "me", "secret": "s3cr3t-value", "token":"t0k')).toBe(
      `{"user": "me", "secret": "${MASK}", "token":"t0k`,
    );
    // JSON without secrets keeps its spelling.
    expect(shown('{ "a": 1,  "b": [true] }')).toBe('{ "a": 1,  "b": [true] }');
  });

  it('masks secret-named query and fragment parameters of a URL and keeps the others', () => {
    expect(shown('https://api.example.com/v1/items?page=2&token=abc123&sort=name')).toBe(
      `https://api.example.com/v1/items?page=2&token=${MASK}&sort=name`,
    );
    for (const name of ['key', 'api_key', 'apiKey', 'secret', 'password', 'signature', 'sig', 'access_token'])
      expect([name, shown(`https://x.example/p?v=1&${name}=value-9`)]).toEqual([
        name,
        `https://x.example/p?v=1&${name}=${MASK}`,
      ]);
    expect(
      shown(
        'https://bucket.s3.amazonaws.com/f.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=cred&X-Amz-Signature=f00d',
      ),
    ).toBe(
      `https://bucket.s3.amazonaws.com/f.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${MASK}&X-Amz-Signature=${MASK}`,
    );
    expect(shown('https://app.example/cb#state=42&access_token=xyz')).toBe(
      `https://app.example/cb#state=42&access_token=${MASK}`,
    );
    expect(shown('https://me:pw@host.example/a?token=t')).toBe(
      `https://me:${MASK}@host.example/a?token=${MASK}`,
    );
  });

  it('masks a random-looking path segment (a webhook secret) and keeps words, versions, dates and UUIDs', () => {
    expect(shown('https://hooks.slack.com/services/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')).toBe(
      `https://hooks.slack.com/services/T0ABCD1EF/B0GHIJ2KL/${MASK}`,
    );
    expect(
      shown(
        'https://discord.com/api/webhooks/123456789012345678/HCyQ00aMLNpfWkTeEbY-NrELAMD6mygFgVFeH7uS_80',
      ),
    ).toBe(`https://discord.com/api/webhooks/123456789012345678/${MASK}`);
    for (const readable of [
      'https://example.com/document-processing-workbench2024/release-v1-2-3-candidate-build-45',
      'https://example.com/files/550e8400-e29b-41d4-a716-446655440000/2024-11-28T23-14-05Z-backup',
      'https://example.com/MyDocumentProcessingWorkbench/my_super_long_folder_name_v2',
      'https://registry.npmjs.org/@temporalio/worker/-/worker-1.24.0.tgz',
    ])
      expect(shown(readable)).toBe(readable);
    expect(looksRandom('de53cefce24b7262b3737522c0ffee42')).toBe(true);
    expect(looksRandom('short1a2b')).toBe(false);
  });

  it('masks secret-named name=value pairs in a connection string or a command line', () => {
    expect(shown('Server=db;Database=wb;User Id=sa;Password=Sup3r;Encrypt=true')).toBe(
      `Server=db;Database=wb;User Id=sa;Password=${MASK};Encrypt=true`,
    );
    expect(shown('--max-old-space-size=4096 --api-key=k3y-value')).toBe(
      `--max-old-space-size=4096 --api-key=${MASK}`,
    );
  });

  it('keeps ordinary values readable and is stable when applied twice', () => {
    for (const plain of [
      '/usr/local/bin:/usr/bin:/bin',
      'en_US.UTF-8',
      'production',
      'http://localhost:8080',
      'Desk-lamp mode 3',
      '--max-old-space-size=4096',
      'task-12345678901234567890',
    ])
      expect(shown(plain)).toBe(plain);
    const messy = `x ghp_${'A1b2C3d4'.repeat(5)} https://u:p@h/aB3dE5fG7hJ9kL1mN2pQ4rS6?sig=1 Password=2`;
    expect(maskText(maskText(messy))).toBe(maskText(messy));
  });
});
