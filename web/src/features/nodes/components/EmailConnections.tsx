/**
 * The e-mail upload connections of a node: a table (host, folder, actions) and the modal 'Add Email Upload
 * Connection Data' (IMAP host and port 993 / 143, address, password, folder, content type, cron). When
 * editing, the stored password shows as the mask and null is sent when it is left unchanged.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  MASKED_SECRET,
  type EmailConnectionDTO,
  type EmailContentType,
  type ImapPort,
} from '@domain/integration-types';
import {
  DEFAULT_EMAIL_FOLDER,
  DEFAULT_IMAP_PORT,
  EMAIL_CONTENT_TYPES,
  IMAP_PORTS,
  emailConnectionViolations,
  isMasked,
  normalizeCron,
} from '@domain/integrations';
import { Field, inputClass } from '../../../components/FormField';
import { IconPencil, IconPlus, IconTrash } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { nodeConfigQueries, useDeleteEmailConnection, useSaveEmailConnection } from '../api';
import { ConfirmModal } from './ConfirmModal';

export function EmailConnections({
  nodeId,
  readOnly,
  showTitle = true,
}: {
  nodeId: number;
  readOnly: boolean;
  /** Off when the panel section already names the table. */
  showTitle?: boolean;
}) {
  const { t } = useTranslation();
  const connections = useQuery(nodeConfigQueries.emailConnections(nodeId));
  const remove = useDeleteEmailConnection(nodeId);
  const [editing, setEditing] = useState<EmailConnectionDTO | 'new' | null>(null);
  const [deleting, setDeleting] = useState<EmailConnectionDTO | null>(null);
  const rows = connections.data ?? [];

  return (
    <div data-testid="email-connections">
      <div className="d-flex align-items-center mb-2">
        <div className="node-subtitle m-0 me-auto">
          {showTitle && t('soaApp.nodePanel.email.connections')}
        </div>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={readOnly}
          onClick={() => setEditing('new')}
          data-testid="email-connection-add"
        >
          <IconPlus className="me-1" />
          {t('soaApp.nodePanel.email.add')}
        </button>
      </div>
      {rows.length === 0 ? (
        <div className="small text-body-secondary mb-2">
          {connections.isPending ? t('global.common.loading') : t('soaApp.nodePanel.email.none')}
        </div>
      ) : (
        <table className="table table-sm node-table mb-2">
          <thead>
            <tr>
              <th>{t('soaApp.nodePanel.email.host')}</th>
              <th>{t('soaApp.nodePanel.email.folder')}</th>
              <th className="col-actions">
                <span className="visually-hidden">{t('soaApp.nodePanel.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id} data-testid="email-connection-row">
                <td>
                  <div>
                    {c.imapHost}:{c.imapPort}
                  </div>
                  <div className="small text-body-secondary">{c.address}</div>
                </td>
                <td>{c.folder}</td>
                <td className="col-actions">
                  <button
                    type="button"
                    className="btn btn-sm btn-link p-1"
                    title={t('global.common.edit')}
                    onClick={() => setEditing(c)}
                    data-testid="email-connection-edit"
                  >
                    <IconPencil />
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-link text-danger p-1"
                    title={t('global.common.delete')}
                    disabled={readOnly}
                    onClick={() => setDeleting(c)}
                    data-testid="email-connection-delete"
                  >
                    <IconTrash />
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && (
        <EmailConnectionModal
          nodeId={nodeId}
          connection={editing === 'new' ? null : editing}
          readOnly={readOnly}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <ConfirmModal
          danger
          title={t('entity.delete.title')}
          confirmLabel={t('global.common.delete')}
          pending={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() => remove.mutate(deleting.id!, { onSuccess: () => setDeleting(null) })}
          confirmTestId="email-connection-delete-confirm"
        >
          {t('soaApp.nodePanel.email.deleteQuestion', { name: deleting.address })}
        </ConfirmModal>
      )}
    </div>
  );
}

interface EmailForm {
  imapHost: string;
  imapPort: ImapPort;
  address: string;
  password: string;
  folder: string;
  contentType: EmailContentType;
  cron: string;
}

function EmailConnectionModal({
  nodeId,
  connection,
  readOnly,
  onClose,
}: {
  nodeId: number;
  connection: EmailConnectionDTO | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveEmailConnection(nodeId);
  const editing = !!connection;
  const [form, setForm] = useState<EmailForm>(() => ({
    imapHost: connection?.imapHost ?? '',
    imapPort: connection?.imapPort ?? DEFAULT_IMAP_PORT,
    address: connection?.address ?? '',
    // Editing keeps the ten-asterisk mask until the user types a new password.
    password: editing ? MASKED_SECRET : '',
    folder: connection?.folder ?? DEFAULT_EMAIL_FOLDER,
    contentType: connection?.contentType ?? 'MESSAGE',
    cron: connection?.cron ?? '',
  }));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);

  const violations = emailConnectionViolations(form, { hasStoredPassword: editing });
  const invalid = violations.length > 0;
  const violation = (field: string) =>
    submitted || touched.has(field) ? (violations.find((v) => v.field === field)?.violation ?? null) : null;
  const set = <K extends keyof EmailForm>(key: K, value: EmailForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setTouched((tc) => new Set(tc).add(key));
  };

  const onSave = () => {
    setSubmitted(true);
    if (invalid) return;
    save.mutate(
      {
        id: connection?.id ?? null,
        nodeId,
        imapHost: form.imapHost.trim(),
        imapPort: form.imapPort,
        address: form.address.trim(),
        password: isMasked(form.password) ? null : form.password,
        folder: form.folder.trim() || DEFAULT_EMAIL_FOLDER,
        contentType: form.contentType,
        cron: normalizeCron(form.cron),
      },
      { onSuccess: onClose },
    );
  };

  const text = (key: 'imapHost' | 'address' | 'folder' | 'cron', label: string, extra: object = {}) => (
    <Field id={`email-${key}`} label={label} violation={violation(key)} show>
      <input
        id={`email-${key}`}
        className={inputClass(violation(key), true)}
        value={form[key]}
        autoComplete="off"
        onChange={(e) => set(key, e.target.value)}
        data-testid={`email-${key}`}
        {...extra}
      />
    </Field>
  );

  return (
    <Modal
      title={t(editing ? 'soaApp.nodePanel.email.editTitle' : 'soaApp.nodePanel.email.addTitle')}
      onClose={onClose}
      testId="email-connection-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={readOnly || save.isPending || (submitted && invalid)}
            onClick={onSave}
            data-testid="email-connection-save"
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <fieldset disabled={readOnly}>
        <div className="row g-2">
          <div className="col-8">
            {text('imapHost', t('soaApp.nodePanel.email.host'), { autoFocus: true })}
          </div>
          <div className="col-4 mb-3">
            <label htmlFor="email-imapPort" className="form-label">
              {t('soaApp.nodePanel.email.port')}
            </label>
            <select
              id="email-imapPort"
              className="form-select"
              value={form.imapPort}
              onChange={(e) => set('imapPort', Number(e.target.value) as ImapPort)}
              data-testid="email-imapPort"
            >
              {IMAP_PORTS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </div>
        </div>
        {text('address', t('soaApp.nodePanel.email.address'), { type: 'email' })}
        <Field
          id="email-password"
          label={t('soaApp.nodePanel.email.password')}
          violation={violation('password')}
          show
        >
          <input
            id="email-password"
            type="password"
            autoComplete="new-password"
            className={inputClass(violation('password'), true)}
            value={form.password}
            onFocus={(e) => e.target.select()}
            onChange={(e) => set('password', e.target.value)}
            data-testid="email-password"
          />
        </Field>
        <div className="row g-2">
          <div className="col-6">{text('folder', t('soaApp.nodePanel.email.folder'))}</div>
          <div className="col-6 mb-3">
            <label htmlFor="email-contentType" className="form-label">
              {t('soaApp.nodePanel.email.contentType')}
            </label>
            <select
              id="email-contentType"
              className="form-select"
              value={form.contentType}
              onChange={(e) => set('contentType', e.target.value as EmailContentType)}
              data-testid="email-contentType"
            >
              {EMAIL_CONTENT_TYPES.map((c) => (
                <option key={c} value={c}>
                  {t(`soaApp.nodePanel.email.contentTypes.${c}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {text('cron', t('soaApp.nodePanel.email.cron'), { placeholder: '0 */15 * * * *' })}
      </fieldset>
    </Modal>
  );
}
