import { tagVisible, visibleTags, type VisibilityStep, type Viewer } from './blind-annotation';

const A = 1;
const B = 2;
const READER = 3;
const NODE = 10;
const EARLIER = 9;

const step = (id: number, over: Partial<VisibilityStep> = {}): VisibilityStep => ({
  id,
  nodeId: NODE,
  status: 'WAITING',
  blockedBy: null,
  master: false,
  ...over,
});

const viewer = (userId: number, over: Partial<Viewer> = {}): Viewer => ({
  userId,
  nodeMode: () => 'WRITE',
  seeEachOther: () => false,
  ...over,
});

describe('blind multi-annotation', () => {
  const open = [
    step(100, { nodeId: EARLIER, status: 'DONE', master: true }),
    step(101, { blockedBy: A, master: true }),
    step(102, { blockedBy: B }),
  ];

  it("shows an annotator their own step and not the other annotator's while they work", () => {
    expect(tagVisible({ nodeId: NODE, stepId: 101 }, open, viewer(A))).toBe(true);
    expect(tagVisible({ nodeId: NODE, stepId: 102 }, open, viewer(A))).toBe(false);
    expect(tagVisible({ nodeId: NODE, stepId: 101 }, open, viewer(B))).toBe(false);
  });

  it('shows earlier nodes and tags written by no step of the node to everyone', () => {
    expect(tagVisible({ nodeId: EARLIER, stepId: 100 }, open, viewer(B))).toBe(true);
    expect(tagVisible({ nodeId: NODE, stepId: null }, open, viewer(B))).toBe(true);
    expect(tagVisible({ nodeId: NODE, stepId: 100 }, open, viewer(B))).toBe(true);
  });

  it('shows a reviewer (ADMIN on the node) every step', () => {
    const admin = viewer(READER, { nodeMode: () => 'ADMIN' });
    expect(
      visibleTags(
        [
          { nodeId: NODE, stepId: 101 },
          { nodeId: NODE, stepId: 102 },
        ],
        open,
        admin,
      ),
    ).toHaveLength(2);
  });

  it('lets annotators see each other after submitting only when the node says so', () => {
    const aDone = [open[0], { ...open[1], status: 'DONE' as const }, open[2]];
    expect(tagVisible({ nodeId: NODE, stepId: 102 }, aDone, viewer(A))).toBe(false);
    expect(tagVisible({ nodeId: NODE, stepId: 102 }, aDone, viewer(A, { seeEachOther: () => true }))).toBe(
      true,
    );
    // B has not submitted: still blind, whatever the setting
    expect(tagVisible({ nodeId: NODE, stepId: 101 }, aDone, viewer(B, { seeEachOther: () => true }))).toBe(
      false,
    );
  });

  it('shows others the master step once the node is finished, never the other steps', () => {
    expect(tagVisible({ nodeId: NODE, stepId: 101 }, open, viewer(READER))).toBe(false);
    const done = open.map((s) => ({ ...s, status: 'DONE' as const }));
    expect(tagVisible({ nodeId: NODE, stepId: 101 }, done, viewer(READER))).toBe(true);
    expect(tagVisible({ nodeId: NODE, stepId: 102 }, done, viewer(READER))).toBe(false);
  });

  it('hides nothing on a node with one step', () => {
    const single = [step(101, { blockedBy: A, master: true })];
    expect(tagVisible({ nodeId: NODE, stepId: 101 }, single, viewer(B))).toBe(true);
  });
});
