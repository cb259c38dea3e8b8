import {
  placeMenu,
  pointAnchor,
  VIEWPORT_MARGIN as M,
  type Anchor,
  type Placement,
  type Size,
} from './floatingMenu';

const viewport: Size = { width: 1000, height: 800 };
/** A word 60 wide and 20 high with its top-left corner at (x, y). */
const word = (x: number, y: number): Anchor => ({ left: x, top: y, right: x + 60, bottom: y + 20 });
const menu: Size = { width: 200, height: 150 };

const box = (p: Placement, size: Size) => ({
  left: p.left,
  top: p.top,
  right: p.left + size.width,
  bottom: p.top + Math.min(size.height, p.maxHeight ?? Infinity),
});
const covers = (p: Placement, size: Size, a: Anchor) => {
  const b = box(p, size);
  return b.top < a.bottom && a.top < b.bottom && b.left < a.right && a.left < b.right;
};
const insideViewport = (p: Placement, size: Size) => {
  const b = box(p, size);
  return b.left >= M && b.top >= M && b.right <= viewport.width - M && b.bottom <= viewport.height - M;
};

describe('placeMenu', () => {
  it('opens below the anchor, aligned with its left edge, gap pixels off', () => {
    expect(placeMenu(word(100, 200), menu, viewport)).toEqual({ left: 100, top: 220 });
    expect(placeMenu(word(100, 200), menu, viewport, 4)).toEqual({ left: 100, top: 224 });
  });

  it('opens at the pointer when the anchor is a point', () => {
    expect(placeMenu(pointAnchor(300, 400), menu, viewport)).toEqual({ left: 300, top: 400 });
  });

  it('flips above the anchor when there is no room below, without covering it', () => {
    const a = word(100, 700);
    const p = placeMenu(a, menu, viewport, 4);
    expect(p).toEqual({ left: 100, top: 700 - 4 - 150 });
    expect(covers(p, menu, a)).toBe(false);
    expect(insideViewport(p, menu)).toBe(true);
  });

  it('stays below when the menu just fits above the bottom margin', () => {
    const a = word(100, 800 - M - 150 - 20);
    expect(placeMenu(a, menu, viewport).top).toBe(a.bottom);
    expect(placeMenu({ ...a, top: a.top + 1, bottom: a.bottom + 1 }, menu, viewport).top).toBe(
      a.top + 1 - 150,
    );
  });

  it('keeps the menu inside the window on the right', () => {
    const p = placeMenu(word(950, 100), menu, viewport);
    expect(p.left).toBe(1000 - 200 - M);
    expect(insideViewport(p, menu)).toBe(true);
  });

  it('keeps a menu wider than the window at the left margin', () => {
    expect(placeMenu(word(50, 100), { width: 1200, height: 100 }, viewport).left).toBe(M);
  });

  it('never covers the anchor: a menu taller than both sides takes the roomier one and scrolls', () => {
    const tall: Size = { width: 200, height: 700 };
    const low = word(100, 600);
    const above = placeMenu(low, tall, viewport);
    expect(above).toEqual({ left: 100, top: M, maxHeight: 600 - M });
    expect(covers(above, tall, low)).toBe(false);
    expect(insideViewport(above, tall)).toBe(true);

    const high = word(100, 150);
    const below = placeMenu(high, tall, viewport, 4);
    expect(below).toEqual({ left: 100, top: 174, maxHeight: 800 - M - 174 });
    expect(covers(below, tall, high)).toBe(false);
    expect(insideViewport(below, tall)).toBe(true);
  });

  it('keeps the menu inside the window when the anchor has scrolled out of it', () => {
    expect(placeMenu(word(100, -100), menu, viewport).top).toBe(M);
    expect(placeMenu(word(100, 900), menu, viewport).top).toBe(800 - M - 150);
  });

  it('never covers the anchor nor leaves the window, wherever the anchor stands', () => {
    for (let y = 0; y <= 780; y += 10)
      for (const x of [0, 480, 940]) {
        const a = word(x, y);
        const p = placeMenu(a, menu, viewport, 4);
        expect({ y, x, covers: covers(p, menu, a), inside: insideViewport(p, menu) }).toEqual({
          y,
          x,
          covers: false,
          inside: true,
        });
      }
  });
});
