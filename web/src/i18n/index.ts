/**
 * i18next setup. English is the default, Polish is complete. A locale is loaded from the API
 * (GET i18n/{locale}.json?buildTimestamp=..., the deep merge of web/src/i18n/{locale}/*.json); when the API
 * cannot serve it (e.g. static preview) the same files bundled as lazy chunks are merged here instead.
 * The user's choice is kept in session storage under `locale`.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LOCALE_STORAGE_KEY, basePath } from '../config';
import { deepMerge, type Messages } from './merge';

export const LOCALES = ['en', 'pl'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const isLocale = (v: unknown): v is Locale =>
  typeof v === 'string' && (LOCALES as readonly string[]).includes(v);

const bundled = import.meta.glob<Messages>('./*/*.json', { import: 'default' });

async function loadBundled(locale: Locale): Promise<Messages> {
  const files = Object.entries(bundled).filter(([path]) => path.startsWith(`./${locale}/`));
  const parts = await Promise.all(files.map(([, load]) => load()));
  return parts.reduce<Messages>((acc, part) => deepMerge(acc, part), {});
}

async function fetchLocale(locale: Locale): Promise<Messages> {
  try {
    const url = `${basePath()}i18n/${locale}.json?buildTimestamp=${encodeURIComponent(__BUILD_TIMESTAMP__)}`;
    const res = await fetch(url, { headers: { Accept: 'application/json' } });
    const type = res.headers.get('content-type') ?? '';
    if (res.ok && type.includes('json')) return (await res.json()) as Messages;
  } catch {
    /* fall back to the bundled files */
  }
  return loadBundled(locale);
}

/** Loads a locale's messages if they are not loaded yet. */
export async function loadLocale(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'translation')) return;
  const messages = await fetchLocale(locale);
  i18n.addResourceBundle(locale, 'translation', messages, true, true);
}

/** Switches the UI language; `remember` stores the choice in session storage. */
export async function setLocale(locale: Locale, remember = true): Promise<void> {
  await loadLocale(locale);
  if (remember) sessionStorage.setItem(LOCALE_STORAGE_KEY, locale);
  await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export function sessionLocale(): Locale | null {
  const stored = sessionStorage.getItem(LOCALE_STORAGE_KEY);
  return isLocale(stored) ? stored : null;
}

export function clearSessionLocale(): void {
  sessionStorage.removeItem(LOCALE_STORAGE_KEY);
}

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/** Initialises i18next with the session's locale (or English) and loads its messages. */
export async function initI18n(): Promise<typeof i18n> {
  const locale = sessionLocale() ?? DEFAULT_LOCALE;
  await i18n.use(initReactI18next).init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    resources: {},
    partialBundledLanguages: true,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });
  await loadLocale(locale);
  if (locale !== DEFAULT_LOCALE) void loadLocale(DEFAULT_LOCALE);
  document.documentElement.lang = locale;
  return i18n;
}

export default i18n;
