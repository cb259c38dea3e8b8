/**
 * Add or edit a webhook subscription: URL, the events (checkboxes) and active. Rules from domain/webhooks.ts;
 * the net guard's refusal of an address comes from the API. On creation the secret is shown once by the page.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { WebhookEventTypes, webhookEventsRule, webhookUrlRule } from '@domain/webhooks';
import { Field, inputClass, ViolationMessage } from '../../../components/FormField';
import { Modal } from '../../../components/Modal';
import { useSaveWebhook, type WebhookDTO } from '../api';

export interface WebhookEditModalProps {
  processId: number;
  /** null: a new subscription. */
  webhook: WebhookDTO | null;
  onSaved: (saved: WebhookDTO) => void;
  onClose: () => void;
}

export function WebhookEditModal({ processId, webhook, onSaved, onClose }: WebhookEditModalProps) {
  const { t } = useTranslation();
  const save = useSaveWebhook(processId);
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<string[]>(webhook?.events ?? [...WebhookEventTypes]);
  const [active, setActive] = useState(webhook?.active ?? true);
  const [touched, setTouched] = useState(false);
  const urlViolation = webhookUrlRule(url);
  const eventsViolation = webhookEventsRule(events);
  const invalid = !!urlViolation || !!eventsViolation;

  const toggle = (type: string, on: boolean) =>
    setEvents((all) => (on ? [...all, type] : all.filter((e) => e !== type)));

  const onSubmit = (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (invalid || save.isPending) return;
    save.mutate(
      { id: webhook?.id ?? null, body: { url: url.trim(), events, active } },
      { onSuccess: onSaved },
    );
  };

  return (
    <Modal
      title={t(webhook ? 'webhooks.edit.title' : 'webhooks.create.title')}
      onClose={onClose}
      testId="webhook-edit-modal"
      footer={
        <>
          <button type="button" className="btn btn-outline-secondary" onClick={onClose}>
            {t('global.common.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={save.isPending}
            onClick={() => onSubmit()}
            data-testid="webhook-save"
          >
            {t(webhook ? 'global.common.save' : 'global.common.create')}
          </button>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <Field id="webhook-url" label={t('webhooks.field.url')} violation={urlViolation} show={touched}>
          <input
            id="webhook-url"
            className={inputClass(urlViolation, touched)}
            value={url}
            autoFocus
            autoComplete="off"
            placeholder="https://example.com/webhooks"
            onChange={(e) => setUrl(e.target.value)}
            data-testid="webhook-url"
          />
        </Field>
        <fieldset className="mb-3">
          <legend className="form-label fs-6">{t('webhooks.field.events')}</legend>
          {WebhookEventTypes.map((type) => (
            <div className="form-check" key={type}>
              <input
                id={`webhook-event-${type}`}
                type="checkbox"
                className="form-check-input"
                checked={events.includes(type)}
                onChange={(e) => toggle(type, e.target.checked)}
                data-testid={`webhook-event-${type}`}
              />
              <label htmlFor={`webhook-event-${type}`} className="form-check-label">
                <code>{type}</code>{' '}
                <span className="text-body-secondary small">{t(`webhooks.event.${type}`)}</span>
              </label>
            </div>
          ))}
          {touched && eventsViolation && (
            <ViolationMessage violation={eventsViolation} testId="webhook-events-error" />
          )}
        </fieldset>
        <div className="form-check form-switch">
          <input
            id="webhook-active"
            type="checkbox"
            role="switch"
            className="form-check-input"
            checked={active}
            onChange={(e) => setActive(e.target.checked)}
            data-testid="webhook-active"
          />
          <label htmlFor="webhook-active" className="form-check-label">
            {t('webhooks.field.active')}
          </label>
        </div>
        {!webhook && <p className="form-text mt-3 mb-0">{t('webhooks.create.secretHelp')}</p>}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
