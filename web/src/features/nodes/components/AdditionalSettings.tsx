/**
 * The common "Additional settings" section: automatic run, automatic step status, conditional acceptance,
 * mandatory (classifier), priority, additional submits, external and trainable configuration, each only where
 * domain/nodes.ts whitelists it. The checkbox couplings are applied by the form (applyCouplings).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AutoStepStatuses, type ExternalConfig, type NodeDTO } from '@domain/graph-types';
import {
  CONDITIONAL_ACCEPTANCE_WHITELIST,
  CUSTOM_EXTERNAL_WHITELIST,
  LLM_EXTERNAL_WHITELIST,
  MULTIPROCESSED_WHITELIST,
  NODE_LIMITS,
  TRAINABLE_WHITELIST,
  applyCouplings,
} from '@domain/nodes';
import { nodeConfigQueries } from '../api';
import { secretQueries } from '../../secrets/api';
import { useNodeForm } from '../form';
import { CheckInput, NumberInput, SelectInput, TextInput } from './fields';

type ExternalKind = '' | 'CUSTOM' | 'LLM';

export function AdditionalSettings() {
  const { t } = useTranslation();
  const { draft, patch } = useNodeForm();
  const type = draft.activityType;

  if (type === 'IPR') {
    return (
      <CheckInput
        id="node-automatic"
        label={t('soaApp.nodePanel.additional.automatic')}
        checked={draft.automatic}
        onChange={(automatic) => patch({ automatic })}
        testId="node-automatic"
      />
    );
  }

  // What the couplings force, to show those checkboxes as fixed.
  const forcedAutomatic = !!draft.externalConfig;
  const forcedAcceptance = applyCouplings<NodeDTO>({
    ...draft,
    requiresAcceptance: false,
  }).requiresAcceptance;
  const docless = draft.additionalNodeSubmits.find((e) => e.docId === null);

  const setSubmits = (submits: number | null) => {
    const others = draft.additionalNodeSubmits.filter((e) => e.docId !== null);
    // 0 removes the docless entry.
    patch({
      additionalNodeSubmits: submits ? [...others, { docId: null, submits }] : others,
    });
  };

  return (
    <>
      <CheckInput
        id="node-automatic"
        label={t('soaApp.nodePanel.additional.automatic')}
        checked={draft.automatic}
        disabled={forcedAutomatic}
        help={forcedAutomatic ? t('soaApp.nodePanel.additional.automaticForced') : undefined}
        onChange={(automatic) => patch({ automatic })}
        testId="node-automatic"
      />
      {CONDITIONAL_ACCEPTANCE_WHITELIST.includes(type) && (
        <CheckInput
          id="node-requires-acceptance"
          label={t('soaApp.nodePanel.additional.requiresAcceptance')}
          checked={draft.requiresAcceptance}
          disabled={forcedAcceptance}
          help={forcedAcceptance ? t('soaApp.nodePanel.additional.requiresAcceptanceForced') : undefined}
          onChange={(requiresAcceptance) => patch({ requiresAcceptance })}
          testId="node-requires-acceptance"
        />
      )}
      {type === 'CLF' && (
        <CheckInput
          id="node-mandatory"
          label={t('soaApp.nodePanel.additional.mandatory')}
          checked={draft.mandatory}
          onChange={(mandatory) => patch({ mandatory })}
          testId="node-mandatory"
        />
      )}
      {type === 'SPAN' && (
        <CheckInput
          id="node-handles-relations"
          label={t('soaApp.nodePanel.additional.handlesRelations')}
          checked={draft.handlesRelations}
          onChange={(handlesRelations) => patch({ handlesRelations })}
          testId="node-handles-relations"
        />
      )}
      {type === 'SPAN' && (
        <CheckInput
          id="node-relation-priority-mode"
          label={t('soaApp.nodePanel.additional.relationPriorityMode')}
          checked={draft.relationPriorityMode ?? false}
          onChange={(relationPriorityMode) => patch({ relationPriorityMode })}
          testId="node-relation-priority-mode"
        />
      )}
      <div className="row g-2 mt-1">
        <SelectInput
          id="node-auto-step-status"
          field="autoStepStatus"
          className="col-7 mb-3"
          label={t('soaApp.nodePanel.additional.autoStepStatus')}
          value={draft.autoStepStatus}
          onChange={(v) => patch({ autoStepStatus: v as NodeDTO['autoStepStatus'] })}
          testId="node-auto-step-status"
        >
          {AutoStepStatuses.map((s) => (
            <option key={s} value={s}>
              {t(`soaApp.nodePanel.stepStatus.${s}`)}
            </option>
          ))}
        </SelectInput>
        <SelectInput
          id="node-priority"
          field="priority"
          className="col-5 mb-3"
          label={t('soaApp.nodePanel.additional.priority')}
          value={draft.priority}
          onChange={(v) => patch({ priority: Number(v) })}
          testId="node-priority"
        >
          {Array.from({ length: NODE_LIMITS.priority.max - NODE_LIMITS.priority.min + 1 }, (_, i) => {
            const p = NODE_LIMITS.priority.max - i;
            return (
              <option key={p} value={p}>
                {t(`soaApp.nodePanel.priority.${p}`)}
              </option>
            );
          })}
        </SelectInput>
      </div>
      {MULTIPROCESSED_WHITELIST.includes(type) && (
        <NumberInput
          id="node-additional-submits"
          field="additionalNodeSubmits"
          label={t('soaApp.nodePanel.additional.additionalSubmits')}
          help={t('soaApp.nodePanel.additional.additionalSubmitsHelp', NODE_LIMITS.additionalSubmits)}
          value={docless?.submits ?? 0}
          min={NODE_LIMITS.additionalSubmits.min}
          max={NODE_LIMITS.additionalSubmits.max}
          step={1}
          onChange={setSubmits}
          testId="node-additional-submits"
        />
      )}
      {MULTIPROCESSED_WHITELIST.includes(type) && (
        <CheckInput
          id="node-annotators-see-each-other"
          label={t('soaApp.nodePanel.additional.annotatorsSeeEachOther')}
          checked={draft.annotatorsSeeEachOther ?? false}
          onChange={(annotatorsSeeEachOther) => patch({ annotatorsSeeEachOther })}
          testId="node-annotators-see-each-other"
        />
      )}
      <ExternalConfigFields />
      <TrainableConfigFields />
    </>
  );
}

function ExternalConfigFields() {
  const { t } = useTranslation();
  const { draft, patch } = useNodeForm();
  const type = draft.activityType;
  const custom = CUSTOM_EXTERNAL_WHITELIST.includes(type);
  const llm = LLM_EXTERNAL_WHITELIST.includes(type);
  const config = draft.externalConfig;
  const models = useQuery({ ...nodeConfigQueries.llmModels(), enabled: llm });
  const secrets = useQuery({ ...secretQueries.list(draft.processId), enabled: llm });
  if (!custom && !llm) return null;

  const setKind = (kind: ExternalKind) => {
    let next: ExternalConfig | null = null;
    if (kind === 'CUSTOM') next = { configType: 'CUSTOM', model: null, restApiUrl: null };
    if (kind === 'LLM') next = { configType: 'LLM', llmModel: null, secret: null };
    patch({ externalConfig: next });
  };

  return (
    <>
      <div className="node-subtitle">{t('soaApp.nodePanel.external.title')}</div>
      <SelectInput
        id="node-external-type"
        field="externalConfig"
        label={t('soaApp.nodePanel.external.type')}
        value={config?.configType ?? ''}
        onChange={(v) => setKind(v as ExternalKind)}
        testId="node-external-type"
      >
        <option value="">{t('soaApp.nodePanel.external.none')}</option>
        {custom && <option value="CUSTOM">{t('soaApp.nodePanel.external.custom')}</option>}
        {llm && <option value="LLM">{t('soaApp.nodePanel.external.llm')}</option>}
      </SelectInput>
      {config?.configType === 'CUSTOM' && (
        <>
          <TextInput
            id="node-external-model"
            field="externalConfig.model"
            label={t('soaApp.nodePanel.external.model')}
            value={config.model}
            onChange={(model) => patch({ externalConfig: { ...config, model } })}
            testId="node-external-model"
          />
          <TextInput
            id="node-external-url"
            field="externalConfig.restApiUrl"
            label={t('soaApp.nodePanel.external.restApiUrl')}
            value={config.restApiUrl}
            placeholder="https://"
            onChange={(restApiUrl) => patch({ externalConfig: { ...config, restApiUrl } })}
            testId="node-external-url"
          />
        </>
      )}
      {config?.configType === 'LLM' && (
        <>
          <SelectInput
            id="node-external-llm-model"
            field="externalConfig.llmModel"
            label={t('soaApp.nodePanel.llm.model')}
            value={config.llmModel?.id ?? ''}
            onChange={(v) => patch({ externalConfig: { ...config, llmModel: v ? { id: Number(v) } : null } })}
            testId="node-external-llm-model"
          >
            <option value="">{t('soaApp.nodePanel.choose')}</option>
            {(models.data ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </SelectInput>
          <SelectInput
            id="node-external-secret"
            field="externalConfig.secret"
            label={t('soaApp.nodePanel.llm.secret')}
            value={config.secret?.id ?? ''}
            onChange={(v) => patch({ externalConfig: { ...config, secret: v ? { id: Number(v) } : null } })}
            testId="node-external-secret"
          >
            <option value="">{t('soaApp.nodePanel.none')}</option>
            {(secrets.data ?? []).map((s) => (
              <option key={s.id} value={s.id} disabled={!s.active}>
                {s.active ? s.name : t('soaApp.nodePanel.llm.inactiveSecret', { name: s.name })}
              </option>
            ))}
          </SelectInput>
        </>
      )}
    </>
  );
}

function TrainableConfigFields() {
  const { t } = useTranslation();
  const { draft, patch } = useNodeForm();
  if (!TRAINABLE_WHITELIST.includes(draft.activityType)) return null;
  const config = draft.trainableConfig;

  return (
    <>
      <div className="node-subtitle">{t('soaApp.nodePanel.trainable.title')}</div>
      <CheckInput
        id="node-trainable"
        label={t('soaApp.nodePanel.trainable.enabled')}
        checked={!!config}
        onChange={(on) =>
          patch({
            trainableConfig: on
              ? {
                  model: null,
                  requestPath: null,
                  automaticTraining: false,
                  threshold: NODE_LIMITS.trainableThreshold.default,
                }
              : null,
          })
        }
        testId="node-trainable"
      />
      {config && (
        <>
          <TextInput
            id="node-trainable-model"
            field="trainableConfig.model"
            label={t('soaApp.nodePanel.trainable.model')}
            value={config.model}
            onChange={(model) => patch({ trainableConfig: { ...config, model } })}
            testId="node-trainable-model"
          />
          <TextInput
            id="node-trainable-path"
            field="trainableConfig.requestPath"
            label={t('soaApp.nodePanel.trainable.requestPath')}
            value={config.requestPath}
            placeholder="https://"
            onChange={(requestPath) => patch({ trainableConfig: { ...config, requestPath } })}
            testId="node-trainable-path"
          />
          <CheckInput
            id="node-trainable-automatic"
            label={t('soaApp.nodePanel.trainable.automaticTraining')}
            checked={config.automaticTraining}
            onChange={(automaticTraining) => patch({ trainableConfig: { ...config, automaticTraining } })}
            testId="node-trainable-automatic"
          />
          <NumberInput
            id="node-trainable-threshold"
            field="trainableConfig.threshold"
            label={t('soaApp.nodePanel.trainable.threshold')}
            value={config.threshold}
            min={NODE_LIMITS.trainableThreshold.min}
            step={1}
            onChange={(threshold) =>
              patch({ trainableConfig: { ...config, threshold: threshold ?? Number.NaN } })
            }
            testId="node-trainable-threshold"
          />
        </>
      )}
    </>
  );
}
