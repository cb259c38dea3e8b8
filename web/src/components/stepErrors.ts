/**
 * A step's error message in the reader's language (issue 29 section 2): the catalogue key of the message
 * (domain/step-errors.ts) translated from error.json, else the message as the step keeps it.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { stepErrorKey } from '@domain/step-errors';

export function useStepErrorText(): (message: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (message: string) => {
      const known = stepErrorKey(message);
      if (!known) return message;
      const params = Object.fromEntries(
        Object.entries(known.params).map(([k, v]) => [k, k === 'what' ? t(`error.step.what.${v}`) : v]),
      );
      return t(known.key, { ...params, defaultValue: message });
    },
    [t],
  );
}
