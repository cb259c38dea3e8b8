/**
 * The transfer rules of an SFTP upload node: a table (name, folder, copy target, delete after transfer,
 * actions) and a modal with a source connection and an optional target. Rules are part of the node: new
 * ones get a negative temporary id and everything is stored with the node's Save.
 */
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SftpTransferRuleDTO } from '@domain/graph-types';
import { transferRulesRule } from '@domain/node-settings-rules';
import { IconCheck } from '../../../components/icons';
import { nodeConfigQueries } from '../api';
import { useNodeForm } from '../form';
import { temporaryId } from '../temporaryId';
import { CheckInput, FieldError } from './fields';
import { ItemModal, ItemTable, ModalInput } from './ItemTable';

export function SftpTransferRules() {
  const { t } = useTranslation();
  const { draft, patch, readOnly } = useNodeForm();
  const connections = useQuery(nodeConfigQueries.sftpConnections(draft.id));
  const rules = draft.sftpTransferRules ?? [];
  const byId = new Map((connections.data ?? []).map((c) => [c.id, c]));
  const source = (r: SftpTransferRuleDTO) => byId.get(r.sourceId);
  const target = (r: SftpTransferRuleDTO) => (r.targetId !== null ? byId.get(r.targetId) : undefined);

  const upsert = (rule: SftpTransferRuleDTO) => {
    const exists = rules.some((r) => r.id === rule.id);
    patch({ sftpTransferRules: exists ? rules.map((r) => (r.id === rule.id ? rule : r)) : [...rules, rule] });
  };

  return (
    <ItemTable<SftpTransferRuleDTO>
      testId="sftp-transfer-rules"
      itemTestId="transfer-rule"
      addLabel={t('soaApp.nodePanel.transfer.add')}
      addDisabled={(connections.data ?? []).length === 0}
      empty={t('soaApp.nodePanel.transfer.none')}
      rows={rules}
      rowKey={(r, i) => r.id ?? i}
      columns={[
        {
          header: t('soaApp.nodePanel.transfer.name'),
          cell: (r, i) => (
            <>
              {r.name || source(r)?.name || '—'}
              <FieldError field={`sftpTransferRules[${i}].sourceId`} />
            </>
          ),
        },
        { header: t('soaApp.nodePanel.transfer.folder'), cell: (r) => source(r)?.folder ?? '—' },
        { header: t('soaApp.nodePanel.transfer.copy'), cell: (r) => target(r)?.name ?? '—' },
        {
          header: t('soaApp.nodePanel.transfer.delete'),
          cell: (r) => (r.deleteAfterTransfer ? <IconCheck aria-label={t('soaApp.nodePanel.yes')} /> : '—'),
        },
      ]}
      readOnly={readOnly}
      editor={(rule, close) => (
        <TransferRuleModal
          rule={rule}
          connections={(connections.data ?? []).map((c) => ({ id: c.id!, name: c.name }))}
          readOnly={readOnly}
          onClose={close}
          onSave={(saved) => {
            upsert(saved);
            close();
          }}
        />
      )}
      onDelete={(_, i) => patch({ sftpTransferRules: rules.filter((_r, j) => j !== i) })}
    />
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
    <ItemModal
      title={t(rule ? 'soaApp.nodePanel.transfer.editTitle' : 'soaApp.nodePanel.transfer.addTitle')}
      testId="transfer-rule-modal"
      saveTestId="transfer-rule-save"
      readOnly={readOnly}
      saveDisabled={invalid}
      onSave={() => onSave({ ...candidate, id: candidate.id ?? temporaryId() })}
      onClose={onClose}
    >
      <ModalInput
        id="transfer-name"
        label={t('soaApp.nodePanel.transfer.name')}
        violation={nameViolation}
        value={name}
        onValue={setName}
        testId="transfer-rule-name"
      />
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
      <CheckInput
        id="transfer-delete"
        className="form-check"
        label={t('soaApp.nodePanel.transfer.deleteAfter')}
        checked={deleteAfter}
        onChange={setDeleteAfter}
        testId="transfer-rule-delete-after"
      />
    </ItemModal>
  );
}
