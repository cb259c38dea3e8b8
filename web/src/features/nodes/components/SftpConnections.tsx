/**
 * The SFTP connections of a node (SFTP upload, send to SFTP): a table (name, address, folder, actions) and
 * a modal with the password-or-key credentials, the 'change' checkbox for stored secrets when editing, and a
 * Test button (POST api/sftp-connection-data/test: pristine, loading, success, error).
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MASKED_SECRET, type SftpConnectionDTO } from '@domain/integration-types';
import {
  DEFAULT_SFTP_FOLDER,
  DEFAULT_SFTP_PORT,
  isMasked,
  sftpConnectionViolations,
} from '@domain/integrations';
import { Field, inputClass } from '../../../components/FormField';
import { IconPencil, IconPlus, IconTrash } from '../../../components/icons';
import { Modal } from '../../../components/Modal';
import { errorDetailOf } from '../../../api/errors';
import {
  nodeConfigQueries,
  useDeleteSftpConnection,
  useSaveSftpConnection,
  useTestSftpConnection,
} from '../api';
import { ConfirmModal } from './ConfirmModal';

export function SftpConnections({
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
  const connections = useQuery(nodeConfigQueries.sftpConnections(nodeId));
  const remove = useDeleteSftpConnection(nodeId);
  const [editing, setEditing] = useState<SftpConnectionDTO | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SftpConnectionDTO | null>(null);
  const rows = connections.data ?? [];

  return (
    <div data-testid="sftp-connections">
      <div className="d-flex align-items-center mb-2">
        <div className="node-subtitle m-0 me-auto">{showTitle && t('soaApp.nodePanel.sftp.connections')}</div>
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={readOnly}
          onClick={() => setEditing('new')}
          data-testid="sftp-connection-add"
        >
          <IconPlus className="me-1" />
          {t('soaApp.nodePanel.sftp.add')}
        </button>
      </div>
      {rows.length === 0 ? (
        <div className="small text-body-secondary mb-2">
          {connections.isPending ? t('global.common.loading') : t('soaApp.nodePanel.sftp.none')}
        </div>
      ) : (
        <table className="table table-sm node-table mb-2">
          <thead>
            <tr>
              <th>{t('soaApp.nodePanel.sftp.name')}</th>
              <th>{t('soaApp.nodePanel.sftp.address')}</th>
              <th>{t('soaApp.nodePanel.sftp.folder')}</th>
              <th className="col-actions">
                <span className="visually-hidden">{t('soaApp.nodePanel.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id} data-testid="sftp-connection-row">
                <td>{c.name}</td>
                <td>
                  {c.address}:{c.port}
                </td>
                <td>{c.folder}</td>
                <td className="col-actions">
                  <button
                    type="button"
                    className="btn btn-sm btn-link p-1"
                    title={t('global.common.edit')}
                    onClick={() => setEditing(c)}
                    data-testid="sftp-connection-edit"
                  >
                    <IconPencil />
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-link text-danger p-1"
                    title={t('global.common.delete')}
                    disabled={readOnly}
                    onClick={() => setDeleting(c)}
                    data-testid="sftp-connection-delete"
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
        <SftpConnectionModal
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
          confirmTestId="sftp-connection-delete-confirm"
        >
          {t('soaApp.nodePanel.sftp.deleteQuestion', { name: deleting.name })}
        </ConfirmModal>
      )}
    </div>
  );
}

type TestStatus = 'pristine' | 'loading' | 'success' | 'error';

interface SftpForm {
  name: string;
  address: string;
  port: number | null;
  folder: string;
  useKey: boolean;
  username: string;
  password: string;
  publicKey: string;
  privateKey: string;
  changeSecret: boolean;
}

function SftpConnectionModal({
  nodeId,
  connection,
  readOnly,
  onClose,
}: {
  nodeId: number;
  connection: SftpConnectionDTO | null;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveSftpConnection(nodeId);
  const test = useTestSftpConnection();
  const editing = !!connection;
  const storedPassword = editing && isMasked(connection.password.password);
  const storedKey = editing && isMasked(connection.password.privateKey);
  const [form, setForm] = useState<SftpForm>(() => ({
    name: connection?.name ?? '',
    address: connection?.address ?? '',
    port: connection?.port ?? DEFAULT_SFTP_PORT,
    folder: connection?.folder ?? DEFAULT_SFTP_FOLDER,
    useKey: connection?.password.useKey ?? false,
    username: connection?.password.username ?? '',
    password: '',
    publicKey: connection?.password.publicKey ?? '',
    privateKey: '',
    changeSecret: false,
  }));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [status, setStatus] = useState<TestStatus>('pristine');
  const [detail, setDetail] = useState<string | null>(null);

  // While editing, a stored secret is kept unless "change" is ticked (then a new value is required).
  const keepsStored = editing && !form.changeSecret;
  const secretStored = form.useKey ? storedKey : storedPassword;
  const dto: SftpConnectionDTO = {
    id: connection?.id ?? null,
    nodeId,
    name: form.name.trim(),
    address: form.address.trim(),
    port: form.port ?? Number.NaN,
    folder: form.folder.trim() || DEFAULT_SFTP_FOLDER,
    password: {
      id: connection?.password.id ?? null,
      useKey: form.useKey,
      username: form.useKey ? form.username || null : form.username,
      password: form.useKey ? null : keepsStored && secretStored ? null : form.password,
      publicKey: form.useKey ? form.publicKey : null,
      privateKey: form.useKey ? (keepsStored && secretStored ? null : form.privateKey) : null,
    },
  };
  const violations = sftpConnectionViolations(dto, {
    password: keepsStored && storedPassword,
    privateKey: keepsStored && storedKey,
  });
  const invalid = violations.length > 0;
  const violation = (field: string) =>
    submitted || touched.has(field) ? (violations.find((v) => v.field === field)?.violation ?? null) : null;

  const set = <K extends keyof SftpForm>(key: K, value: SftpForm[K], field: string = key) => {
    setForm((f) => ({ ...f, [key]: value }));
    setTouched((tc) => new Set(tc).add(field));
    setStatus('pristine');
    setDetail(null);
  };

  const onTest = () => {
    setSubmitted(true);
    if (invalid) return;
    setStatus('loading');
    setDetail(null);
    test.mutate(dto, {
      onSuccess: (res) => setStatus(res.status === 200 ? 'success' : 'error'),
      onError: (e) => {
        setStatus('error');
        setDetail(errorDetailOf(e));
      },
    });
  };

  const onSave = () => {
    setSubmitted(true);
    if (invalid) return;
    save.mutate(dto, { onSuccess: onClose });
  };

  const secretField = form.useKey ? 'password.privateKey' : 'password.password';

  return (
    <Modal
      title={t(editing ? 'soaApp.nodePanel.sftp.editTitle' : 'soaApp.nodePanel.sftp.addTitle')}
      onClose={onClose}
      testId="sftp-connection-modal"
      footer={
        <>
          <span className="me-auto small" data-testid="sftp-test-status" data-status={status}>
            {status === 'loading' && <span className="spinner-border spinner-border-sm me-1" />}
            {status === 'success' && (
              <span className="text-success">{t('soaApp.nodePanel.sftp.testSuccess')}</span>
            )}
            {status === 'error' && (
              <span className="text-danger">
                {t('soaApp.nodePanel.sftp.testError')}
                {detail ? `: ${detail}` : ''}
              </span>
            )}
          </span>
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={readOnly || invalid || status === 'loading'}
            onClick={onTest}
            data-testid="sftp-connection-test"
          >
            {t('soaApp.nodePanel.sftp.test')}
          </button>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={readOnly || save.isPending || (submitted && invalid)}
            onClick={onSave}
            data-testid="sftp-connection-save"
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <fieldset disabled={readOnly}>
        <Field id="sftp-name" label={t('soaApp.nodePanel.sftp.name')} violation={violation('name')} show>
          <input
            id="sftp-name"
            className={inputClass(violation('name'), true)}
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
            autoFocus
            data-testid="sftp-name"
          />
        </Field>
        <div className="row g-2">
          <Field
            id="sftp-address"
            className="col-8 mb-3"
            label={t('soaApp.nodePanel.sftp.address')}
            violation={violation('address')}
            show
          >
            <input
              id="sftp-address"
              className={inputClass(violation('address'), true)}
              value={form.address}
              placeholder="sftp.example.com"
              onChange={(e) => set('address', e.target.value)}
              data-testid="sftp-address"
            />
          </Field>
          <Field
            id="sftp-port"
            className="col-4 mb-3"
            label={t('soaApp.nodePanel.sftp.port')}
            violation={violation('port')}
            show
          >
            <input
              id="sftp-port"
              type="number"
              min={1}
              max={65535}
              className={inputClass(violation('port'), true)}
              value={form.port ?? ''}
              onChange={(e) => set('port', e.target.value === '' ? null : Number(e.target.value))}
              data-testid="sftp-port"
            />
          </Field>
        </div>
        <Field
          id="sftp-folder"
          label={t('soaApp.nodePanel.sftp.folder')}
          violation={violation('folder')}
          show
        >
          <input
            id="sftp-folder"
            className={inputClass(violation('folder'), true)}
            value={form.folder}
            onChange={(e) => set('folder', e.target.value)}
            data-testid="sftp-folder"
          />
        </Field>
        <div className="form-check form-switch mb-3">
          <input
            id="sftp-use-key"
            type="checkbox"
            role="switch"
            className="form-check-input"
            checked={form.useKey}
            onChange={(e) => set('useKey', e.target.checked)}
            data-testid="sftp-use-key"
          />
          <label htmlFor="sftp-use-key" className="form-check-label">
            {t('soaApp.nodePanel.sftp.useKey')}
          </label>
        </div>
        <Field
          id="sftp-username"
          label={t('soaApp.nodePanel.sftp.username')}
          violation={violation('password.username')}
          show
        >
          <input
            id="sftp-username"
            className={inputClass(violation('password.username'), true)}
            value={form.username}
            autoComplete="off"
            onChange={(e) => set('username', e.target.value, 'password.username')}
            data-testid="sftp-username"
          />
        </Field>
        {form.useKey && (
          <Field
            id="sftp-public-key"
            label={t('soaApp.nodePanel.sftp.publicKey')}
            violation={violation('password.publicKey')}
            show
          >
            <textarea
              id="sftp-public-key"
              rows={2}
              className={`${inputClass(violation('password.publicKey'), true)} template-editor`}
              value={form.publicKey}
              onChange={(e) => set('publicKey', e.target.value, 'password.publicKey')}
              data-testid="sftp-public-key"
            />
          </Field>
        )}
        {editing && secretStored && (
          <div className="form-check mb-2">
            <input
              id="sftp-change-secret"
              type="checkbox"
              className="form-check-input"
              checked={form.changeSecret}
              onChange={(e) => set('changeSecret', e.target.checked, secretField)}
              data-testid="sftp-change-secret"
            />
            <label htmlFor="sftp-change-secret" className="form-check-label">
              {t(form.useKey ? 'soaApp.nodePanel.sftp.changeKey' : 'soaApp.nodePanel.sftp.changePassword')}
            </label>
          </div>
        )}
        <Field
          id="sftp-secret"
          label={t(form.useKey ? 'soaApp.nodePanel.sftp.privateKey' : 'soaApp.nodePanel.sftp.password')}
          violation={violation(secretField)}
          show
        >
          {form.useKey ? (
            <textarea
              id="sftp-secret"
              rows={3}
              className={`${inputClass(violation(secretField), true)} template-editor`}
              value={keepsStored && secretStored ? MASKED_SECRET : form.privateKey}
              disabled={keepsStored && secretStored}
              onChange={(e) => set('privateKey', e.target.value, secretField)}
              data-testid="sftp-private-key"
            />
          ) : (
            <input
              id="sftp-secret"
              type="password"
              autoComplete="new-password"
              className={inputClass(violation(secretField), true)}
              value={keepsStored && secretStored ? MASKED_SECRET : form.password}
              disabled={keepsStored && secretStored}
              onChange={(e) => set('password', e.target.value, secretField)}
              data-testid="sftp-password"
            />
          )}
        </Field>
      </fieldset>
    </Modal>
  );
}
