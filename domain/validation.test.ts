import {
  confirmPasswordRule,
  currentPasswordForEmailRule,
  documentFilenameRule,
  cronRule,
  deleteConfirmationMatches,
  domainOrIpRule,
  emailRule,
  loginRule,
  passwordRule,
  passwordStrength,
  simpleEmailRule,
  colorRule,
  predefinedTagRule,
  processNameRule,
  strengthBars,
  tagNameRule,
  textLengthRule,
  textPatternRule,
  urlRule,
  pageSizeRule,
} from './validation';

const key = (v: { key: string } | null) => v?.key ?? null;

describe('account rules', () => {
  it('checks the username: required, 1 to 50, letters digits _ . @ - only', () => {
    expect(key(loginRule(''))).toBe('register.messages.validate.login.required');
    expect(key(loginRule('a'.repeat(51)))).toBe('register.messages.validate.login.maxlength');
    expect(key(loginRule('bad name'))).toBe('register.messages.validate.login.pattern');
    expect(key(loginRule('ok_name.1@x-y'))).toBeNull();
  });

  it('checks the e-mail: required, 5 to 254, local@domain', () => {
    expect(key(emailRule(''))).toBe('global.messages.validate.email.required');
    expect(key(emailRule('a@b'))).toBe('global.messages.validate.email.minlength');
    expect(key(emailRule(`${'a'.repeat(250)}@b.cd`))).toBe('global.messages.validate.email.maxlength');
    expect(key(emailRule('nobody.example.com'))).toBe('global.messages.validate.email.invalid');
    expect(key(emailRule('me@example.com'))).toBeNull();
  });

  it('checks the password 4 to 50 and the repeated password', () => {
    expect(key(passwordRule(''))).toBe('global.messages.validate.newpassword.required');
    expect(key(passwordRule('abc'))).toBe('global.messages.validate.newpassword.minlength');
    expect(key(passwordRule('a'.repeat(51)))).toBe('global.messages.validate.newpassword.maxlength');
    expect(key(passwordRule('abcd'))).toBeNull();
    expect(key(confirmPasswordRule('abcd', ''))).toBe('global.messages.validate.confirmpassword.required');
    expect(key(confirmPasswordRule('abcde', 'abcdf'))).toBe('global.messages.error.dontmatch');
    expect(key(confirmPasswordRule('abcde', 'abcde'))).toBeNull();
  });

  it('asks for the current password only when the e-mail changes (in another case it does not)', () => {
    const required = 'global.messages.validate.currentpassword.required';
    const rule = currentPasswordForEmailRule('me@example.com', 'new@example.com');
    expect(key(rule(''))).toBe(required);
    expect(key(rule(undefined))).toBe(required);
    expect(key(rule(null))).toBe(required);
    expect(key(rule('secret'))).toBeNull();
    expect(key(currentPasswordForEmailRule('me@example.com', 'ME@Example.com')(''))).toBeNull();
  });
});

describe('password strength', () => {
  it('scores 2 per character, +1 from 10 characters, +10 per class, with the caps of the spec', () => {
    expect(passwordStrength('')).toBe(0);
    expect(passwordStrength('abcdef')).toBe(10); // capped: length <= 6
    expect(passwordStrength('abcdefghij')).toBe(10); // capped: one class
    expect(passwordStrength('abcdefG1')).toBe(40); // 16 + 30, three classes capped at 40
    expect(passwordStrength('abcdefgH')).toBe(20); // two classes capped at 20
    expect(passwordStrength('abcdeF1!xyz')).toBe(2 * 11 + 1 + 40);
  });

  it('lights bars at 10, 20, 30 and 40 from red to green', () => {
    expect(strengthBars(5)).toEqual({ bars: 1, color: '#F00' });
    expect(strengthBars(20)).toEqual({ bars: 2, color: '#F90' });
    expect(strengthBars(30)).toEqual({ bars: 3, color: '#FF0' });
    expect(strengthBars(40)).toEqual({ bars: 4, color: '#9F0' });
    expect(strengthBars(63)).toEqual({ bars: 5, color: '#0F0' });
  });
});

