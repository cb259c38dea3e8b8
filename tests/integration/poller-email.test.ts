/**
 * E-mail upload poller against a real Dovecot on loopback (tests/support/dovecot.ts): one mailbox holding a
 * plain mail and a mail with attachments, polled by MESSAGE and ATTACHMENT nodes (EMAIL_UPLOAD ->
 * FILE_PARSER) through `pollUploadNode`, with the suite's Worker running the documents' workflows. Each item
 * is imported once: a second poll and a fresh activity instance (a restarted worker) import nothing.
 */
import { sealValue } from '../../db/crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { createPollerActivities } from '../../activities/pollers';
import { startDocumentWorkflow } from '../../server/document-workflows';
import { GraphBuilder, setupEngineSuite, stepReaching } from '../support/engine';
import { startDovecot, type TestDovecot } from '../support/dovecot';

const crlf = (lines: string[]) => lines.join('\r\n');

const PLAIN_MAIL = crlf([
  'From: Alice <alice@example.test>',
  'To: reader@example.test',
  'Subject: Quarterly report 2024/Q3',
  'Message-ID: <plain-1@example.test>',
  'Date: Mon, 07 Oct 2024 10:00:00 +0200',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Plain body of the first mail.',
  '',
]);

const NOTES = 'Notes in an attachment.\nSecond line.\n';
const NOTES_NAME = 'Notatki zażółć.txt';

/** A forwarded mail, attached whole (message/rfc822, no file name). */
const FORWARDED = crlf([
  'From: Dana <dana@example.test>',
  'To: bob@example.test',
  'Subject: Minutes of Monday',
  'Date: Mon, 07 Oct 2024 16:00:00 +0200',
  'Message-ID: <forwarded-1@example.test>',
  '',
  'Minutes of the meeting.',
]);

const ATTACHMENT_MAIL = crlf([
  'From: Bob <bob@example.test>',
  'To: reader@example.test',
  'Subject: Notes and a tool',
  'Message-ID: <attachments-1@example.test>',
  'Date: Tue, 08 Oct 2024 11:00:00 +0200',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'See the attached notes.',
  '--b1',
  // The file name in RFC 2231 form (UTF-8, percent-encoded).
  `Content-Type: text/plain; charset=utf-8`,
  `Content-Disposition: attachment; filename*=UTF-8''${encodeURIComponent(NOTES_NAME)}`,
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from(NOTES).toString('base64'),
  '--b1',
  'Content-Type: application/octet-stream; name="tool.exe"',
  'Content-Disposition: attachment; filename="tool.exe"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('MZ\x90\x00not really a program').toString('base64'),
  '--b1',
  'Content-Type: message/rfc822',
  'Content-Disposition: attachment',
  '',
  FORWARDED,
  '--b1--',
  '',
]);

