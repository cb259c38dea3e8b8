/**
 * The settings panel: the user settings as inputs (number with unit and step, colour, checkbox), with
 * Cancel (back to the saved values), Clear (back to the defaults, stored) and Save.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/toast';
import { SETTING_DEFS, sanitizeSettings, type UserSettings } from '../settings';

export interface SettingsPanelProps {
  settings: UserSettings;
  onSave: (s: UserSettings) => void;
  onClear: () => void;
}

export function SettingsPanel({ settings, onSave, onClear }: SettingsPanelProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<UserSettings>(settings);
  const set = (name: keyof UserSettings, value: number | string | boolean) =>
    setDraft((d) => ({ ...d, [name]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave(sanitizeSettings(draft));
    setDraft(sanitizeSettings(draft));
    toast.success(t('workspace.tools.settingsPanel.saved'));
  };

  return (
    <form className="ws-settings" onSubmit={submit} data-testid="settings-panel">
      {SETTING_DEFS.map((def) => {
        const id = `ws-setting-${def.name}`;
        const label = t(`workspace.tools.settingsPanel.${def.name}`);
        if (def.type === 'checkbox')
          return (
            <div key={def.name} className="form-check mb-3">
              <input
                id={id}
                type="checkbox"
                className="form-check-input"
                checked={draft[def.name] as boolean}
                onChange={(e) => set(def.name, e.target.checked)}
                data-testid={`setting-${def.name}`}
              />
              <label className="form-check-label" htmlFor={id}>
                {label}
              </label>
            </div>
          );
        return (
          <div key={def.name} className="mb-3">
            <label className="form-label small fw-semibold" htmlFor={id}>
              {label}
            </label>
            <div className="input-group input-group-sm">
              <input
                id={id}
                type={def.type}
                className={def.type === 'color' ? 'form-control form-control-color' : 'form-control'}
                step={def.step}
                min={def.min}
                max={def.max}
                value={String(draft[def.name])}
                onChange={(e) =>
                  set(def.name, def.type === 'number' ? Number(e.target.value) : e.target.value)
                }
                data-testid={`setting-${def.name}`}
              />
              {def.unit && <span className="input-group-text">{def.unit}</span>}
            </div>
          </div>
        );
      })}
      <div className="d-flex gap-2 justify-content-end">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={() => setDraft(settings)}
          data-testid="settings-cancel"
        >
          {t('workspace.tools.settingsPanel.cancel')}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline-danger"
          onClick={() => {
            onClear();
            setDraft(sanitizeSettings(null));
            toast.info(t('workspace.tools.settingsPanel.cleared'));
          }}
          data-testid="settings-clear"
        >
          {t('workspace.tools.settingsPanel.clear')}
        </button>
        <button type="submit" className="btn btn-sm btn-primary" data-testid="settings-save">
          {t('workspace.tools.settingsPanel.save')}
        </button>
      </div>
    </form>
  );
}
