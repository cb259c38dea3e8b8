/** Create a secret: name (required, at most 50 characters), value (required), active (default on). */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { secretNameRule, secretValueRule } from '@domain/integrations';
import { Field, inputClass } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';
import { useCreateSecret } from '../api';

export interface SecretCreateModalProps {
  processId: number;
  existingNames: readonly string[];
  onClose: () => void;
}

export function SecretCreateModal({ processId, existingNames, onClose }: SecretCreateModalProps) {
  const { t } = useTranslation();
  const create = useCreateSecret(processId);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [active, setActive] = useState(true);
  const [touched, setTouched] = useState({ name: false, value: false });

  const nameViolation = secretNameRule(name, existingNames);
  const valueViolation = secretValueRule(value);
  const invalid = !!nameViolation || !!valueViolation;

  const onSubmit = (e?: FormEvent) => {
    e?.preventDefault();
    setTouched({ name: true, value: true });
    if (invalid || create.isPending) return;
    create.mutate({ name: name.trim(), value, active, processId }, { onSuccess: onClose });
  };

  return (
    <Modal
      title={t('soaApp.secret.create.title')}
      onClose={onClose}
      testId="secret-create-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={invalid || create.isPending}
            onClick={() => onSubmit()}
            data-testid="secret-save"
          >
            {t('global.common.create')}
          </button>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Field
          id="secret-name"
          label={t('soaApp.secret.field.name')}
          violation={nameViolation}
          show={touched.name}
        >
          <input
            id="secret-name"
            className={inputClass(nameViolation, touched.name)}
            value={name}
            autoFocus
            autoComplete="off"
            onChange={(e) => {
              setName(e.target.value);
              setTouched((s) => ({ ...s, name: true }));
            }}
            data-testid="secret-name"
          />
        </Field>
        <Field
          id="secret-value"
          label={t('soaApp.secret.field.value')}
          violation={valueViolation}
          show={touched.value}
          help={t('soaApp.secret.create.valueHelp')}
        >
          <input
            id="secret-value"
            type="password"
            className={inputClass(valueViolation, touched.value)}
            value={value}
            autoComplete="new-password"
            onChange={(e) => {
              setValue(e.target.value);
              setTouched((s) => ({ ...s, value: true }));
            }}
            data-testid="secret-value"
          />
        </Field>
        <div className="form-check form-switch">
          <input
            id="secret-active-new"
            type="checkbox"
            role="switch"
            className="form-check-input"
            checked={active}
            onChange={(e) => setActive(e.target.checked)}
            data-testid="secret-active-new"
          />
          <label htmlFor="secret-active-new" className="form-check-label">
            {t('soaApp.secret.field.active')}
          </label>
        </div>
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
