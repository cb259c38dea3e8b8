/** Language switcher (shown when more than one locale exists); the choice is kept in session storage. */
import { useTranslation } from 'react-i18next';
import { Dropdown } from '../../../components/Dropdown';
import { IconGlobe } from '../../../components/icons';
import { LOCALES, currentLocale, setLocale } from '../../../i18n';

export function LanguageMenu({ nav = true, toggleClassName }: { nav?: boolean; toggleClassName?: string }) {
  const { t, i18n } = useTranslation();
  if (LOCALES.length < 2) return null;
  const active = currentLocale();
  return (
    <Dropdown
      nav={nav}
      align="end"
      testId="language-menu"
      toggleClassName={toggleClassName}
      label={
        <>
          <IconGlobe className="me-1" />
          <span>{t(`shell.languages.${active}`)}</span>
        </>
      }
    >
      {LOCALES.map((locale) => (
        <li key={locale}>
          <button
            type="button"
            className={`dropdown-item ${i18n.language === locale ? 'active' : ''}`}
            lang={locale}
            data-testid={`language-${locale}`}
            onClick={() => void setLocale(locale)}
          >
            {t(`shell.languages.${locale}`)}
          </button>
        </li>
      ))}
    </Dropdown>
  );
}
