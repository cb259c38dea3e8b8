/**
 * The trigger of an action node: ALWAYS (one document), CRON or THRESHOLD (data aggregated over many
 * executions). Switching between ALWAYS and the others warns that wildcards may become unavailable.
 */
import { useTranslation } from 'react-i18next';
import { TriggerTypes, type TriggerType } from '@domain/graph-types';
import { NODE_LIMITS } from '@domain/nodes';
import { modesForTrigger } from '@domain/wildcards';
import { useNodeForm } from '../form';
import { NumberInput, SelectInput, TextInput } from './fields';

const sameModes = (a: TriggerType, b: TriggerType) => modesForTrigger(a).join() === modesForTrigger(b).join();

export function TriggerSettings() {
  const { t } = useTranslation();
  const { draft, node, patch } = useNodeForm();
  const switched = !sameModes(draft.triggerType, node.triggerType);

  return (
    <div className="mb-2">
      <SelectInput
        id="node-trigger-type"
        field="triggerType"
        label={t('soaApp.nodePanel.trigger.type')}
        value={draft.triggerType}
        onChange={(v) => {
          const triggerType = v as TriggerType;
          patch({
            triggerType,
            threshold: triggerType === 'THRESHOLD' ? (draft.threshold ?? NODE_LIMITS.threshold.min) : null,
          });
        }}
        testId="trigger-type"
      >
        {TriggerTypes.map((type) => (
          <option key={type} value={type}>
            {t(`soaApp.nodePanel.trigger.types.${type}`)}
          </option>
        ))}
      </SelectInput>
      {switched && (
        <div className="alert alert-warning py-2 small" role="alert" data-testid="trigger-warning">
          {t('soaApp.nodePanel.trigger.wildcardsWarning')}
        </div>
      )}
      {draft.triggerType === 'CRON' && (
        <TextInput
          id="node-cron"
          field="cron"
          label={t('soaApp.nodePanel.trigger.cron')}
          value={draft.cron}
          placeholder="0 0 8 * * MON-FRI"
          help={t('soaApp.nodePanel.trigger.cronHelp')}
          onChange={(cron) => patch({ cron })}
          testId="trigger-cron"
        />
      )}
      {draft.triggerType === 'THRESHOLD' && (
        <NumberInput
          id="node-threshold"
          field="threshold"
          label={t('soaApp.nodePanel.trigger.threshold')}
          help={t('soaApp.nodePanel.trigger.thresholdHelp')}
          value={draft.threshold}
          min={NODE_LIMITS.threshold.min}
          step={1}
          onChange={(threshold) => patch({ threshold })}
          testId="trigger-threshold"
        />
      )}
    </div>
  );
}
