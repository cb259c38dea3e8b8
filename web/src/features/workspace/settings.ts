/**
 * The workspace's user settings (spec 2 section 3 "User setting"): font size, line height, font colour and
 * the source-download block, kept in this browser's local storage and applied as CSS variables on the
 * workspace. Pure apart from the storage passed in.
 */

export type SettingName = 'font-size' | 'line-height' | 'font-color' | 'source-download-blocked';

export interface SettingDef {
  name: SettingName;
  type: 'number' | 'color' | 'checkbox';
  unit?: string;
  step?: number;
  min?: number;
  max?: number;
}

export const SETTING_DEFS: readonly SettingDef[] = [
  { name: 'font-size', type: 'number', unit: 'px', step: 0.5, min: 8, max: 48 },
  { name: 'line-height', type: 'number', step: 0.1, min: 1, max: 4 },
  { name: 'font-color', type: 'color' },
  { name: 'source-download-blocked', type: 'checkbox' },
];

export interface UserSettings {
  'font-size': number;
  'line-height': number;
  'font-color': string;
  'source-download-blocked': boolean;
}

export const DEFAULT_SETTINGS: Readonly<UserSettings> = {
  'font-size': 18,
  'line-height': 1.5,
  'font-color': '#50565b',
  'source-download-blocked': false,
};

export const SETTINGS_STORAGE_KEY = 'workspace.settings';

const COLOR = /^#[0-9a-f]{6}$/i;

/** A stored value of any shape made safe: unknown or out-of-range entries fall back to the defaults. */
export function sanitizeSettings(raw: unknown): UserSettings {
  const out: UserSettings = { ...DEFAULT_SETTINGS };
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  for (const def of SETTING_DEFS) {
    const v = r[def.name];
    if (def.type === 'number' && typeof v === 'number' && Number.isFinite(v)) {
      if ((def.min === undefined || v >= def.min) && (def.max === undefined || v <= def.max))
        (out[def.name] as number) = v;
    } else if (def.type === 'color' && typeof v === 'string' && COLOR.test(v)) {
      (out[def.name] as string) = v;
    } else if (def.type === 'checkbox' && typeof v === 'boolean') {
      (out[def.name] as boolean) = v;
    }
  }
  return out;
}

export function loadSettings(storage: Pick<Storage, 'getItem'>): UserSettings {
  try {
    return sanitizeSettings(JSON.parse(storage.getItem(SETTINGS_STORAGE_KEY) ?? 'null'));
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function saveSettings(storage: Pick<Storage, 'setItem'>, settings: UserSettings): void {
  storage.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(sanitizeSettings(settings)));
}

/** The CSS variables the text views read (set through the CSSOM: no inline style attribute text). */
export function settingsCssVariables(s: UserSettings): Record<string, string> {
  return {
    '--ws-font-size': `${s['font-size']}px`,
    '--ws-line-height': String(s['line-height']),
    '--ws-font-color': s['font-color'],
  };
}

// --- the tools sidebar's size ---

export const SIDEBAR_SIZE_KEY = 'workspace.toolsSidebarSize';
export const SIDEBAR_MIN = 20;
export const SIDEBAR_MAX = 60;
export const SIDEBAR_DEFAULT = 25;

/** A size in percent of the workspace's width, kept within [min, max]. */
export const clampSidebarSize = (n: number): number =>
  Number.isFinite(n)
    ? Math.min(SIDEBAR_MAX, Math.max(SIDEBAR_MIN, Math.round(n * 10) / 10))
    : SIDEBAR_DEFAULT;

export function loadSidebarSize(storage: Pick<Storage, 'getItem'>): number {
  const raw = storage.getItem(SIDEBAR_SIZE_KEY);
  return raw === null ? SIDEBAR_DEFAULT : clampSidebarSize(Number(raw));
}