describe('e-mail upload poller (IMAP)', () => {
  const s = setupEngineSuite('poller-email');
  let dovecot: TestDovecot;

  beforeAll(async () => {
    dovecot = await startDovecot();
    dovecot.deliver(PLAIN_MAIL);
    dovecot.deliver(ATTACHMENT_MAIL);
  });

  afterAll(async () => {
    await dovecot?.stop();
  });

  const activities = (outboundAllowlist = ['127.0.0.1'], uploadMaxBytes?: number) =>
    createPollerActivities({
      knex: s.knex,
      filesDir: s.filesDir,
      outboundAllowlist,
      uploadMaxBytes,
      startDocument: (input) => startDocumentWorkflow(s.client, input, s.taskQueue),
    });

  interface ConnectionFields {
    contentType?: 'MESSAGE' | 'ATTACHMENT';
    password?: string;
    folder?: string;
  }

  /** EMAIL_UPLOAD -> FILE_PARSER, with connections to the test mailbox. */
  async function emailGraph(connections: ConnectionFields[]) {
    const g = await GraphBuilder.create(s.knex);
    const upload = await g.node('EMAIL_UPLOAD');
    const parser = await g.node('FILE_PARSER', { autoStepStatus: 'DONE' });
    await g.edge(upload, parser);
    const ids: number[] = [];
    for (const c of connections) {
      const [row] = await s
        .knex('email_upload_connections')
        .insert({
          node_id: upload,
          imap_host: dovecot.host,
          imap_port: dovecot.port,
          address: dovecot.user,
          password: sealValue('email_upload_connections', 'password', c.password ?? dovecot.password),
          folder: c.folder ?? 'INBOX',
          content_type: c.contentType ?? 'MESSAGE',
        })
        .returning('id');
      ids.push(Number(row.id));
    }
    return { upload, parser, connectionIds: ids };
  }

  const documentsOf = (nodeId: number) =>
    s
      .knex('documents')
      .where('upload_node_id', nodeId)
      .orderBy('id')
      .select('id', 'filename', 'path', 'mime_type');
  const itemsOf = (nodeId: number) =>
    s
      .knex('imported_items')
      .where('node_id', nodeId)
      .orderBy('source_key')
      .select('source_key', 'state', 'detail');
  const fileOf = (doc: { path: string }) => fs.readFileSync(path.join(s.filesDir, doc.path));
  const contentOf = async (documentId: number) =>
    (await s.knex('document_contents').where('document_id', documentId).first('content')).content as string;
  const statusOf = (nodeId: number) => s.knex('poller_status').where('node_id', nodeId).first();

  /** UIDVALIDITY, UIDs and flags of the mailbox, read with a client of the test's own. */
  async function mailbox() {
    const client = new ImapFlow({
      host: dovecot.host,
      port: dovecot.port,
      secure: false,
      auth: { user: dovecot.user, pass: dovecot.password },
      logger: false,
    });
    await client.connect();
    try {
      const box = await client.mailboxOpen('INBOX', { readOnly: true });
      const mails = await client.fetchAll('1:*', { uid: true, flags: true });
      return {
        uidValidity: String(box.uidValidity),
        mails: mails.map((m) => ({ uid: m.uid, flags: [...m.flags!] })),
      };
    } finally {
      await client.logout();
    }
  }

  it('imports each mail once as an .eml document, also after a restart, and leaves the mails unread', async () => {
    const { upload, parser, connectionIds } = await emailGraph([{ contentType: 'MESSAGE' }]);
    const first = await activities().pollUploadNode({ nodeId: upload });
    expect(first).toMatchObject({ polled: true, imported: 2, errors: [] });

    const docs = await documentsOf(upload);
    expect(docs.map((d) => [d.filename, d.mime_type])).toEqual([
      ['Quarterly report 2024 Q3.eml', 'message/rfc822'],
      ['Notes and a tool.eml', 'message/rfc822'],
    ]);
    // The raw RFC 822 bytes, as delivered.
    expect(fileOf(docs[0]).toString('utf8')).toBe(PLAIN_MAIL);
    expect(fileOf(docs[1]).toString('utf8')).toBe(ATTACHMENT_MAIL);
    for (const d of docs) await stepReaching(s.knex, d.id, parser, ['DONE']);
    expect(await contentOf(docs[0].id)).toContain('Plain body of the first mail.');

    const box = await mailbox();
    expect(await itemsOf(upload)).toEqual(
      box.mails.map((m) => ({
        source_key: `imap:${connectionIds[0]}:${box.uidValidity}:${m.uid}`,
        state: 'STARTED',
        detail: null,
      })),
    );
    for (const m of box.mails) expect(m.flags).not.toContain('\\Seen');

    expect(await activities().pollUploadNode({ nodeId: upload })).toMatchObject({ imported: 0, errors: [] });
    // A new activity instance (a restarted worker) knows the mails from the database.
    expect(await activities().pollUploadNode({ nodeId: upload })).toMatchObject({ imported: 0, errors: [] });
    expect(await documentsOf(upload)).toHaveLength(2);
    expect(await statusOf(upload)).toMatchObject({ last_imported: 0, last_error: null });
  });

  it('imports each attachment once under its file name, a forwarded mail as .eml, and records a refused one as rejected', async () => {
    const poller = activities();
    const { upload, parser, connectionIds } = await emailGraph([{ contentType: 'ATTACHMENT' }]);
    expect(await poller.pollUploadNode({ nodeId: upload })).toMatchObject({ imported: 2, errors: [] });

    const docs = await documentsOf(upload);
    expect(docs.map((d) => [d.filename, d.mime_type])).toEqual([
      [NOTES_NAME, 'text/plain'],
      ['Minutes of Monday.eml', 'message/rfc822'],
    ]);
    expect(fileOf(docs[0]).toString('utf8')).toBe(NOTES);
    expect(fileOf(docs[1]).toString('utf8')).toBe(FORWARDED);
    for (const d of docs) await stepReaching(s.knex, d.id, parser, ['DONE']);
    expect(await contentOf(docs[0].id)).toContain('Notes in an attachment.');
    expect(await contentOf(docs[1].id)).toContain('Minutes of the meeting.');

    const box = await mailbox();
    const mailKey = `imap:${connectionIds[0]}:${box.uidValidity}:${box.mails[1].uid}`;
    const items = await itemsOf(upload);
    expect(items.map((i) => [i.source_key, i.state])).toEqual([
      [`${mailKey}:att:1`, 'STARTED'],
      [`${mailKey}:att:2`, 'REJECTED'],
      [`${mailKey}:att:3`, 'STARTED'],
    ]);
    expect(items[1].detail).toMatch(/\.exe are not accepted/);

    expect(await poller.pollUploadNode({ nodeId: upload })).toMatchObject({ imported: 0, errors: [] });
    expect(await activities().pollUploadNode({ nodeId: upload })).toMatchObject({ imported: 0, errors: [] });
    expect(await documentsOf(upload)).toHaveLength(2);
    expect(await itemsOf(upload)).toHaveLength(3);
    for (const m of (await mailbox()).mails) expect(m.flags).not.toContain('\\Seen');
  });

  it('records mails and attachments over the upload limit as rejected', async () => {
    // Smaller than each mail, the notes and the forwarded mail; the .exe is smaller, refused for its type.
    const limit = 32;
    const message = await emailGraph([{ contentType: 'MESSAGE' }]);
    const attachment = await emailGraph([{ contentType: 'ATTACHMENT' }]);
    for (const { upload } of [message, attachment]) {
      expect(await activities(['127.0.0.1'], limit).pollUploadNode({ nodeId: upload })).toMatchObject({
        imported: 0,
        errors: [],
      });
      expect(await documentsOf(upload)).toHaveLength(0);
    }
    const messageItems = await itemsOf(message.upload);
    expect(messageItems.length).toBeGreaterThanOrEqual(2);
    for (const item of messageItems) {
      expect(item).toMatchObject({
        state: 'REJECTED',
        detail: `The file is larger than the limit of ${limit} bytes`,
      });
    }
    expect((await itemsOf(attachment.upload)).map((i) => i.detail)).toEqual([
      `The file is larger than the limit of ${limit} bytes`,
      expect.stringMatching(/\.exe are not accepted/),
      `The file is larger than the limit of ${limit} bytes`,
    ]);
  });

  it('does not connect to 127.0.0.1 when the allowlist does not admit it', async () => {
    const { upload } = await emailGraph([{ contentType: 'MESSAGE' }]);
    const result = await activities([]).pollUploadNode({ nodeId: upload });
    expect(result).toMatchObject({ imported: 0 });
    expect(result.errors).toEqual([
      `Connection ${dovecot.user}@127.0.0.1:${dovecot.port}: Connections to 127.0.0.1 are not allowed ` +
        '(loopback address 127.0.0.1). An administrator may admit the address with OUTBOUND_ALLOWLIST.',
    ]);
    expect(await documentsOf(upload)).toHaveLength(0);
    expect(await itemsOf(upload)).toHaveLength(0);
    expect((await statusOf(upload)).last_error).toBe(result.errors[0]);
  });

  it('imports a mail delivered after the last poll with the next one', async () => {
    const { upload } = await emailGraph([{ contentType: 'MESSAGE' }]);
    const poller = activities();
    const before = (await poller.pollUploadNode({ nodeId: upload })).imported;
    dovecot.deliver(
      crlf([
        'From: carol@example.test',
        'To: reader@example.test',
        'Subject: Late',
        'Date: Wed, 09 Oct 2024 09:00:00 +0200',
        '',
        'Late body.',
        '',
      ]),
    );
    expect(await poller.pollUploadNode({ nodeId: upload })).toMatchObject({ imported: 1, errors: [] });
    const docs = await documentsOf(upload);
    expect(docs).toHaveLength(before + 1);
    expect(docs[docs.length - 1].filename).toBe('Late.eml');
  });

  it("reports a connection that cannot sign in or open its folder and still polls the node's others", async () => {
    // Last in the suite: after a failed sign-in Dovecot makes the next ones from 127.0.0.1 wait a few
    // seconds (its auth penalty).
    const mails = (await mailbox()).mails.length;
    const { upload } = await emailGraph([
      { password: 'not-the-password' },
      { folder: 'Archive' },
      { contentType: 'MESSAGE' },
    ]);
    const result = await activities().pollUploadNode({ nodeId: upload });
    const where = `Connection ${dovecot.user}@127.0.0.1:${dovecot.port}`;
    expect(result.imported).toBe(mails);
    expect(result.errors).toEqual([
      `${where}: sign-in failed (Authentication failed.)`,
      `${where}: the folder "Archive" cannot be opened: Mailbox doesn't exist: Archive`,
    ]);
    expect(await documentsOf(upload)).toHaveLength(mails);
    const status = await statusOf(upload);
    expect(status).toMatchObject({ last_imported: mails, last_error: result.errors.join('\n') });
    expect(status.last_error_date).not.toBeNull();
  });
});
