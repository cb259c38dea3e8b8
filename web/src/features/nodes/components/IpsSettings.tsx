/**
 * Inter-process sender: the trigger, the payload and the preferred document name (with wildcards), and the
 * receivers chosen among the inter-process receiver nodes the user can read (GET api/inter-process-receiver-nodes).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { nodeConfigQueries } from '../api';
import { useNodeForm } from '../form';
import { FieldError } from './fields';
import { TemplateField, plainEditorState } from './TemplateField';
import { TriggerSettings } from './TriggerSettings';
import { filenameChars } from './FileOutputSettings';

export function IpsSettings() {
  const { t } = useTranslation();
  const { draft, patch, readOnly } = useNodeForm();
  const receivers = useQuery(nodeConfigQueries.iprNodes());
  const chosen = draft.receivers ?? [];
  const isChosen = (id: number) => chosen.some((r) => r.id === id);

  return (
    <>
      <TriggerSettings />
      <TemplateField
        id="node-ips-doc-name"
        field="preferredDocName"
        context="filename"
        singleLine
        noPaste
        accept={filenameChars}
        label={t('soaApp.nodePanel.ips.preferredDocName')}
        value={draft.preferredDocName}
        onChange={(preferredDocName) =>
          patch({ preferredDocName, preferredDocNameEditorState: plainEditorState(preferredDocName) })
        }
        testId="ips-doc-name"
      />
      <TemplateField
        id="node-ips-payload"
        field="payload"
        context="node"
        rows={6}
        label={t('soaApp.nodePanel.ips.payload')}
        value={draft.payload}
        onChange={(payload) => patch({ payload, payloadEditorState: plainEditorState(payload) })}
        testId="ips-payload"
      />
      <div className="form-label">{t('soaApp.nodePanel.ips.receivers')}</div>
      <div className="border rounded p-2 mb-2 mail-receivers" data-testid="ips-receivers">
        {(receivers.data ?? []).length === 0 ? (
          <div className="small text-body-secondary">
            {receivers.isPending ? t('global.common.loading') : t('soaApp.nodePanel.ips.noReceivers')}
          </div>
        ) : (
          (receivers.data ?? []).map((r) => (
            <div className="form-check" key={r.id}>
              <input
                id={`ips-receiver-${r.id}`}
                type="checkbox"
                className="form-check-input"
                checked={isChosen(r.id)}
                disabled={readOnly}
                onChange={(e) =>
                  patch({
                    receivers: e.target.checked
                      ? [...chosen, { id: r.id, name: r.name, processId: r.processId }]
                      : chosen.filter((c) => c.id !== r.id),
                  })
                }
                data-testid="ips-receiver"
              />
              <label htmlFor={`ips-receiver-${r.id}`} className="form-check-label">
                {r.name} <span className="text-body-secondary small">({r.processName})</span>
              </label>
            </div>
          ))
        )}
      </div>
      <FieldError field="receivers" />
    </>
  );
}
