import {
  DEFAULT_SETTINGS,
  SETTINGS_STORAGE_KEY,
  SIDEBAR_DEFAULT,
  SIDEBAR_SIZE_KEY,
  clampSidebarSize,
  loadSettings,
  loadSidebarSize,
  sanitizeSettings,
  saveSettings,
  settingsCssVariables,
} from './settings';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
}

describe('workspace settings', () => {
  it('starts from the spec defaults', () => {
    expect(loadSettings(memoryStorage())).toEqual({
      'font-size': 18,
      'line-height': 1.5,
      'font-color': '#50565b',
      'source-download-blocked': false,
    });
  });

  it('round-trips through storage', () => {
    const storage = memoryStorage();
    const changed = { ...DEFAULT_SETTINGS, 'font-size': 20.5, 'source-download-blocked': true };
    saveSettings(storage, changed);
    expect(loadSettings(storage)).toEqual(changed);
  });

  it('falls back to the default for anything unusable in storage', () => {
    expect(loadSettings(memoryStorage({ [SETTINGS_STORAGE_KEY]: '{not json' }))).toEqual(DEFAULT_SETTINGS);
    expect(
      sanitizeSettings({
        'font-size': 1000,
        'line-height': '2',
        'font-color': 'red;background:url(x)',
        'source-download-blocked': 'yes',
      }),
    ).toEqual(DEFAULT_SETTINGS);
  });

  it('gives the CSS variables of the text views', () => {
    expect(settingsCssVariables(DEFAULT_SETTINGS)).toEqual({
      '--ws-font-size': '18px',
      '--ws-line-height': '1.5',
      '--ws-font-color': '#50565b',
    });
  });
});

describe('tools sidebar size', () => {
  it('defaults to 25 % and keeps a stored size within its limits', () => {
    expect(loadSidebarSize(memoryStorage())).toBe(SIDEBAR_DEFAULT);
    expect(loadSidebarSize(memoryStorage({ [SIDEBAR_SIZE_KEY]: '33.3' }))).toBe(33.3);
    expect(loadSidebarSize(memoryStorage({ [SIDEBAR_SIZE_KEY]: '5' }))).toBe(20);
    expect(loadSidebarSize(memoryStorage({ [SIDEBAR_SIZE_KEY]: 'wide' }))).toBe(SIDEBAR_DEFAULT);
    expect(clampSidebarSize(95)).toBe(60);
  });
});