describe('process and tag rules', () => {
  it('requires a process name of at most 255 characters that no other process has', () => {
    expect(key(processNameRule(' '))).toBe('entity.validation.required');
    expect(key(processNameRule('x'.repeat(256)))).toBe('entity.validation.maxlength');
    expect(key(processNameRule('Invoices', ['invoices ']))).toBe('soaApp.process.nameNotUnique');
    expect(key(processNameRule('Invoices', ['Orders']))).toBeNull();
  });

  it('requires exactly one predefined tag', () => {
    expect(key(predefinedTagRule([]))).toBe('soaApp.process.predefinedTagRequired');
    expect(key(predefinedTagRule([{ predefined: false }]))).toBe('soaApp.process.predefinedTagRequired');
    expect(key(predefinedTagRule([{ predefined: true }, { predefined: true }]))).toBe(
      'soaApp.process.predefinedTagRequired',
    );
    expect(key(predefinedTagRule([{ predefined: true }, { predefined: false }]))).toBeNull();
  });

  it('requires a unique tag name of at most 50 characters', () => {
    expect(key(tagNameRule('t'.repeat(51)))).toBe('entity.validation.maxlength');
    expect(key(tagNameRule('Urgent', ['urgent']))).toBe(
      'soaApp.processTag.createEditModal.body.error.nameNotUnique',
    );
    expect(key(tagNameRule('Urgent', ['Later']))).toBeNull();
  });

  it('enables delete only on the exact name', () => {
    expect(deleteConfirmationMatches('Demo', 'Demo')).toBe(true);
    expect(deleteConfirmationMatches('demo', 'Demo')).toBe(false);
    expect(deleteConfirmationMatches('Demo ', 'Demo')).toBe(false);
  });
});

describe('shared field helpers', () => {
  it('checks text length 3 to 35 by default', () => {
    expect(key(textLengthRule()('ab'))).toBe('textLengthError');
    expect(key(textLengthRule()('abc'))).toBeNull();
    expect(key(textLengthRule()('a'.repeat(36)))).toBe('textLengthError');
  });

  it('checks the name pattern and its extended variant', () => {
    expect(key(textPatternRule()('Node 1'))).toBeNull();
    expect(key(textPatternRule()('Żółw'))).toBeNull();
    expect(key(textPatternRule()(' lead'))).toBe('textRegexError');
    expect(key(textPatternRule()('a/b'))).toBe('textRegexError');
    expect(key(textPatternRule(true)('a/b (c), d.e'))).toBeNull();
  });

  it('checks URLs, domains and cron expressions', () => {
    expect(key(urlRule('https://example.com/x'))).toBeNull();
    expect(key(urlRule('10.0.0.1'))).toBeNull();
    expect(key(urlRule('ftp://example.com'))).toBe('urlRegexError');
    expect(key(domainOrIpRule('localhost'))).toBeNull();
    expect(key(domainOrIpRule('mail.example.com'))).toBeNull();
    expect(key(domainOrIpRule('not a host'))).toBe('domainOrIpError');
    expect(key(cronRule('0 0/5 * * * ?'))).toBeNull();
    expect(key(cronRule('0 0 12 ? * MON-FRI 2027'))).toBeNull();
    expect(key(cronRule('* * *'))).toBe('cronError');
  });
});

describe('document rules', () => {
  it('requires a filename of at most 255 characters', () => {
    expect(key(documentFilenameRule(' '))).toBe('entity.validation.required');
    expect(key(documentFilenameRule(`${'a'.repeat(252)}.txt`))).toBe('entity.validation.maxlength');
    expect(key(documentFilenameRule('report.pdf'))).toBeNull();
  });
});

describe('input that would make a backtracking pattern crawl', () => {
  it('refuses a 40,000-character e-mail address by its length', () => {
    const long = 'a@' + 'a.'.repeat(20_000) + ' ';
    expect(emailRule(long)).toEqual({ code: 'Size', key: 'global.messages.validate.email.maxlength' });
    expect(simpleEmailRule(long)).toEqual({
      code: 'Size',
      key: 'entity.validation.maxlength',
      params: { max: 254 },
    });
  });
  it('keeps the simple e-mail rule: local@domain with a dot inside the domain', () => {
    expect(simpleEmailRule('jan@example.pl')).toBeNull();
    expect(simpleEmailRule('jan@b..c')).toBeNull();
    for (const bad of ['jan@example', 'jan@.pl', 'jan@pl.', 'jan@@x.pl', 'j an@x.pl', ''])
      expect(key(simpleEmailRule(bad))).toBe('emailError');
  });
  it('accepts #rrggbb process tag colours only', () => {
    expect(colorRule('#a1B2c3')).toBeNull();
    expect(key(colorRule('#abc'))).toBe('soaApp.processTag.colorInvalid');
    expect(key(colorRule('#' + 'a'.repeat(1_000_000)))).toBe('soaApp.processTag.colorInvalid');
    expect(key(colorRule('blue'))).toBe('soaApp.processTag.colorInvalid');
  });
});

describe('page sizes', () => {
  it('answers the pager sizes and the statistics documents size 5, nothing else', () => {
    expect([5, 10, 20, 50].every(pageSizeRule)).toBe(true);
    expect([0, 1, 7, 15, 100].some(pageSizeRule)).toBe(false);
  });
});
