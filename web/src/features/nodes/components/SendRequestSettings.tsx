/**
 * Send-request node: the trigger, the method, the URL (http(s):// or a leading wildcard), the headers and,
 * for methods other than GET, the body: JSON fields (key / value) or plain text with wildcards.
 */
import { useTranslation } from 'react-i18next';
import { BodyTypes, HttpRequestMethods, type BodyType, type HttpRequestMethod } from '@domain/graph-types';
import { useNodeForm } from '../form';
import { SelectInput } from './fields';
import { KeyValueEditor } from './KeyValueEditor';
import { TemplateField, plainEditorState } from './TemplateField';
import { TriggerSettings } from './TriggerSettings';

export function SendRequestSettings() {
  const { t } = useTranslation();
  const { draft, patch } = useNodeForm();
  const method = draft.httpRequestMethod;
  const body = draft.requestBody ?? { bodyType: null };

  return (
    <>
      <TriggerSettings />
      <SelectInput
        id="node-request-method"
        field="httpRequestMethod"
        label={t('soaApp.nodePanel.request.method')}
        value={method}
        onChange={(v) => patch({ httpRequestMethod: (v || null) as HttpRequestMethod | null })}
        testId="request-method"
      >
        <option value="">{t('soaApp.nodePanel.choose')}</option>
        {HttpRequestMethods.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </SelectInput>
      <TemplateField
        id="node-request-url"
        field="url"
        context="other"
        singleLine
        label={t('soaApp.nodePanel.request.url')}
        placeholder="https://"
        value={draft.url}
        onChange={(url) => patch({ url, urlEditorState: plainEditorState(url) })}
        testId="request-url"
      />
      <KeyValueEditor
        field="headers"
        label={t('soaApp.nodePanel.request.headers')}
        value={draft.headers}
        onChange={(headers) => patch({ headers })}
        testId="request-headers"
      />
      {method && method !== 'GET' && (
        <>
          <SelectInput
            id="node-request-body-type"
            field="requestBody.bodyType"
            label={t('soaApp.nodePanel.request.bodyType')}
            value={body.bodyType}
            onChange={(v) => patch({ requestBody: { ...body, bodyType: (v || null) as BodyType | null } })}
            testId="request-body-type"
          >
            <option value="">{t('soaApp.nodePanel.choose')}</option>
            {BodyTypes.map((b) => (
              <option key={b} value={b}>
                {t(`soaApp.nodePanel.request.bodyTypes.${b}`)}
              </option>
            ))}
          </SelectInput>
          {body.bodyType === 'JSON' && (
            <KeyValueEditor
              field="requestBody.jsonBody"
              label={t('soaApp.nodePanel.request.jsonBody')}
              value={body.jsonBody}
              onChange={(jsonBody) => patch({ requestBody: { ...body, jsonBody } })}
              testId="request-json"
            />
          )}
          {body.bodyType === 'PLAIN_TEXT' && (
            <TemplateField
              id="node-request-plain"
              field="requestBody.plainTextBody"
              context="node"
              label={t('soaApp.nodePanel.request.plainTextBody')}
              value={body.plainTextBody}
              rows={6}
              onChange={(plainTextBody) =>
                patch({
                  requestBody: {
                    ...body,
                    plainTextBody,
                    plainTextBodyEditorState: plainEditorState(plainTextBody),
                  },
                })
              }
              testId="request-plain"
            />
          )}
        </>
      )}
    </>
  );
}
