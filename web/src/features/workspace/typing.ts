/** True while focus is in a field that takes text (the single-key shortcuts stay out of its way). */
export const typing = (el: Element | null) =>
  !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || (el as HTMLElement).isContentEditable);
