/** A link that opens another site in a new tab, without giving it this window (noopener, noreferrer). */
import type { ReactNode } from 'react';

export function ExternalLink({
  href,
  className,
  testId,
  children,
}: {
  href: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className} data-testid={testId}>
      {children}
    </a>
  );
}
