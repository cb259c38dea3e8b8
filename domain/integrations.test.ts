import { MASKED_SECRET } from './integration-types';
import {
  driveConnectionCountAllowed,
  driveConnectionViolations,
  emailConnectionViolations,
  keepOrReplaceSecret,
  llmModelNameRule,
  maskSecret,
  modalitiesRule,
  normalizeCron,
  optionalCronRule,
  portRule,
  scopeGranted,
  secretNameRule,
  secretValueRule,
  sftpConnectionViolations,
  sftpHostKeyOf,
  type FieldViolation,
} from './integrations';

const key = (v: { key: string } | null) => v?.key ?? null;
const keys = (list: FieldViolation[]) => list.map((v) => [v.field, v.violation.key]);

const validEmail = {
  imapHost: 'imap.example.com',
  imapPort: 993,
  address: 'inbox@example.com',
  password: 'pw',
  folder: 'INBOX',
  contentType: 'MESSAGE',
  cron: null,
};

const validSftp = {
  name: 'Drop box',
  address: 'sftp.example.com',
  port: 22,
  folder: '/in',
  password: { useKey: false, username: 'bot', password: 'pw', publicKey: null, privateKey: null },
};

describe('masked secrets', () => {
  it('keeps the stored secret when the form sends null, empty or the ten-asterisk mask', () => {
    expect(MASKED_SECRET).toBe('**********');
    expect(keepOrReplaceSecret(null, 'old')).toBe('old');
    expect(keepOrReplaceSecret(undefined, 'old')).toBe('old');
    expect(keepOrReplaceSecret('', 'old')).toBe('old');
    expect(keepOrReplaceSecret(MASKED_SECRET, 'old')).toBe('old');
    expect(keepOrReplaceSecret('new', 'old')).toBe('new');
  });

  it('shows the mask for a stored secret and null when none is stored', () => {
    expect(maskSecret('hunter2')).toBe(MASKED_SECRET);
    expect(maskSecret(null)).toBeNull();
    expect(maskSecret('')).toBeNull();
  });
});

describe('LLM model rules', () => {
  it('requires a unique name of at most 100 characters', () => {
    expect(key(llmModelNameRule(''))).toBe('entity.validation.required');
    expect(llmModelNameRule('x'.repeat(101))).toMatchObject({
      key: 'entity.validation.maxlength',
      params: { max: 100 },
    });
    expect(key(llmModelNameRule(' GPT-4o ', ['gpt-4o']))).toBe('soaApp.llmModel.nameNotUnique');
    expect(llmModelNameRule('gpt-5', ['gpt-4o'])).toBeNull();
  });

  it('takes modalities as a list of non-empty strings', () => {
    expect(modalitiesRule([])).toBeNull();
    expect(modalitiesRule(['text', 'image'])).toBeNull();
    expect(key(modalitiesRule(['text', '']))).toBe('entity.validation.pattern');
    expect(key(modalitiesRule([1]))).toBe('entity.validation.pattern');
    expect(key(modalitiesRule(null))).toBe('entity.validation.required');
  });
});

describe('secret rules', () => {
  it('requires a name of at most 50 characters, unique within the process', () => {
    expect(key(secretNameRule('  '))).toBe('entity.validation.required');
    expect(secretNameRule('s'.repeat(51))).toMatchObject({
      code: 'Size',
      key: 'entity.validation.maxlength',
      params: { max: 50 },
    });
    expect(secretNameRule('s'.repeat(50))).toBeNull();
    expect(key(secretNameRule('OpenAI', ['openai ']))).toBe('soaApp.secret.nameNotUnique');
  });

  it('requires a value', () => {
    expect(key(secretValueRule(''))).toBe('entity.validation.required');
    expect(secretValueRule(' x ')).toBeNull();
  });
});

