import { smtpTls } from './send-mail';

describe('smtpTls', () => {
  it('uses TLS on 465 and requires STARTTLS elsewhere unless the allowlist trusts the server', () => {
    expect(smtpTls('smtp.example.com', 465, false)).toEqual({
      secure: true,
      requireTLS: false,
      tls: { servername: 'smtp.example.com' },
    });
    // A public server on 587 or 25: the password is not sent unless STARTTLS succeeded.
    expect(smtpTls('smtp.example.com', 587, false)).toMatchObject({ secure: false, requireTLS: true });
    expect(smtpTls('smtp.example.com', 25, false)).toMatchObject({ secure: false, requireTLS: true });
    // A relay on an allowlisted private address may speak plain SMTP (STARTTLS is still used when offered).
    expect(smtpTls('relay.lan', 25, true)).toMatchObject({ secure: false, requireTLS: false });
  });

  it('checks the certificate against the configured name, or against the IP literal itself', () => {
    expect(smtpTls('mail.example.org', 587, false).tls).toEqual({ servername: 'mail.example.org' });
    expect(smtpTls('203.0.113.7', 587, false).tls).toEqual({});
    // Nothing in the options can turn the verification off.
    for (const [host, port, trusted] of [
      ['mail.example.org', 465, false],
      ['10.0.0.5', 25, true],
    ] as const)
      expect(smtpTls(host, port, trusted).tls).not.toHaveProperty('rejectUnauthorized');
  });
});
