/** Edit a node's name (required, unique in the process, the text pattern) and description. */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { nodeNameRule } from '@domain/nodes';
import { Field, inputClass } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';

export interface NodeNameModalProps {
  name: string;
  description: string | null;
  otherNames: readonly string[];
  pending: boolean;
  onSave: (name: string, description: string | null) => void;
  onClose: () => void;
}

export function NodeNameModal({
  name: initialName,
  description: initialDescription,
  otherNames,
  pending,
  onSave,
  onClose,
}: NodeNameModalProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [description, setDescription] = useState(initialDescription ?? '');
  const [touched, setTouched] = useState(false);
  const violation = nodeNameRule(name, otherNames);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (violation || pending) return;
    onSave(name.trim(), description.trim() || null);
  };

  return (
    <Modal
      title={t('soaApp.nodePanel.name.title')}
      onClose={onClose}
      testId="node-name-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!!violation || pending}
            onClick={() => submit()}
            data-testid="node-name-save"
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <form onSubmit={submit} noValidate>
        <Field id="node-name" label={t('soaApp.nodePanel.name.name')} violation={violation} show={touched}>
          <input
            id="node-name"
            className={inputClass(violation, touched)}
            value={name}
            autoFocus
            autoComplete="off"
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            data-testid="node-name-input"
          />
        </Field>
        <div className="mb-2">
          <label htmlFor="node-description" className="form-label">
            {t('soaApp.nodePanel.name.description')}
          </label>
          <textarea
            id="node-description"
            className="form-control"
            rows={3}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            data-testid="node-description-input"
          />
        </div>
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
