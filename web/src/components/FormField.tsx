/** Form building blocks: a labelled field with its validation message (a domain Violation) underneath. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Violation } from '@domain';

export interface FieldProps {
  id: string;
  label: ReactNode;
  violation: Violation | null;
  /** Show the message (field touched or form submitted). */
  show: boolean;
  children: ReactNode;
  help?: ReactNode;
  className?: string;
}

export function Field({ id, label, violation, show, children, help, className }: FieldProps) {
  return (
    <div className={className ?? 'mb-3'}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      {children}
      {help && <div className="form-text">{help}</div>}
      {show && violation && <ViolationMessage violation={violation} testId={`${id}-error`} />}
    </div>
  );
}

export function ViolationMessage({ violation, testId }: { violation: Violation; testId?: string }) {
  const { t } = useTranslation();
  return (
    <div className="invalid-feedback d-block" data-testid={testId}>
      {t(violation.key, violation.params ?? {})}
    </div>
  );
}

/** The input class with Bootstrap's invalid state. */
export const inputClass = (violation: Violation | null, show: boolean, base = 'form-control') =>
  `${base}${show && violation ? ' is-invalid' : ''}`;
