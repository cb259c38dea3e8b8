/**
 * The editing menu's time view: the time range of one token (the player's TimeRangeInput, mm:ss:cc, start
 * before end) with Save, which writes integer milliseconds (spec 2 section 9).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenDTO } from '../transcriptApi';
import { TimeRangeInput } from './TimestampInput';

export function TokenTimeRange({
  token,
  onSave,
}: {
  token: TokenDTO;
  onSave: (tsStart: number, tsEnd: number) => void;
}) {
  const { t } = useTranslation();
  const [range, setRange] = useState({
    start: (token.tsStart ?? 0) / 1000,
    end: (token.tsEnd ?? token.tsStart ?? 0) / 1000,
  });
  return (
    <div className="px-2 py-1" data-testid="token-time">
      <TimeRangeInput
        start={range.start}
        end={range.end}
        onChange={(start, end) => setRange({ start, end })}
        testId="token-time-range"
      />
      <div className="d-flex justify-content-end mt-2">
        <button
          type="button"
          className="btn btn-sm btn-primary"
          disabled={!(range.start < range.end)}
          onClick={() => onSave(Math.round(range.start * 1000), Math.round(range.end * 1000))}
          data-testid="token-time-save"
        >
          {t('speech.player.save')}
        </button>
      </div>
    </div>
  );
}
