/**
 * Settings of the upload nodes: HTTP upload (endpoint with a random generator, active; not for the obligatory
 * node) and cloud-drive upload (cron, active and its connection).
 */
import { useTranslation } from 'react-i18next';
import { randomEndpoint } from '@domain/node-settings';
import { useNodeForm } from '../form';
import { CheckInput, FieldError, TextInput } from './fields';
import { DriveConnections } from './DriveConnections';
import { inputClass } from '../../../components/FormField';

export function HupSettings() {
  const { t } = useTranslation();
  const { draft, patch, readOnly, error } = useNodeForm();
  const v = error('endpoint');
  return (
    <>
      <div className="mb-3">
        <label htmlFor="node-endpoint" className="form-label">
          {t('soaApp.nodePanel.hup.endpoint')}
        </label>
        <div className="input-group">
          <input
            id="node-endpoint"
            className={inputClass(v, true)}
            value={draft.endpoint ?? ''}
            disabled={readOnly}
            autoComplete="off"
            onChange={(e) => patch({ endpoint: e.target.value })}
            data-testid="hup-endpoint"
          />
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={readOnly}
            onClick={() => patch({ endpoint: randomEndpoint() })}
            data-testid="hup-endpoint-random"
          >
            {t('soaApp.nodePanel.hup.random')}
          </button>
        </div>
        <FieldError field="endpoint" id="node-endpoint" />
      </div>
      <CheckInput
        id="node-hup-active"
        label={t('soaApp.nodePanel.hup.active')}
        checked={!!draft.active}
        onChange={(active) => patch({ active })}
        testId="hup-active"
      />
    </>
  );
}

export function GduSettings() {
  const { t } = useTranslation();
  const { draft, patch, readOnly } = useNodeForm();
  return (
    <>
      <TextInput
        id="node-gdu-cron"
        field="cron"
        label={t('soaApp.nodePanel.trigger.cron')}
        value={draft.cron}
        placeholder="0 0 * * * *"
        help={t('soaApp.nodePanel.trigger.cronHelp')}
        onChange={(cron) => patch({ cron })}
        testId="gdu-cron"
      />
      <CheckInput
        id="node-gdu-active"
        label={t('soaApp.nodePanel.hup.active')}
        checked={!!draft.active}
        onChange={(active) => patch({ active })}
        testId="gdu-active"
      />
      <DriveConnections nodeId={draft.id} readOnly={readOnly} />
    </>
  );
}
