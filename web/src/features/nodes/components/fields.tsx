/** Small form controls bound to the node form: a text, number, select or checkbox field with its message. */
import type { ReactNode } from 'react';
import { Field, ViolationMessage, inputClass } from '../../../components/FormField';
import { useNodeForm } from '../form';

/** The message under a field (from the node form), if any. */
export function FieldError({ field, id }: { field: string; id?: string }) {
  const { error } = useNodeForm();
  const v = error(field);
  return v ? <ViolationMessage violation={v} testId={id ? `${id}-error` : undefined} /> : null;
}

interface BaseProps {
  id: string;
  /** Error path of the field (defaults to the id). */
  field: string;
  label: ReactNode;
  testId?: string;
  help?: ReactNode;
  className?: string;
}

export function TextInput({
  id,
  field,
  label,
  value,
  onChange,
  testId,
  help,
  className,
  type = 'text',
  placeholder,
  autoComplete = 'off',
}: BaseProps & {
  value: string | null | undefined;
  onChange: (v: string) => void;
  type?: string;
  placeholder?: string;
  autoComplete?: string;
}) {
  const { error, readOnly } = useNodeForm();
  const v = error(field);
  return (
    <Field id={id} label={label} violation={v} show help={help} className={className}>
      <input
        id={id}
        type={type}
        className={inputClass(v, true)}
        value={value ?? ''}
        disabled={readOnly}
        placeholder={placeholder}
        autoComplete={autoComplete}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </Field>
  );
}

/** A number field; an empty input gives null. */
export function NumberInput({
  id,
  field,
  label,
  value,
  onChange,
  testId,
  help,
  className,
  min,
  max,
  step,
}: BaseProps & {
  value: number | null | undefined;
  onChange: (v: number | null) => void;
  min?: number;
  max?: number;
  step?: number | 'any';
}) {
  const { error, readOnly } = useNodeForm();
  const v = error(field);
  return (
    <Field id={id} label={label} violation={v} show help={help} className={className}>
      <input
        id={id}
        type="number"
        className={inputClass(v, true)}
        value={value ?? ''}
        min={min}
        max={max}
        step={step}
        disabled={readOnly}
        onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}
        data-testid={testId}
      />
    </Field>
  );
}

export function SelectInput({
  id,
  field,
  label,
  value,
  onChange,
  testId,
  help,
  className,
  children,
}: BaseProps & {
  value: string | number | null | undefined;
  onChange: (v: string) => void;
  children: ReactNode;
}) {
  const { error, readOnly } = useNodeForm();
  const v = error(field);
  return (
    <Field id={id} label={label} violation={v} show help={help} className={className}>
      <select
        id={id}
        className={inputClass(v, true, 'form-select')}
        value={value ?? ''}
        disabled={readOnly}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      >
        {children}
      </select>
    </Field>
  );
}

export function CheckInput({
  id,
  label,
  checked,
  onChange,
  testId,
  disabled,
  help,
  className,
  field,
}: Omit<BaseProps, 'field'> & {
  field?: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  disabled?: boolean;
}) {
  const { readOnly } = useNodeForm();
  return (
    <div className={className ?? 'form-check mb-2'}>
      <input
        id={id}
        type="checkbox"
        className="form-check-input"
        checked={checked}
        disabled={readOnly || disabled}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
      {help && <div className="form-text mt-0">{help}</div>}
      {field && <FieldError field={field} id={id} />}
    </div>
  );
}
