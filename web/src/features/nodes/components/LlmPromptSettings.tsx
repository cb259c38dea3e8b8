/**
 * LLM prompt node: the trigger, the model (GET api/llm-models), the secret (inactive ones disabled), the
 * prompt with its wildcards, the temperature (0..2, step 0.01) and "attach file" (only for models with
 * modalities).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SETTINGS_LIMITS } from '@domain/node-settings';
import { nodeConfigQueries } from '../api';
import { secretQueries } from '../../secrets/api';
import { useNodeForm } from '../form';
import { CheckInput, NumberInput, SelectInput } from './fields';
import { TemplateField, plainEditorState } from './TemplateField';
import { TriggerSettings } from './TriggerSettings';

export function LlmPromptSettings() {
  const { t } = useTranslation();
  const { draft, patch, readOnly } = useNodeForm();
  const models = useQuery(nodeConfigQueries.llmModels());
  const model = (models.data ?? []).find((m) => m.id === draft.llmModel?.id);
  const canAttach = !!model && model.modalities.length > 0;
  const { min, max } = SETTINGS_LIMITS.temperature;

  return (
    <>
      <TriggerSettings />
      <SelectInput
        id="node-llm-model"
        field="llmModel"
        label={t('soaApp.nodePanel.llm.model')}
        value={draft.llmModel?.id ?? ''}
        onChange={(v) => {
          const next = (models.data ?? []).find((m) => m.id === Number(v));
          patch({
            llmModel: v ? { id: Number(v) } : null,
            // The option is disabled for models without modalities.
            attachFile: next && next.modalities.length > 0 ? draft.attachFile : false,
          });
        }}
        testId="llm-model"
      >
        <option value="">{t('soaApp.nodePanel.choose')}</option>
        {(models.data ?? []).map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </SelectInput>
      <SecretSelect field="secret" id="node-llm-secret" testId="llm-secret" />
      <TemplateField
        id="node-llm-prompt"
        field="prompt"
        context="node"
        label={t('soaApp.nodePanel.llm.prompt')}
        value={draft.prompt}
        rows={7}
        onChange={(prompt) => patch({ prompt, promptEditorState: plainEditorState(prompt) })}
        testId="llm-prompt"
      />
      <div className="row g-2 align-items-end">
        <NumberInput
          id="node-llm-temperature"
          field="temperature"
          className="col-5 mb-3"
          label={t('soaApp.nodePanel.llm.temperature')}
          value={draft.temperature}
          min={min}
          max={max}
          step={0.01}
          onChange={(temperature) => patch({ temperature })}
          testId="llm-temperature"
        />
        <div className="col-7 mb-3">
          <input
            type="range"
            className="form-range"
            min={min}
            max={max}
            step={0.01}
            value={draft.temperature ?? SETTINGS_LIMITS.temperature.default}
            onChange={(e) => patch({ temperature: Number(e.target.value) })}
            aria-label={t('soaApp.nodePanel.llm.temperature')}
            disabled={readOnly}
          />
        </div>
      </div>
      <CheckInput
        id="node-llm-attach"
        label={t('soaApp.nodePanel.llm.attachFile')}
        checked={!!draft.attachFile && canAttach}
        disabled={!canAttach}
        help={!canAttach ? t('soaApp.nodePanel.llm.attachFileUnavailable') : undefined}
        onChange={(attachFile) => patch({ attachFile })}
        testId="llm-attach-file"
      />
    </>
  );
}

/** The process's secrets (inactive ones disabled), bound to the node's `secret` reference. */
export function SecretSelect({ id, field, testId }: { id: string; field: 'secret'; testId?: string }) {
  const { t } = useTranslation();
  const { draft, patch } = useNodeForm();
  const secrets = useQuery(secretQueries.list(draft.processId));
  return (
    <SelectInput
      id={id}
      field={field}
      label={t('soaApp.nodePanel.llm.secret')}
      value={draft.secret?.id ?? ''}
      onChange={(v) => patch({ secret: v ? { id: Number(v) } : null })}
      testId={testId}
    >
      <option value="">{t('soaApp.nodePanel.none')}</option>
      {(secrets.data ?? []).map((s) => (
        <option key={s.id} value={s.id} disabled={!s.active}>
          {s.active ? s.name : t('soaApp.nodePanel.llm.inactiveSecret', { name: s.name })}
        </option>
      ))}
    </SelectInput>
  );
}
