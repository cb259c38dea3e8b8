/** The icon and colour family of each node type (16 px stroke icons, currentColor). */
import type { ReactNode } from 'react';
import type { ActivityType } from '@domain';

export type NodeFamily = 'upload' | 'parse' | 'label' | 'llm' | 'action' | 'unknown';

const FAMILY: Record<ActivityType, NodeFamily> = {
  HUP: 'upload',
  EMAIL_UPLOAD: 'upload',
  SFTP_UPLOAD: 'upload',
  GDU_UPLOAD: 'upload',
  IPR: 'upload',
  FILE_PARSER: 'parse',
  CLF: 'label',
  SPAN: 'label',
  LEXICON: 'label',
  LLM_PROMPT: 'llm',
  IPS: 'action',
  SEND_TO_GOOGLE_DRIVE: 'action',
  SEND_MAIL: 'action',
  SEND_REQUEST: 'action',
  SEND_TO_SFTP: 'action',
};

export const nodeFamily = (type: string): NodeFamily => FAMILY[type as ActivityType] ?? 'unknown';

const UPLOAD = <path d="M8 11V3M5 6l3-3 3 3M3 13h10" />;
const MAIL = (
  <>
    <rect x="2" y="3.5" width="12" height="9" rx="1.5" />
    <path d="M2.5 4.5L8 9l5.5-4.5" />
  </>
);
const SERVER = (
  <>
    <rect x="2.5" y="2.5" width="11" height="4.5" rx="1" />
    <rect x="2.5" y="9" width="11" height="4.5" rx="1" />
    <path d="M5 4.75h.01M5 11.25h.01" />
  </>
);
const CLOUD = <path d="M4.5 12.5a3 3 0 01-.4-5.97A4 4 0 0111.8 6a2.75 2.75 0 01.2 5.5z" />;

const GLYPHS: Record<ActivityType, ReactNode> = {
  HUP: UPLOAD,
  EMAIL_UPLOAD: MAIL,
  SFTP_UPLOAD: SERVER,
  GDU_UPLOAD: CLOUD,
  IPR: <path d="M2 8h8M7 5l3 3-3 3M13 2.5v11" />,
  FILE_PARSER: (
    <>
      <path d="M4 1.5h5.5L12.5 4.5v10h-8.5z" />
      <path d="M9.5 1.5v3h3M6 8h4.5M6 10.5h4.5" />
    </>
  ),
  CLF: (
    <>
      <path d="M2 2.5h5.5l6.5 6.5-5 5-7-7z" />
      <circle cx="5" cy="5.5" r="1" />
    </>
  ),
  SPAN: <path d="M5 3H3v10h2M11 3h2v10h-2M6 8h4" />,
  LEXICON: (
    <>
      <path d="M3 2.5h8.5a1 1 0 011 1v10H4a1 1 0 01-1-1z" />
      <path d="M3 12.5a1 1 0 011-1h8.5M6 5.5h4" />
    </>
  ),
  LLM_PROMPT: (
    <path d="M8 1.5l1.4 4.1L13.5 7 9.4 8.4 8 12.5 6.6 8.4 2.5 7l4.1-1.4zM12.5 11.5l.6 1.4 1.4.6-1.4.6-.6 1.4-.6-1.4-1.4-.6 1.4-.6z" />
  ),
  IPS: <path d="M3 2.5v11M6 8h8M11 5l3 3-3 3" />,
  SEND_TO_GOOGLE_DRIVE: (
    <>
      {CLOUD}
      <path d="M8 11V7.5M6.5 9L8 7.5 9.5 9" />
    </>
  ),
  SEND_MAIL: (
    <>
      <path d="M14 2L7 9" />
      <path d="M14 2l-4.5 12L7 9 2 6.5z" />
    </>
  ),
  SEND_REQUEST: (
    <>
      <circle cx="8" cy="8" r="6" />
      <path d="M2 8h12M8 2a9 9 0 010 12M8 2a9 9 0 000 12" />
    </>
  ),
  SEND_TO_SFTP: (
    <>
      {SERVER}
      <path d="M9.5 4.75h2M9.5 11.25h2" />
    </>
  ),
};

const UNKNOWN = (
  <>
    <circle cx="8" cy="8" r="6" />
    <path d="M6.3 6.2a1.8 1.8 0 113 1.3c-.7.5-1.3.9-1.3 1.8M8 11.5h.01" />
  </>
);

export function NodeTypeIcon({ type, size = 16 }: { type: string; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.4}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {GLYPHS[type as ActivityType] ?? UNKNOWN}
    </svg>
  );
}

/** A warning triangle (the unconnected-node badge). */
export function IconWarning({ size = 14 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M8 1.5L15 14H1z" fill="currentColor" />
      <path d="M8 6v3.5M8 11.6v.1" stroke="#fff" strokeWidth={1.6} strokeLinecap="round" />
    </svg>
  );
}

/** A funnel (the predicate button on an edge). */
export function IconFilter({ size = 12 }: { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M2 3h12L9.5 8.5V13l-3-1.5v-3z" />
    </svg>
  );
}