describe('cron and port helpers', () => {
  it('accepts an empty cron (it becomes null) and six or seven fields; reports the cron key otherwise', () => {
    expect(optionalCronRule(null)).toBeNull();
    expect(optionalCronRule('  ')).toBeNull();
    expect(normalizeCron('  ')).toBeNull();
    expect(normalizeCron(' 0 0 * * * * ')).toBe('0 0 * * * *');
    expect(optionalCronRule('0 0/5 * * * MON-FRI')).toBeNull();
    expect(optionalCronRule('0 0 12 * JAN ? 2030')).toBeNull();
    expect(optionalCronRule('* * * * *')).toEqual({
      code: 'Pattern',
      key: 'utils.fieldValidation.cronRegexError',
    });
  });

  it('takes ports 1..65535 with min and max messages', () => {
    expect(key(portRule(null))).toBe('entity.validation.required');
    expect(portRule(0)).toMatchObject({ key: 'entity.validation.min', params: { min: 1 } });
    expect(portRule(65536)).toMatchObject({ key: 'entity.validation.max', params: { max: 65535 } });
    expect(key(portRule(2.5))).toBe('entity.validation.min');
    expect(portRule(1)).toBeNull();
    expect(portRule(65535)).toBeNull();
  });
});

describe('e-mail upload connection rules', () => {
  it('accepts a complete connection', () => {
    expect(emailConnectionViolations(validEmail)).toEqual([]);
    expect(emailConnectionViolations({ ...validEmail, imapHost: 'localhost', imapPort: 143 })).toEqual([]);
  });

  it('requires host, address and password (on create)', () => {
    expect(keys(emailConnectionViolations({}))).toEqual([
      ['imapHost', 'entity.validation.required'],
      ['address', 'entity.validation.required'],
      ['password', 'entity.validation.required'],
    ]);
  });

  it('checks the host as a domain or IP and the address as an e-mail', () => {
    expect(
      keys(emailConnectionViolations({ ...validEmail, imapHost: 'not a host', address: 'nobody' })),
    ).toEqual([
      ['imapHost', 'domainOrIpError'],
      ['address', 'emailError'],
    ]);
  });

  it('takes only ports 993 and 143, contents MESSAGE and ATTACHMENT, and a valid optional cron', () => {
    expect(
      keys(emailConnectionViolations({ ...validEmail, imapPort: 110, contentType: 'BODY', cron: 'often' })),
    ).toEqual([
      ['imapPort', 'entity.validation.pattern'],
      ['contentType', 'entity.validation.pattern'],
      ['cron', 'utils.fieldValidation.cronRegexError'],
    ]);
  });

  it('keeps a stored password when an update sends null or the mask, but a create needs one', () => {
    expect(emailConnectionViolations({ ...validEmail, password: null }, { hasStoredPassword: true })).toEqual(
      [],
    );
    expect(
      emailConnectionViolations({ ...validEmail, password: MASKED_SECRET }, { hasStoredPassword: true }),
    ).toEqual([]);
    expect(keys(emailConnectionViolations({ ...validEmail, password: MASKED_SECRET }))).toEqual([
      ['password', 'entity.validation.required'],
    ]);
  });
});

