/**
 * Texts of the account e-mails (activation, password reset, an account created by an administrator, an e-mail
 * address changed: sent to the old address) in the languages of the UI. A langKey without its own texts falls
 * back to English, the default locale.
 */
import type { MailMessage } from './mail';

export type AccountMailKind = 'activation' | 'passwordReset' | 'creation' | 'emailChanged';

interface MailParams {
  login: string;
  /** the page the mail sends to (emailChanged: the sign-in page) */
  link: string;
  appName: string;
  /** emailChanged: the account's new address */
  email?: string;
}

type Template = (p: MailParams) => { subject: string; text: string };

const TEMPLATES: Record<string, Record<AccountMailKind, Template>> = {
  en: {
    activation: ({ login, link, appName }) => ({
      subject: `${appName} account activation`,
      text: [
        `Dear ${login},`,
        '',
        `Your ${appName} account has been created. Please open the link below to activate it:`,
        '',
        link,
        '',
        'Regards,',
        `The ${appName} team`,
      ].join('\n'),
    }),
    passwordReset: ({ login, link, appName }) => ({
      subject: `${appName} password reset`,
      text: [
        `Dear ${login},`,
        '',
        `A password reset was requested for your ${appName} account. Please open the link below to choose a new password:`,
        '',
        link,
        '',
        'The link is valid for 24 hours. If you did not ask for a new password, ignore this e-mail.',
        '',
        'Regards,',
        `The ${appName} team`,
      ].join('\n'),
    }),
    creation: ({ login, link, appName }) => ({
      subject: `${appName} account created`,
      text: [
        `Dear ${login},`,
        '',
        `An administrator created your ${appName} account. Please open the link below to choose your password:`,
        '',
        link,
        '',
        'The link is valid for 24 hours; after that, ask for a password reset on the sign-in page.',
        '',
        'Regards,',
        `The ${appName} team`,
      ].join('\n'),
    }),
    emailChanged: ({ login, link, appName, email }) => ({
      subject: `${appName} e-mail address changed`,
      text: [
        `Dear ${login},`,
        '',
        `The e-mail address of your ${appName} account was changed to ${email}. Mails about the account, password resets included, now go there.`,
        '',
        `If you did not make this change, sign in at once (${link}), change your password and tell an administrator.`,
        '',
        'Regards,',
        `The ${appName} team`,
      ].join('\n'),
    }),
  },
  pl: {
    activation: ({ login, link, appName }) => ({
      subject: `Aktywacja konta ${appName}`,
      text: [
        `Witaj ${login},`,
        '',
        `Twoje konto w ${appName} zostało utworzone. Otwórz poniższy link, aby je aktywować:`,
        '',
        link,
        '',
        'Pozdrawiamy,',
        `Zespół ${appName}`,
      ].join('\n'),
    }),
    passwordReset: ({ login, link, appName }) => ({
      subject: `Resetowanie hasła ${appName}`,
      text: [
        `Witaj ${login},`,
        '',
        `Poproszono o zresetowanie hasła do Twojego konta w ${appName}. Otwórz poniższy link, aby ustawić nowe hasło:`,
        '',
        link,
        '',
        'Link jest ważny przez 24 godziny. Jeśli to nie Ty prosiłeś o nowe hasło, zignoruj tę wiadomość.',
        '',
        'Pozdrawiamy,',
        `Zespół ${appName}`,
      ].join('\n'),
    }),
    creation: ({ login, link, appName }) => ({
      subject: `Utworzono konto ${appName}`,
      text: [
        `Witaj ${login},`,
        '',
        `Administrator utworzył Twoje konto w ${appName}. Otwórz poniższy link, aby ustawić hasło:`,
        '',
        link,
        '',
        'Link jest ważny przez 24 godziny; później poproś o zresetowanie hasła na stronie logowania.',
        '',
        'Pozdrawiamy,',
        `Zespół ${appName}`,
      ].join('\n'),
    }),
    emailChanged: ({ login, link, appName, email }) => ({
      subject: `Zmieniono adres e-mail konta ${appName}`,
      text: [
        `Witaj ${login},`,
        '',
        `Adres e-mail Twojego konta w ${appName} zmieniono na ${email}. Wiadomości o koncie, także o resetowaniu hasła, trafiają teraz tam.`,
        '',
        `Jeśli to nie Ty zmieniłeś adres, zaloguj się od razu (${link}), zmień hasło i powiadom administratora.`,
        '',
        'Pozdrawiamy,',
        `Zespół ${appName}`,
      ].join('\n'),
    }),
  },
};

export function accountMail(
  kind: AccountMailKind,
  langKey: string,
  to: string,
  params: MailParams,
): MailMessage {
  const template = (TEMPLATES[langKey] ?? TEMPLATES.en)[kind];
  return { to, ...template(params) };
}
