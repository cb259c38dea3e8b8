/** A numbered, collapsible section of the node side panel. */
import { useId, useState, type ReactNode } from 'react';

export interface PanelSectionProps {
  /** Stable section name (data-section), e.g. 'labels', 'additional'. */
  name: string;
  number: number;
  title: ReactNode;
  children: ReactNode;
  defaultOpen?: boolean;
}

export function PanelSection({ name, number, title, children, defaultOpen = true }: PanelSectionProps) {
  const [open, setOpen] = useState(defaultOpen);
  const bodyId = useId();
  return (
    <section
      className={`node-section ${open ? 'open' : ''}`}
      data-testid="node-section"
      data-section={name}
      data-number={number}
    >
      <h3 className="node-section-title">
        <button
          type="button"
          className="node-section-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((o) => !o)}
          data-testid="node-section-toggle"
        >
          <span className="node-section-number">{number}</span>
          <span className="flex-grow-1 text-start">{title}</span>
          <svg className="node-section-chevron" width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
            <path
              d="M4 6l4 4 4-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </svg>
        </button>
      </h3>
      {open && (
        <div className="node-section-body" id={bodyId}>
          {children}
        </div>
      )}
    </section>
  );
}
