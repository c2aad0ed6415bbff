import { Button, ThemeProvider } from '@mui/material';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { themeFor } from './theme';

describe('the theme', () => {
  it.each(['en-US', 'zh-CN', 'zh-TW'] as const)('writes buttons as their text is written, not in capitals (%s)', (locale) => {
    expect(themeFor(locale).typography.button.textTransform).toBe('none');
    render(
      <ThemeProvider theme={themeFor(locale)}>
        <Button variant="contained">Run backtest</Button>
      </ThemeProvider>,
    );
    expect(getComputedStyle(screen.getByRole('button', { name: 'Run backtest' })).textTransform).toBe('none');
  });
});
