import { Box, Typography } from '@mui/material';

/** One figure of a card: its key (`data-field`), its label and its value; `wide` takes the whole row. */
export interface LabelledField {
  key: string;
  label: string;
  value: string;
  wide?: boolean;
}

/**
 * A phone card's figures, two to a row, each labelled above its value (the
 * ladder preview's levels, a task's ladder): a table's row made readable at
 * 375 px, with nothing off-screen.
 */
export const LabelledFields = ({ fields, wrap = false }: { fields: LabelledField[]; wrap?: boolean }) => (
  <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', columnGap: 2, rowGap: 0.5, mt: 0.5 }}>
    {fields.map((field) => (
      <Box key={field.key} sx={{ minWidth: 0, gridColumn: field.wide ? '1 / -1' : undefined }} data-field={field.key}>
        <Typography variant="caption" color="text.secondary" component="div" noWrap>
          {field.label}
        </Typography>
        <Typography
          variant="body2"
          component="div"
          sx={{ fontVariantNumeric: 'tabular-nums', ...(wrap ? { overflowWrap: 'anywhere' } : { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }) }}
        >
          {field.value}
        </Typography>
      </Box>
    ))}
  </Box>
);
