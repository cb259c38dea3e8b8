/**
 * The timestamp editor (spec 2 sections 5 and 9; the rules in ../timestamp.ts): a mm:ss:cc field with - and
 * + buttons. A typed value outside the format or the bounds is marked invalid and reverts to the last value
 * on blur; Enter commits. A held button steps 0.01 s, then repeats after 300 ms, 20 ms sooner each time down
 * to 30 ms. `TimeRangeInput` pairs two of them so a segment's start stays below its end.
 */
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  formatTimestamp,
  parseTimestamp,
  repeatDelay,
  segmentBounds,
  stepTimestamp,
  timestampMaxLength,
  withinBounds,
  type TimeBounds,
} from '../timestamp';

export interface TimestampInputProps extends TimeBounds {
  /** Seconds. */
  value: number;
  onChange(seconds: number): void;
  label: string;
  disabled?: boolean;
  /** The recording's duration: a recording of 100 minutes or more allows a third minute digit. */
  durationS?: number;
  testId?: string;
}

/** Steps while the pointer holds the button: once at once, then on the repeat schedule. */
function useHoldRepeat(step: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(step);
  useEffect(() => {
    latest.current = step;
  });
  const stop = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  useEffect(() => stop, []);
  const start = (e: ReactPointerEvent) => {
    if (e.button !== 0) return;
    e.preventDefault();
    stop();
    latest.current();
    const repeat = (n: number) => {
      timer.current = setTimeout(() => {
        latest.current();
        repeat(n + 1);
      }, repeatDelay(n));
    };
    repeat(0);
  };
  return { onPointerDown: start, onPointerUp: stop, onPointerLeave: stop, onPointerCancel: stop };
}

export function TimestampInput({
  value,
  onChange,
  label,
  disabled,
  min,
  max,
  durationS,
  testId = 'timestamp-input',
}: TimestampInputProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(formatTimestamp(value));
  const [editing, setEditing] = useState(false);
  const maxLength = timestampMaxLength(durationS);
  const bounds = { min, max };
  // The value moves (a step, a parent's change): the field follows unless the user is typing.
  useEffect(() => {
    if (!editing) setText(formatTimestamp(value));
  }, [value, editing]);
  // The current value while stepping: a repeat must build on the last step, not on a stale prop.
  const current = useRef(value);
  useEffect(() => {
    current.current = value;
  }, [value]);
  const parsed = parseTimestamp(text, maxLength);
  const invalid = parsed === null || !withinBounds(parsed, bounds);
  const commit = () => {
    setEditing(false);
    if (invalid) setText(formatTimestamp(value));
    else if (parsed !== value) onChange(parsed);
  };
  const stepper = (direction: 1 | -1) => () => {
    const next = stepTimestamp(current.current, direction, bounds);
    if (next === current.current) return;
    current.current = next;
    onChange(next);
  };
  const down = useHoldRepeat(stepper(-1));
  const up = useHoldRepeat(stepper(1));
  return (
    <div className="input-group input-group-sm timestamp-input" data-testid={testId}>
      <button
        type="button"
        className="btn btn-outline-secondary"
        disabled={disabled}
        aria-label={t('speechPlayer.timestamp.decrease', { label })}
        data-testid={`${testId}-minus`}
        {...down}
      >
        −
      </button>
      <input
        type="text"
        className={`form-control font-monospace text-center${editing && invalid ? ' is-invalid' : ''}`}
        value={text}
        maxLength={maxLength}
        disabled={disabled}
        aria-label={label}
        aria-invalid={editing && invalid}
        title={t('speechPlayer.timestamp.format')}
        data-testid={`${testId}-field`}
        onChange={(e) => {
          setEditing(true);
          setText(e.target.value);
        }}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            setEditing(false);
            setText(formatTimestamp(value));
          }
        }}
      />
      <button
        type="button"
        className="btn btn-outline-secondary"
        disabled={disabled}
        aria-label={t('speechPlayer.timestamp.increase', { label })}
        data-testid={`${testId}-plus`}
        {...up}
      >
        +
      </button>
    </div>
  );
}

export interface TimeRangeInputProps {
  start: number;
  end: number;
  onChange(start: number, end: number): void;
  durationS?: number;
  disabled?: boolean;
  testId?: string;
}

/** Start and end of a segment: each bounded by the other (start < end) and by the recording. */
export function TimeRangeInput({
  start,
  end,
  onChange,
  durationS,
  disabled,
  testId = 'time-range',
}: TimeRangeInputProps) {
  const { t } = useTranslation();
  const bounds = segmentBounds(start, end, durationS);
  return (
    <div className="d-flex flex-wrap align-items-center gap-2" data-testid={testId}>
      <span className="small text-body-secondary">{t('speechPlayer.timestamp.start')}</span>
      <TimestampInput
        value={start}
        onChange={(s) => onChange(s, end)}
        label={t('speechPlayer.timestamp.start')}
        disabled={disabled}
        durationS={durationS}
        testId={`${testId}-start`}
        {...bounds.start}
      />
      <span className="small text-body-secondary">{t('speechPlayer.timestamp.end')}</span>
      <TimestampInput
        value={end}
        onChange={(e) => onChange(start, e)}
        label={t('speechPlayer.timestamp.end')}
        disabled={disabled}
        durationS={durationS}
        testId={`${testId}-end`}
        {...bounds.end}
      />
    </div>
  );
}
