/** The workspace settings of this browser (../settings.ts), with save and clear. */
import { useCallback, useState } from 'react';
import {
  DEFAULT_SETTINGS,
  SETTINGS_STORAGE_KEY,
  loadSettings,
  saveSettings,
  type UserSettings,
} from '../settings';

export function useUserSettings() {
  const [settings, setSettings] = useState<UserSettings>(() => loadSettings(localStorage));
  const save = useCallback((next: UserSettings) => {
    saveSettings(localStorage, next);
    setSettings(loadSettings(localStorage));
  }, []);
  const clear = useCallback(() => {
    localStorage.removeItem(SETTINGS_STORAGE_KEY);
    setSettings({ ...DEFAULT_SETTINGS });
  }, []);
  return { settings, save, clear };
}
