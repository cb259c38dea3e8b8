import { MAX_TOASTS, dismissToast, getToasts, showToast } from './toast';

describe('toast store', () => {
  beforeAll(() => {
    jest.useFakeTimers();
    (globalThis as { window?: unknown }).window = globalThis;
  });
  afterAll(() => jest.useRealTimers());
  afterEach(() => {
    for (const t of getToasts()) dismissToast(t.id);
  });

  it(`shows at most ${MAX_TOASTS} at once, the newest ones`, () => {
    for (let i = 1; i <= 6; i++) showToast('success', `Saved ${i}`);
    expect(getToasts().map((t) => t.text)).toEqual(['Saved 4', 'Saved 5', 'Saved 6']);
  });

  it('shows the same message once while it is up, and closes each after its time', () => {
    showToast('danger', 'Failed');
    showToast('danger', 'Failed');
    expect(getToasts()).toHaveLength(1);
    jest.advanceTimersByTime(3000);
    expect(getToasts()).toHaveLength(0);
  });
});
