/**
 * Inputs bound to an account page's useForm(): a labelled input with its message (shown once the field was
 * changed or a submit was tried), and the new password (with the strength meter) plus its confirmation.
 */
import type { InputHTMLAttributes, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Violation } from '@domain';
import { Field, inputClass } from '../../../components/FormField';
import { PasswordStrengthBar } from '../../../components/PasswordStrengthBar';

/** What these inputs use of useForm(). */
export interface BoundForm {
  text(name: string): {
    id: string;
    name: string;
    value: string;
    onChange: (e: { target: { value: string } }) => void;
  };
  show(name: string): boolean;
}

/** The input's id and name are the form field's name. */
export function FormInput({
  form,
  name,
  label,
  violation,
  testId,
  children,
  ...input
}: Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'form' | 'id' | 'name' | 'value' | 'onChange' | 'className'
> & {
  form: BoundForm;
  name: string;
  label: ReactNode;
  violation: Violation | null;
  testId: string;
  /** Shown under the input, above the message. */
  children?: ReactNode;
}) {
  const show = form.show(name);
  return (
    <Field id={name} label={label} violation={violation} show={show}>
      <input {...form.text(name)} className={inputClass(violation, show)} data-testid={testId} {...input} />
      {children}
    </Field>
  );
}

/** A new password with its strength meter, then its confirmation (the form field `confirmPassword`). */
export function PasswordPair({
  form,
  name,
  violation,
  testId,
  confirmViolation,
  confirmTestId,
}: {
  form: BoundForm;
  /** The form field of the new password. */
  name: string;
  violation: Violation | null;
  testId: string;
  confirmViolation: Violation | null;
  confirmTestId: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <FormInput
        form={form}
        name={name}
        label={t('global.form.newpassword.label')}
        violation={violation}
        type="password"
        autoComplete="new-password"
        placeholder={t('global.form.newpassword.placeholder')}
        testId={testId}
      >
        <PasswordStrengthBar password={form.text(name).value} />
      </FormInput>
      <FormInput
        form={form}
        name="confirmPassword"
        label={t('global.form.confirmpassword.label')}
        violation={confirmViolation}
        type="password"
        autoComplete="new-password"
        placeholder={t('global.form.confirmpassword.placeholder')}
        testId={confirmTestId}
      />
    </>
  );
}
