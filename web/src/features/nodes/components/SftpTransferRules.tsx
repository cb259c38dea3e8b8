/**
 * The transfer rules of an SFTP upload node: a table (name, folder, copy target, delete after transfer,
 * actions) and a modal with a source connection and an optional target. Rules are part of the node: new
 * ones get a negative temporary id and everything is stored with the node's Save.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SftpTransferRuleDTO } from '@domain/graph-types';
import { transferRulesRule } from '@domain/node-settings';
import { IconCheck, IconPencil, IconPlus, IconTrash } from '../../../components/icons';
import { ViolationMessage, inputClass } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';
import { nodeConfigQueries } from '../api';
import { useNodeForm } from '../form';
import { temporaryId } from '../temporaryId';
import { FieldError } from './fields';

export function SftpTransferRules() {
  const { t } = useTranslation();
  const { draft, patch, readOnly } = useNodeForm();
  const connections = useQuery(nodeConfigQueries.sftpConnections(draft.id));
  const [editing, setEditing] = useState<SftpTransferRuleDTO | 'new' | null>(null);
  const rules = draft.sftpTransferRules ?? [];
  const byId = new Map((connections.data ?? []).map((c) => [c.id, c]));

  const upsert = (rule: SftpTransferRuleDTO) => {
    const exists = rules.some((r) => r.id === rule.id);
    patch({ sftpTransferRules: exists ? rules.map((r) => (r.id === rule.id ? rule : r)) : [...rules, rule] });
  };

  return (
    <div data-testid="sftp-transfer-rules">
      <div className="d-flex align-items-center mb-2">
        <span className="me-auto" />
        <button
          type="button"
          className="btn btn-sm btn-outline-primary"
          disabled={readOnly || (connections.data ?? []).length === 0}
          onClick={() => setEditing('new')}
          data-testid="transfer-rule-add"
        >
          <IconPlus className="me-1" />
          {t('soaApp.nodePanel.transfer.add')}
        </button>
      </div>
      {rules.length === 0 ? (
        <div className="small text-body-secondary mb-2">{t('soaApp.nodePanel.transfer.none')}</div>
      ) : (
        <table className="table table-sm node-table mb-2">
          <thead>
            <tr>
              <th>{t('soaApp.nodePanel.transfer.name')}</th>
              <th>{t('soaApp.nodePanel.transfer.folder')}</th>
              <th>{t('soaApp.nodePanel.transfer.copy')}</th>
              <th>{t('soaApp.nodePanel.transfer.delete')}</th>
              <th className="col-actions">
                <span className="visually-hidden">{t('soaApp.nodePanel.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((r, i) => {
              const source = byId.get(r.sourceId);
              const target = r.targetId !== null ? byId.get(r.targetId) : undefined;
              return (
                <tr key={r.id ?? i} data-testid="transfer-rule-row">
                  <td>
                    {r.name || source?.name || '—'}
                    <FieldError field={`sftpTransferRules[${i}].sourceId`} />
                  </td>
                  <td>{source ? source.folder : '—'}</td>
                  <td>{target ? target.name : '—'}</td>
                  <td>
                    {r.deleteAfterTransfer ? <IconCheck aria-label={t('soaApp.nodePanel.yes')} /> : '—'}
                  </td>
                  <td className="col-actions">
                    <button
                      type="button"
                      className="btn btn-sm btn-link p-1"
                      title={t('global.common.edit')}
                      onClick={() => setEditing(r)}
                      data-testid="transfer-rule-edit"
                    >
                      <IconPencil />
                    </button>
                    <button
                      type="button"
                      className="btn btn-sm btn-link text-danger p-1"
                      title={t('global.common.delete')}
                      disabled={readOnly}
                      onClick={() => patch({ sftpTransferRules: rules.filter((_, j) => j !== i) })}
                      data-testid="transfer-rule-delete"
                    >
                      <IconTrash />
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {editing && (
        <TransferRuleModal
          rule={editing === 'new' ? null : editing}
          connections={(connections.data ?? []).map((c) => ({ id: c.id!, name: c.name }))}
          readOnly={readOnly}
          onClose={() => setEditing(null)}
          onSave={(rule) => {
            upsert(rule);
            setEditing(null);
          }}
        />
      )}
    </div>
  );
}

function TransferRuleModal({
  rule,
  connections,
  readOnly,
  onClose,
  onSave,
}: {
  rule: SftpTransferRuleDTO | null;
  connections: { id: number; name: string }[];
  readOnly: boolean;
  onClose: () => void;
  onSave: (rule: SftpTransferRuleDTO) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(rule?.name ?? '');
  const [sourceId, setSourceId] = useState<number | null>(rule?.sourceId ?? null);
  const [targetId, setTargetId] = useState<number | null>(rule?.targetId ?? null);
  const [deleteAfter, setDeleteAfter] = useState(rule?.deleteAfterTransfer ?? false);
  const candidate = {
    id: rule?.id ?? null,
    name: name.trim() || null,
    sourceId: sourceId as number,
    targetId,
    deleteAfterTransfer: deleteAfter,
  };
  const violations = transferRulesRule([candidate]);
  const nameViolation = violations.find((v) => v.field.endsWith('.name'))?.violation ?? null;
  const invalid = violations.length > 0;

  return (
    <Modal
      title={t(rule ? 'soaApp.nodePanel.transfer.editTitle' : 'soaApp.nodePanel.transfer.addTitle')}
      onClose={onClose}
      testId="transfer-rule-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={readOnly || invalid}
            onClick={() => onSave({ ...candidate, id: candidate.id ?? temporaryId() })}
            data-testid="transfer-rule-save"
          >
            {t('global.common.save')}
          </button>
        </>
      }
    >
      <fieldset disabled={readOnly}>
        <div className="mb-3">
          <label htmlFor="transfer-name" className="form-label">
            {t('soaApp.nodePanel.transfer.name')}
          </label>
          <input
            id="transfer-name"
            className={inputClass(nameViolation, true)}
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="transfer-rule-name"
          />
          {nameViolation && <ViolationMessage violation={nameViolation} />}
        </div>
        <div className="mb-3">
          <label htmlFor="transfer-source" className="form-label">
            {t('soaApp.nodePanel.transfer.source')}
          </label>
          <select
            id="transfer-source"
            className="form-select"
            value={sourceId ?? ''}
            onChange={(e) => setSourceId(e.target.value ? Number(e.target.value) : null)}
            data-testid="transfer-rule-source"
          >
            <option value="">{t('soaApp.nodePanel.choose')}</option>
            {connections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="mb-3">
          <label htmlFor="transfer-target" className="form-label">
            {t('soaApp.nodePanel.transfer.target')}
          </label>
          <select
            id="transfer-target"
            className="form-select"
            value={targetId ?? ''}
            onChange={(e) => setTargetId(e.target.value ? Number(e.target.value) : null)}
            data-testid="transfer-rule-target"
          >
            <option value="">{t('soaApp.nodePanel.none')}</option>
            {connections
              .filter((c) => c.id !== sourceId)
              .map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
          </select>
          <div className="form-text">{t('soaApp.nodePanel.transfer.targetHelp')}</div>
        </div>
        <div className="form-check">
          <input
            id="transfer-delete"
            type="checkbox"
            className="form-check-input"
            checked={deleteAfter}
            onChange={(e) => setDeleteAfter(e.target.checked)}
            data-testid="transfer-rule-delete-after"
          />
          <label htmlFor="transfer-delete" className="form-check-label">
            {t('soaApp.nodePanel.transfer.deleteAfter')}
          </label>
        </div>
      </fieldset>
    </Modal>
  );
}
