/** A small outlined icon button of a workspace view's toolbar (the preview's, the relations panel's). */
import type { ReactNode } from 'react';

export function ToolButton({
  title,
  onClick,
  children,
  testId,
}: {
  title: string;
  onClick: () => void;
  children: ReactNode;
  testId: string;
}) {
  return (
    <button
      type="button"
      className="btn btn-sm btn-outline-secondary"
      onClick={onClick}
      title={title}
      aria-label={title}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

/** The toolbar button as a call (title, action, icon, test id). */
export const toolButton = (title: string, onClick: () => void, children: ReactNode, testId: string) => (
  <ToolButton title={title} onClick={onClick} testId={testId}>
    {children}
  </ToolButton>
);
