/**
 * The relations drawn over the text (issue 12 section 1): an SVG layer inside the scrolled text (so it scrolls
 * with it) with one labelled arc per relation, from the top of its source tag to the top of its target tag,
 * in the relation type's colour (dashed while held in the draft); and, with 'Highlight tags without relation'
 * on, a dashed outline around every drawn tag segment that takes part in no saved relation.
 *
 * Only what is drawn is measured: the view cuts into tag segments the blocks near the viewport only, so an arc
 * whose tags lie in blocks far away is not drawn until they are (the layer re-measures when the segments
 * change, on resize, and when the relations change). A click on an arc's label opens the relation menu to
 * change its type.
 */
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { layoutArcs, type Arc, type TagBox, type TypeLabel } from '../relations';

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Measured {
  width: number;
  height: number;
  /** each arc end's first segment (left, width, top), by tag id */
  anchors: Map<number, TagBox>;
  outlines: Box[];
}

const EMPTY: Measured = { width: 0, height: 0, anchors: new Map(), outlines: [] };
const LABEL_FONT = 10;
const labelWidth = (name: string) => Math.max(24, name.length * LABEL_FONT * 0.6 + 8);

function measure(
  root: HTMLElement,
  svg: SVGSVGElement | null,
  tagIds: Set<number>,
  unrelated: Set<number> | null,
) {
  const origin = root.getBoundingClientRect();
  const dx = -origin.left - root.clientLeft + root.scrollLeft;
  const dy = -origin.top - root.clientTop + root.scrollTop;
  const anchors = new Map<number, TagBox>();
  const outlines: Box[] = [];
  for (const seg of root.querySelectorAll<HTMLElement>('[data-tags]')) {
    if (svg?.contains(seg)) continue;
    const starts = seg.dataset.tagStart ? seg.dataset.tagStart.split(' ').map(Number) : [];
    for (const id of starts)
      if (tagIds.has(id) && !anchors.has(id)) {
        const r = seg.getClientRects()[0] ?? seg.getBoundingClientRect();
        anchors.set(id, { x: r.left + dx, w: r.width, y: r.top + dy });
      }
    if (unrelated && seg.dataset.tags!.split(' ').some((id) => unrelated.has(Number(id))))
      for (const r of seg.getClientRects())
        outlines.push({ x: r.left + dx - 1, y: r.top + dy - 1, w: r.width + 2, h: r.height + 2 });
  }
  return { width: root.scrollWidth, height: root.scrollHeight, anchors, outlines };
}

export interface RelationsLayerProps {
  root: React.RefObject<HTMLDivElement | null>;
  arcs: Arc[];
  typesById: ReadonlyMap<number, TypeLabel>;
  /** tags to outline (tags without relation), or null when the highlight is off */
  unrelated: Set<number> | null;
  /** a redraw key: changes when the tags drawn change */
  version: unknown;
  onArcClick: (arc: Arc, x: number, y: number) => void;
}

export const RelationsLayer = memo(function RelationsLayer({
  root,
  arcs,
  typesById,
  unrelated,
  version,
  onArcClick,
}: RelationsLayerProps) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [m, setM] = useState<Measured>(EMPTY);
  const [host, setHost] = useState<HTMLElement | null>(null);

  useLayoutEffect(() => setHost(root.current), [root]);

  useEffect(() => {
    const el = root.current;
    if (!el || (!arcs.length && !unrelated)) {
      setM(EMPTY);
      return;
    }
    const tagIds = new Set(arcs.flatMap((a) => [a.fromId, a.toId]));
    let frame = 0;
    const schedule = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        setM(measure(el, svgRef.current, tagIds, unrelated));
      });
    };
    schedule();
    const mutations = new MutationObserver((list) => {
      const svg = svgRef.current;
      if (list.some((x) => !svg || !svg.contains(x.target))) schedule();
    });
    mutations.observe(el, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['data-tags'],
    });
    const resize = new ResizeObserver(schedule);
    resize.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      mutations.disconnect();
      resize.disconnect();
    };
  }, [root, arcs, unrelated, version]);

  if (!host || (!arcs.length && !unrelated)) return null;
  const colorOf = (arc: Arc) => typesById.get(arc.relationTypeId)?.color ?? '#6c757d';
  const nameOf = (arc: Arc) => typesById.get(arc.relationTypeId)?.name ?? `#${arc.relationTypeId}`;
  const colors = [...new Set(arcs.map(colorOf))];
  const layout = layoutArcs(arcs, m.anchors, (arc) => labelWidth(nameOf(arc)));
  return createPortal(
    <svg
      ref={svgRef}
      className="ws-relations-layer"
      width={m.width}
      height={m.height}
      data-testid="relations-layer"
      aria-hidden="true"
    >
      <defs>
        {colors.map((c, i) => (
          <marker
            key={c}
            id={`ws-rel-arrow-${i}`}
            viewBox="0 0 8 8"
            refX="7"
            refY="4"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M 0 0 L 8 4 L 0 8 z" fill={c} />
          </marker>
        ))}
      </defs>
      {m.outlines.map((b, i) => (
        <rect
          key={`o${i}`}
          className="ws-unrelated"
          data-testid="unrelated-outline"
          x={b.x}
          y={b.y}
          width={b.w}
          height={b.h}
          rx={3}
        />
      ))}
      {layout.map(({ arc, d, labelX, labelY }) => {
        const color = colorOf(arc);
        const name = nameOf(arc);
        const labelW = labelWidth(name);
        return (
          <g
            key={arc.key}
            className={`ws-arc${arc.pending ? ' is-pending' : ''}`}
            data-testid="relation-arc"
            data-from={arc.fromId}
            data-to={arc.toId}
            data-type={arc.relationTypeId}
            data-pending={arc.pending}
          >
            <path d={d} stroke={color} markerEnd={`url(#ws-rel-arrow-${colors.indexOf(color)})`} />
            <g
              className="ws-arc-label"
              onMouseDown={(e) => e.stopPropagation()}
              onClick={(e) => {
                e.stopPropagation();
                onArcClick(arc, e.clientX, e.clientY);
              }}
              data-testid="relation-arc-label"
            >
              <rect
                x={labelX - labelW / 2}
                y={labelY - LABEL_FONT + 1}
                width={labelW}
                height={LABEL_FONT + 4}
                rx={3}
                stroke={color}
              />
              <text x={labelX} y={labelY + 2} fill={color} textAnchor="middle" fontSize={LABEL_FONT}>
                {name}
              </text>
            </g>
          </g>
        );
      })}
    </svg>,
    host,
  );
});
