/** The 5-bar password strength meter; the score and bar colours come from the domain rules. */
import { useTranslation } from 'react-i18next';
import { passwordStrength, strengthBars } from '@domain';

const BAR_COUNT = 5;

export function PasswordStrengthBar({ password }: { password: string }) {
  const { t } = useTranslation();
  const { bars, color } = password ? strengthBars(passwordStrength(password)) : { bars: 0, color: '' };
  return (
    <div className="password-strength mt-2" data-testid="password-strength" data-bars={bars}>
      <small className="text-body-secondary me-2">{t('global.messages.validate.newpassword.strength')}</small>
      <ul className="password-strength-bars" aria-hidden="true">
        {Array.from({ length: BAR_COUNT }, (_, i) => (
          <li key={i} style={{ backgroundColor: i < bars ? color : undefined }} />
        ))}
      </ul>
    </div>
  );
}
