import {
  FREE_GAP,
  LAYOUT_NODE_SIZE,
  NODE_HEIGHT,
  NODE_WIDTH,
  freeSpot,
  occupiedRects,
  type Rect,
  UPLOAD_SPACING,
  followUpPosition,
  layoutGraph,
  movedFarEnough,
  type LayoutNode,
} from './layout';

const node = (id: number, x = 0, y = 0, upload = false): LayoutNode => ({ id, x, y, upload });

describe('graph layout', () => {
  it('keeps saved coordinates', () => {
    const { positions } = layoutGraph([node(1, 400, 120), node(2, 700, 80)], [{ fromId: 1, toId: 2 }]);
    expect(positions.get(1)).toEqual({ x: 400, y: 120 });
    expect(positions.get(2)).toEqual({ x: 700, y: 80 });
  });

  it('lays out unplaced nodes left to right along their edges', () => {
    const { positions } = layoutGraph(
      [node(1), node(2), node(3)],
      [
        { fromId: 1, toId: 2 },
        { fromId: 2, toId: 3 },
      ],
    );
    const [a, b, c] = [1, 2, 3].map((id) => positions.get(id)!);
    expect(b.x - a.x).toBeGreaterThanOrEqual(LAYOUT_NODE_SIZE);
    expect(c.x - b.x).toBeGreaterThanOrEqual(LAYOUT_NODE_SIZE);
  });

  it('puts laid-out nodes below the placed ones', () => {
    const { positions } = layoutGraph([node(1, 100, 500), node(2)], []);
    expect(positions.get(2)!.y).toBeGreaterThanOrEqual(500 + LAYOUT_NODE_SIZE);
  });

  it('stacks upload nodes in a column left of the rest, whatever their coordinates', () => {
    const { positions, uploadGroup } = layoutGraph(
      [node(5, 900, 900, true), node(3, 0, 0, true), node(1, 400, 200)],
      [{ fromId: 3, toId: 1 }],
    );
    const first = positions.get(3)!;
    const second = positions.get(5)!;
    expect(second.x).toBe(first.x);
    expect(second.y - first.y).toBe(UPLOAD_SPACING);
    expect(first.x).toBeLessThan(400);
    expect(first.y).toBe(200);
    expect(uploadGroup).not.toBeNull();
    expect(uploadGroup!.x).toBeLessThan(first.x);
    expect(uploadGroup!.y + uploadGroup!.height).toBeGreaterThan(second.y);
  });

  it('has no group box without upload nodes', () => {
    expect(layoutGraph([node(1, 10, 10)], []).uploadGroup).toBeNull();
  });

  it('places a follow-up 300 right and 50 up, and treats a move under 5 px as a click', () => {
    expect(followUpPosition({ x: 10, y: 100 })).toEqual({ x: 310, y: 50 });
    expect(movedFarEnough({ x: 0, y: 0 }, { x: 3, y: 3 })).toBe(false);
    expect(movedFarEnough({ x: 0, y: 0 }, { x: 5, y: 0 })).toBe(true);
  });
});

describe('free spot for a new node', () => {
  const apart = (a: Rect, b: Rect) =>
    a.x >= b.x + b.width + FREE_GAP.x ||
    b.x >= a.x + a.width + FREE_GAP.x ||
    a.y >= b.y + b.height + FREE_GAP.y ||
    b.y >= a.y + a.height + FREE_GAP.y;
  const card = (p: { x: number; y: number }): Rect => ({ ...p, width: NODE_WIDTH, height: NODE_HEIGHT });

  it('keeps the preferred spot when it is free', () => {
    expect(freeSpot({ x: 500, y: 200 }, occupiedRects(new Map([[1, { x: 100, y: 100 }]]), null))).toEqual({
      x: 500,
      y: 200,
    });
  });

  it('never puts six nodes added at the same spot on top of each other or of the others', () => {
    const taken = [
      { x: 300, y: 200 },
      { x: 600, y: 180 },
    ];
    const group: Rect = { x: -16, y: 150, width: 182, height: 150 };
    for (let i = 0; i < 6; i++) {
      const p = freeSpot({ x: 310, y: 210 }, occupiedRects(new Map(taken.map((p, k) => [k, p])), group));
      for (const other of occupiedRects(new Map(taken.map((p, k) => [k, p])), group))
        expect(apart(card(p), other)).toBe(true);
      taken.push(p);
    }
    expect(new Set(taken.map((p) => `${p.x},${p.y}`)).size).toBe(8);
  });

  it('prefers the right and below of a taken spot', () => {
    const p = freeSpot({ x: 100, y: 100 }, occupiedRects(new Map([[1, { x: 100, y: 100 }]]), null));
    expect(p).toEqual({ x: 100 + NODE_WIDTH + FREE_GAP.x, y: 100 });
  });

  it('keeps clear of edges between nodes', () => {
    const positions = new Map([
      [1, { x: 0, y: 300 }],
      [2, { x: 800, y: 300 }],
    ]);
    const p = freeSpot({ x: 400, y: 300 }, occupiedRects(positions, null, [{ fromId: 1, toId: 2 }]));
    const lineY = 300 + NODE_HEIGHT / 2;
    expect(p.y > lineY + FREE_GAP.y || p.y + NODE_HEIGHT < lineY - FREE_GAP.y).toBe(true);
  });

  it('fills a row right of the preferred spot before going below', () => {
    const taken: { x: number; y: number }[] = [];
    for (let i = 0; i < 5; i++)
      taken.push(freeSpot({ x: 100, y: 100 }, occupiedRects(new Map(taken.map((p, k) => [k, p])), null)));
    expect(taken.map((p) => p.y)).toEqual([100, 100, 100, 100, 100 + NODE_HEIGHT + FREE_GAP.y]);
    expect(taken[1].x - taken[0].x).toBe(NODE_WIDTH + FREE_GAP.x);
  });

  it('never answers (0, 0), which means not placed', () => {
    const p = freeSpot({ x: 0, y: 0 }, []);
    expect(p.x !== 0 || p.y !== 0).toBe(true);
  });
});
