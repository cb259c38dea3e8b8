/**
 * The speech workspace's slot for the audio player (./AudioPlayer.tsx, built beside this workspace): the
 * handle the workspace drives (seek, toggle) and the props it passes (playback only in mode NONE, the
 * source-download block, the time-span regions and their callbacks, the time updates that move the word
 * highlight). Until the player is merged the slot shows a notice and the handle does nothing.
 */
import type { Ref } from 'react';
import { useImperativeHandle } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenDTO } from '../transcriptApi';
import type { SpanRegion } from '../transcript';

export interface PlayerHandle {
  seek: (seconds: number) => void;
  toggle: () => void;
}

export interface SpeechPlayerProps {
  ref?: Ref<PlayerHandle | null>;
  documentId: number;
  playbackEnabled: boolean;
  downloadBlocked: boolean;
  regions: SpanRegion[];
  regionsEditable: boolean;
  onTimeUpdate: (seconds: number) => void;
  onRegionCreate: (start: number, end: number) => void;
  onRegionUpdate: (id: string, start: number, end: number) => void;
}

export function SpeechPlayer({ ref, downloadBlocked }: SpeechPlayerProps) {
  const { t } = useTranslation();
  useImperativeHandle(ref, () => ({ seek: () => undefined, toggle: () => undefined }), []);
  return (
    <div className="sp-player" data-testid="speech-player-slot">
      <span className="small text-body-secondary">
        {downloadBlocked ? t('speech.player.blocked') : t('speech.player.pending')}
      </span>
    </div>
  );
}

/** The time range of one token (the editing menu's time view), saved in integer ms. */
SpeechPlayer.TimeRange = function TimeRange({
  token,
}: {
  token: TokenDTO;
  onSave: (tsStart: number, tsEnd: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="small text-body-secondary px-2 py-1">
      {t('speech.player.pending')} ({token.tsStart}–{token.tsEnd} ms)
    </div>
  );
};
