/**
 * What the label modals (classifier label, NER label, relation) share: the modal with Cancel and Save around
 * a form, which fields show their message, and the labelled blocks for the name and a colour.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Violation } from '@domain';
import { ViolationMessage, inputClass } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';
import { ColorPalette } from './ColorPalette';

/** A field's message shows once it was changed or a save was tried. */
export function useShownFields() {
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  return {
    show: (field: string) => submitted || !!touched[field],
    touch: (field: string) => setTouched((tc) => (tc[field] ? tc : { ...tc, [field]: true })),
    setSubmitted,
  };
}

/** The modal of a label form: Enter in a field submits, like Save. */
export function LabelFormModal({
  title,
  testId,
  saveTestId,
  size,
  saveDisabled,
  onSubmit,
  onClose,
  children,
}: {
  title: ReactNode;
  testId: string;
  saveTestId: string;
  size?: 'lg';
  saveDisabled: boolean;
  onSubmit: (e?: FormEvent) => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      title={title}
      onClose={onClose}
      size={size}
      testId={testId}
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={saveDisabled}
            onClick={() => onSubmit()}
            data-testid={saveTestId}
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        {children}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

/**
 * A label (a <label> for the control `id`, else plain text), the control, then its message or, without one,
 * the help text.
 */
export function LabelField({
  id,
  label,
  violation,
  help,
  className = 'mb-3',
  children,
}: {
  id?: string;
  label: ReactNode;
  violation: Violation | null;
  help?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      {id ? (
        <label htmlFor={id} className="form-label">
          {label}
        </label>
      ) : (
        <div className="form-label">{label}</div>
      )}
      {children}
      {violation ? (
        <ViolationMessage violation={violation} />
      ) : (
        help && <div className="form-text">{help}</div>
      )}
    </div>
  );
}

/** The name of a label or relation (focused when the modal opens); `violation` only when it is to show. */
export function NameField({
  id,
  value,
  onChange,
  violation,
  help,
  className,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  violation: Violation | null;
  help?: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <LabelField
      id={id}
      label={t('soaApp.labels.common.name')}
      violation={violation}
      help={help}
      className={className}
    >
      <input
        id={id}
        className={inputClass(violation, true)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoFocus
        autoComplete="off"
        data-testid={id}
      />
    </LabelField>
  );
}

/** A colour picked from the palette (or from `colors`). */
export function ColorField({
  label,
  value,
  onChange,
  violation,
  testId,
  colors,
  className,
}: {
  label: string;
  value: string;
  onChange: (color: string) => void;
  violation: Violation | null;
  testId: string;
  colors?: readonly string[];
  className?: string;
}) {
  return (
    <LabelField label={label} violation={violation} className={className}>
      <ColorPalette value={value} colors={colors} onChange={onChange} label={label} testId={testId} />
    </LabelField>
  );
}
