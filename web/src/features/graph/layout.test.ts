import {
  LAYOUT_NODE_SIZE,
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
