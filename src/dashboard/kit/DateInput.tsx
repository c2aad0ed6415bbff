import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS, zhCN, zhTW } from '@mui/x-date-pickers/locales';
import type { SxProps, Theme } from '@mui/material';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import { useLocaleState } from 'react-admin';

/** The picker's texts and the date order of each locale: 2026/03/01 in Chinese, 03/01/2026 in American English. */
const LOCALES = {
  'zh-CN': { adapter: 'zh-cn', texts: zhCN, format: 'YYYY/MM/DD' },
  'zh-TW': { adapter: 'zh-tw', texts: zhTW, format: 'YYYY/MM/DD' },
  'en-US': { adapter: 'en', texts: enUS, format: 'MM/DD/YYYY' },
} as const;

const ISO = 'YYYY-MM-DD';

/**
 * A calendar date in the page's language (not the browser's: a native date
 * input shows mm/dd/yyyy to a Chinese page on an English system). The value
 * is the ISO day, 'YYYY-MM-DD', or '' for none.
 */
export const DateInput = ({
  label,
  name,
  value,
  onChange,
  min,
  max,
  error = false,
  helperText,
  sx,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  min?: string | undefined;
  max?: string | undefined;
  error?: boolean;
  helperText?: string | undefined;
  /** The field's place in its row or grid. */
  sx?: SxProps<Theme>;
}) => {
  const [locale] = useLocaleState();
  const chosen = LOCALES[locale as keyof typeof LOCALES] ?? LOCALES['zh-CN'];
  const parsed = value ? dayjs(value, ISO) : null;
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={chosen.adapter} localeText={chosen.texts.components.MuiLocalizationProvider.defaultProps.localeText}>
      <DatePicker
        label={label}
        value={parsed}
        format={chosen.format}
        minDate={min ? dayjs(min, ISO) : undefined}
        maxDate={max ? dayjs(max, ISO) : undefined}
        onChange={(next) => {
          if (next === null) onChange('');
          // A year still being typed (0002, 0020, 0202) is a valid date to the picker but not a day anyone
          // means: handing it on would send it round the page and back into the field mid-typing.
          else if (next.isValid() && next.year() >= 1000) onChange(next.format(ISO));
        }}
        slotProps={{ textField: { size: 'small', name, error, helperText, sx }, field: { clearable: true } }}
      />
    </LocalizationProvider>
  );
};
