/**
 * A radio group of colour swatches: the 18-colour label palette unless other colours are given, plus the
 * current colour when it is not among them.
 */
import { useTranslation } from 'react-i18next';
import { IconCheck } from '../../../components/icons';
import { readableTextColor } from '../../../components/TagBadge';
import { TAG_PALETTE } from '../../processes/palette';

export interface ColorPaletteProps {
  value: string;
  onChange: (color: string) => void;
  label: string;
  colors?: readonly string[];
  testId?: string;
  disabled?: boolean;
}

export function ColorPalette({
  value,
  onChange,
  label,
  colors = TAG_PALETTE,
  testId,
  disabled,
}: ColorPaletteProps) {
  const { t } = useTranslation();
  // A colour from outside the palette (e.g. an imported label) stays choosable.
  const known = colors.some((c) => c.toLowerCase() === value.toLowerCase());
  const swatches = known || !value ? colors : [...colors, value];
  return (
    <div className="tag-palette" role="radiogroup" aria-label={label}>
      {swatches.map((swatch) => {
        const selected = swatch.toLowerCase() === value.toLowerCase();
        return (
          <button
            key={swatch}
            type="button"
            role="radio"
            aria-checked={selected}
            aria-label={t('soaApp.labels.common.colorOption', { color: swatch })}
            title={swatch}
            disabled={disabled}
            className={`tag-swatch ${selected ? 'selected' : ''}`}
            style={{ backgroundColor: swatch, color: readableTextColor(swatch) }}
            onClick={() => onChange(swatch)}
            data-testid={testId}
            data-color={swatch}
          >
            {selected && <IconCheck size={14} />}
          </button>
        );
      })}
    </div>
  );
}
