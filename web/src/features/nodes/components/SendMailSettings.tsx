/**
 * Send-mail node: the trigger, the SMTP server (host, port, username, secret), the subject, the template with
 * its wildcards and the receivers (e-mail and type DO / DW / UDW; new ones get a negative temporary id that
 * the API drops on save).
 */
import { useTranslation } from 'react-i18next';
import { MailTypes, type MailReceiver, type MailType } from '@domain/graph-types';
import { IconPlus, IconTrash } from '../../../components/icons';
import { useNodeForm } from '../form';
import { temporaryId } from '../temporaryId';
import { FieldError, NumberInput, TextInput } from './fields';
import { SecretSelect } from './LlmPromptSettings';
import { TemplateField, plainEditorState } from './TemplateField';
import { TriggerSettings } from './TriggerSettings';
import { inputClass } from '../../../components/FormField';

export function SendMailSettings() {
  const { t } = useTranslation();
  const { draft, patch, readOnly, error } = useNodeForm();
  const receivers = draft.mailReceivers ?? [];

  // A receiver's messages show once that receiver's own field was changed (a new empty row shows none).
  const setReceiver = (index: number, change: Partial<MailReceiver>) =>
    patch(
      { mailReceivers: receivers.map((r, i) => (i === index ? { ...r, ...change } : r)) },
      Object.keys(change).map((k) => `mailReceivers[${index}].${k}`),
    );

  return (
    <>
      <TriggerSettings />
      <div className="node-subtitle">{t('soaApp.nodePanel.mail.server')}</div>
      <div className="row g-2">
        <TextInput
          id="node-smtp-host"
          field="smtpHost"
          className="col-8 mb-3"
          label={t('soaApp.nodePanel.mail.smtpHost')}
          value={draft.smtpHost}
          placeholder="smtp.example.com"
          onChange={(smtpHost) => patch({ smtpHost })}
          testId="mail-smtp-host"
        />
        <NumberInput
          id="node-smtp-port"
          field="smtpPort"
          className="col-4 mb-3"
          label={t('soaApp.nodePanel.mail.smtpPort')}
          value={draft.smtpPort}
          min={1}
          max={65535}
          step={1}
          onChange={(smtpPort) => patch({ smtpPort })}
          testId="mail-smtp-port"
        />
      </div>
      <TextInput
        id="node-smtp-username"
        field="username"
        label={t('soaApp.nodePanel.mail.username')}
        value={draft.username}
        onChange={(username) => patch({ username })}
        testId="mail-username"
      />
      <SecretSelect id="node-mail-secret" field="secret" testId="mail-secret" />

      <div className="node-subtitle">{t('soaApp.nodePanel.mail.message')}</div>
      <TextInput
        id="node-mail-subject"
        field="subject"
        label={t('soaApp.nodePanel.mail.subject')}
        value={draft.subject}
        onChange={(subject) => patch({ subject })}
        testId="mail-subject"
      />
      <TemplateField
        id="node-mail-template"
        field="template"
        context="node"
        label={t('soaApp.nodePanel.mail.template')}
        value={draft.template}
        rows={7}
        onChange={(template) => patch({ template, templateEditorState: plainEditorState(template) })}
        testId="mail-template"
      />

      <div className="d-flex align-items-center mt-2 mb-1">
        <div className="node-subtitle m-0 me-auto">{t('soaApp.nodePanel.mail.receivers')}</div>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={readOnly}
          onClick={() =>
            patch({ mailReceivers: [...receivers, { id: temporaryId(), email: '', type: 'DO' }] }, [])
          }
          data-testid="mail-receiver-add"
        >
          <IconPlus className="me-1" />
          {t('soaApp.nodePanel.mail.addReceiver')}
        </button>
      </div>
      {receivers.length === 0 ? (
        <div className="text-body-secondary small mb-2">{t('soaApp.nodePanel.mail.noReceivers')}</div>
      ) : (
        <div className="mail-receivers">
          {receivers.map((r, i) => {
            const emailError = error(`mailReceivers[${i}].email`);
            return (
              <div key={r.id ?? `new-${i}`} className="mb-2" data-testid="mail-receiver">
                <div className="input-group input-group-sm">
                  <input
                    type="email"
                    className={inputClass(emailError, true)}
                    value={r.email}
                    disabled={readOnly}
                    placeholder={t('soaApp.nodePanel.mail.receiverEmail')}
                    aria-label={t('soaApp.nodePanel.mail.receiverEmail')}
                    onChange={(e) => setReceiver(i, { email: e.target.value })}
                    data-testid="mail-receiver-email"
                  />
                  <select
                    className="form-select flex-grow-0 w-auto"
                    value={r.type}
                    disabled={readOnly}
                    aria-label={t('soaApp.nodePanel.mail.receiverType')}
                    onChange={(e) => setReceiver(i, { type: e.target.value as MailType })}
                    data-testid="mail-receiver-type"
                  >
                    {MailTypes.map((type) => (
                      <option key={type} value={type} title={t(`soaApp.nodePanel.mail.types.${type}`)}>
                        {type}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="btn btn-outline-danger"
                    disabled={readOnly}
                    title={t('global.common.delete')}
                    onClick={() => patch({ mailReceivers: receivers.filter((_, j) => j !== i) }, [])}
                    data-testid="mail-receiver-remove"
                  >
                    <IconTrash />
                    <span className="visually-hidden">{t('global.common.delete')}</span>
                  </button>
                </div>
                <FieldError field={`mailReceivers[${i}].email`} />
                <FieldError field={`mailReceivers[${i}].type`} />
              </div>
            );
          })}
        </div>
      )}
      <div className="form-text">{t('soaApp.nodePanel.mail.typesHelp')}</div>
    </>
  );
}
