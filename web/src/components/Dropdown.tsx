/** A Bootstrap-styled dropdown driven by React state (no Bootstrap JS). */
import { useRef, useState, type ReactNode } from 'react';
import { useOutsideClick } from './hooks';

export interface DropdownProps {
  label: ReactNode;
  children: ReactNode;
  align?: 'start' | 'end';
  testId?: string;
  /** Render as a nav item (inside a navbar) rather than a button. */
  nav?: boolean;
  toggleClassName?: string;
}

export function Dropdown({
  label,
  children,
  align = 'start',
  testId,
  nav = true,
  toggleClassName,
}: DropdownProps) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLLIElement & HTMLDivElement>(null);
  useOutsideClick(ref, open, () => setOpen(false));

  const Wrapper = nav ? 'li' : 'div';
  return (
    <Wrapper
      className={nav ? 'nav-item dropdown' : 'dropdown'}
      ref={ref}
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false);
      }}
    >
      <button
        type="button"
        className={
          toggleClassName ??
          (nav ? 'nav-link dropdown-toggle btn btn-link' : 'btn btn-outline-secondary dropdown-toggle')
        }
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid={testId}
      >
        {label}
      </button>
      {/* data-bs-popper: Bootstrap's placement rules (dropdown-menu-end aligns to the right edge) without Popper. */}
      <ul
        data-bs-popper="static"
        className={`dropdown-menu shadow-sm ${align === 'end' ? 'dropdown-menu-end' : ''} ${open ? 'show' : ''}`}
        onClick={() => setOpen(false)}
      >
        {children}
      </ul>
    </Wrapper>
  );
}