describe('SFTP connection rules', () => {
  it('accepts a password connection and a key connection', () => {
    expect(sftpConnectionViolations(validSftp)).toEqual([]);
    expect(
      sftpConnectionViolations({
        ...validSftp,
        password: { useKey: true, username: 'bot', publicKey: 'ssh-ed25519 AAA', privateKey: '-----BEGIN' },
      }),
    ).toEqual([]);
  });

  it('requires name and address, checks the address and the port range', () => {
    expect(keys(sftpConnectionViolations({ ...validSftp, name: '', address: '', port: null }))).toEqual([
      ['name', 'entity.validation.required'],
      ['address', 'entity.validation.required'],
      ['port', 'entity.validation.required'],
    ]);
    expect(keys(sftpConnectionViolations({ ...validSftp, address: 'bad_host!', port: 70000 }))).toEqual([
      ['address', 'domainOrIpError'],
      ['port', 'entity.validation.max'],
    ]);
  });

  it('requires username and password without a key, public and private key with one', () => {
    expect(keys(sftpConnectionViolations({ ...validSftp, password: { useKey: false } }))).toEqual([
      ['password.username', 'entity.validation.required'],
      ['password.password', 'entity.validation.required'],
    ]);
    expect(
      keys(sftpConnectionViolations({ ...validSftp, password: { useKey: true, username: 'x' } })),
    ).toEqual([
      ['password.publicKey', 'entity.validation.required'],
      ['password.privateKey', 'entity.validation.required'],
    ]);
  });

  it('keeps the stored password or private key when the update sends null or the mask', () => {
    const masked = { ...validSftp, password: { ...validSftp.password, password: MASKED_SECRET } };
    expect(sftpConnectionViolations(masked, { password: true })).toEqual([]);
    expect(keys(sftpConnectionViolations(masked))).toEqual([
      ['password.password', 'entity.validation.required'],
    ]);
    const key = {
      ...validSftp,
      password: { useKey: true, username: 'x', publicKey: 'ssh-rsa A', privateKey: null },
    };
    expect(sftpConnectionViolations(key, { privateKey: true })).toEqual([]);
    // a stored password does not stand in for a private key when switching to keys
    expect(keys(sftpConnectionViolations(key, { password: true }))).toEqual([
      ['password.privateKey', 'entity.validation.required'],
    ]);
  });

  // ssh-keygen -lf host.pub -E sha256 of an ed25519 key
  const FINGERPRINT = 'SHA256:LDLghhCavK2aZjgyiexiXug/6nKTW3fi5bXdzDT9GuU';

  it('accepts an OpenSSH SHA256 fingerprint or no host key, and refuses anything else', () => {
    for (const hostKey of [FINGERPRINT, ` ${FINGERPRINT} `, null, undefined, '', '  '])
      expect(sftpConnectionViolations({ ...validSftp, hostKey })).toEqual([]);
    for (const hostKey of [
      FINGERPRINT.replace('SHA256:', ''), // no prefix
      FINGERPRINT.replace('SHA256:', 'MD5:'),
      `${FINGERPRINT}=`, // padded
      FINGERPRINT.slice(0, -1), // 42 characters
      `${FINGERPRINT}A`, // 44 characters
      FINGERPRINT.replace('LDL', 'L-L'), // not base64
      FINGERPRINT.slice(0, -1) + 't', // 43 characters that are not 32 bytes (low bits set)
      'c6:7e:6a:0b:5d:53:ce:7c:4b:a2:b1:3c:3f:3e:ad:0c', // MD5 hex
    ])
      expect(keys(sftpConnectionViolations({ ...validSftp, hostKey }))).toEqual([
        ['hostKey', 'soaApp.sftpConnection.hostKeyInvalid'],
      ]);
  });

  it('keeps the stored pin when the host key is absent and the server is the same, and clears it otherwise', () => {
    const stored = { address: 'sftp.example.com', port: 22, hostKey: FINGERPRINT };
    const other = 'SHA256:' + 'A'.repeat(43);
    expect(sftpHostKeyOf({ address: 'SFTP.example.com ', port: 22 }, stored)).toBe(FINGERPRINT);
    expect(sftpHostKeyOf({ address: 'sftp.example.com', port: null }, stored)).toBe(FINGERPRINT);
    expect(sftpHostKeyOf({ address: 'other.example.com', port: 22 }, stored)).toBeNull();
    expect(sftpHostKeyOf({ address: 'sftp.example.com', port: 2222 }, stored)).toBeNull();
    expect(sftpHostKeyOf({ address: 'other.example.com', hostKey: other }, stored)).toBe(other);
    expect(sftpHostKeyOf({ address: 'sftp.example.com', hostKey: null }, stored)).toBeNull();
    expect(sftpHostKeyOf({ address: 'sftp.example.com', hostKey: '' }, stored)).toBeNull();
    expect(sftpHostKeyOf({ address: 'sftp.example.com', hostKey: ` ${other}` })).toBe(other);
    expect(sftpHostKeyOf({ address: 'sftp.example.com' })).toBeNull();
  });
});

describe('cloud-drive connection rules', () => {
  it('requires name and folder id', () => {
    expect(driveConnectionViolations({ name: 'Reports', folderId: '1AbC' })).toEqual([]);
    expect(keys(driveConnectionViolations({ name: ' ', folderId: null }))).toEqual([
      ['name', 'entity.validation.required'],
      ['folderId', 'entity.validation.required'],
    ]);
  });

  it('needs every configured scope among the granted ones', () => {
    const drive = 'https://www.googleapis.com/auth/drive.file';
    expect(scopeGranted(`openid ${drive} email`, drive)).toBe(true);
    expect(scopeGranted('https://www.googleapis.com/auth/drive.readonly', drive)).toBe(false);
    expect(scopeGranted(undefined, drive)).toBe(false);
    expect(scopeGranted(`${drive} a`, `${drive} b`)).toBe(false);
  });

  it('allows one connection per node', () => {
    expect(driveConnectionCountAllowed(0)).toBe(true);
    expect(driveConnectionCountAllowed(1)).toBe(true);
    expect(driveConnectionCountAllowed(2)).toBe(false);
  });
});
