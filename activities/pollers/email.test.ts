import type { MessageStructureObject } from 'imapflow';
import { attachmentParts, emlFilename, imapReason, imapTls } from './email';

describe('attachmentParts', () => {
  it('takes named and attachment-disposition leaves and embedded messages, not the body text', () => {
    const structure: MessageStructureObject = {
      type: 'multipart/mixed',
      childNodes: [
        {
          type: 'multipart/alternative',
          part: '1',
          childNodes: [
            { type: 'text/plain', part: '1.1', parameters: { charset: 'utf-8' } },
            {
              type: 'multipart/related',
              part: '1.2',
              childNodes: [
                { type: 'text/html', part: '1.2.1' },
                { type: 'image/png', part: '1.2.2', disposition: 'inline', parameters: { name: 'logo.png' } },
              ],
            },
          ],
        },
        { type: 'application/pdf', part: '2', disposition: 'attachment' },
        {
          type: 'text/plain',
          part: '3',
          disposition: 'attachment',
          dispositionParameters: { filename: 'Notatki zażółć.txt' },
        },
        {
          type: 'message/rfc822',
          part: '4',
          envelope: { subject: 'Fwd: invoice 3/2024' },
          childNodes: [{ type: 'text/plain', part: '4.1', parameters: { name: 'inner.txt' } }],
        },
        { type: 'application/x-unknown', part: '5', disposition: 'attachment' },
      ],
    };
    expect(attachmentParts(structure)).toEqual([
      { part: '1.2.2', filename: 'logo.png' },
      { part: '2', filename: 'attachment-2.pdf' },
      { part: '3', filename: 'Notatki zażółć.txt' },
      { part: '4', filename: 'Fwd: invoice 3 2024.eml' },
      { part: '5', filename: 'attachment-5' },
    ]);
  });

  it('finds none in a plain mail, and part 1 in a mail that is one attached file', () => {
    expect(attachmentParts({ type: 'text/plain', parameters: { charset: 'us-ascii' } })).toEqual([]);
    expect(attachmentParts(undefined)).toEqual([]);
    expect(
      attachmentParts({
        type: 'application/pdf',
        disposition: 'attachment',
        dispositionParameters: { filename: 'scan.pdf' },
      }),
    ).toEqual([{ part: '1', filename: 'scan.pdf' }]);
  });
});

describe('emlFilename', () => {
  it('uses the subject, else the message id, else the UID, without path separators or line breaks', () => {
    expect(emlFilename({ subject: 'Re: report 2024/Q3\r\n part', uid: 7 })).toBe(
      'Re: report 2024 Q3 part.eml',
    );
    expect(emlFilename({ subject: '  ', messageId: '<abc@example.test>', uid: 7 })).toBe(
      'abc@example.test.eml',
    );
    expect(emlFilename({ uid: 7 })).toBe('mail-7.eml');
    expect(emlFilename({ subject: 'x'.repeat(400), uid: 7 })).toBe(`${'x'.repeat(150)}.eml`);
  });
});

describe('imapReason', () => {
  it("gives the server's answer without Dovecot's timing, and says when the sign-in failed", () => {
    expect(
      imapReason(
        Object.assign(new Error('Command failed'), {
          responseText: "Mailbox doesn't exist: Archive (0.001 + 0.000 secs).",
        }),
      ),
    ).toBe("Mailbox doesn't exist: Archive");
    expect(
      imapReason(
        Object.assign(new Error('Command failed'), {
          responseText: 'Authentication failed.',
          authenticationFailed: true,
        }),
      ),
    ).toBe('sign-in failed (Authentication failed.)');
    expect(imapReason(new Error('connect ECONNREFUSED 127.0.0.1:143'))).toBe(
      'connect ECONNREFUSED 127.0.0.1:143',
    );
  });
});

describe('imapTls', () => {
  it('uses TLS on 993 and requires STARTTLS elsewhere unless the allowlist trusts the server', () => {
    expect(imapTls(993, false)).toEqual({ secure: true });
    expect(imapTls(143, false)).toEqual({ secure: false, doSTARTTLS: true });
    expect(imapTls(143, true)).toEqual({ secure: false });
  });
});
