import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '../../testing/fakeServer';
import { identityRoute, renderApp, startSignedInZhCN } from '../../testing/renderApp';
import { strategyTemplate } from '../../testing/tasks';
import { DEFAULT_GENERATOR, generateLevels, generatorFrom } from './strategyDraft';

beforeEach(startSignedInZhCN);
afterEach(() => vi.unstubAllGlobals());

const id = 'b0000000-0000-4000-8000-000000000031';
/** Equal steps of 2 %, multiples 1, 1.5, 2: what the generator makes with step scale 1 and arithmetic amounts of 0.5. */
const mine = strategyTemplate(id, '我的等差', {
  system: false,
  levels: [
    { dropPercent: '2', multiple: '1' },
    { dropPercent: '4', multiple: '1.5' },
    { dropPercent: '6', multiple: '2' },
  ],
});

describe('the ladder generator of a loaded or copied template', () => {
  it('opens with fields that agree with the ladder, so generating changes nothing', async () => {
    await renderApp(`/strategy/edit/${id}`, {
      ...identityRoute,
      [`GET /api/strategy/detail/${id}`]: () => ok(mine),
      'GET /api/strategy/list': () => ok({ list: [mine], total: 1 }),
      'GET /api/trade/config-templates': () => ok([]),
    });
    await screen.findByDisplayValue('我的等差', undefined, { timeout: 10_000 });
    expect(screen.getByRole('textbox', { name: '档数' })).toHaveValue('3');
    expect(screen.getByRole('textbox', { name: '首档跌幅（%）' })).toHaveValue('2');
    expect(screen.getByRole('textbox', { name: '跌幅倍数' })).toHaveValue('1');
    expect(screen.getByRole('combobox', { name: '金额方式' })).toHaveTextContent('等差');
    expect(screen.getByRole('textbox', { name: '首档倍数' })).toHaveValue('1');
    expect(screen.getByRole('textbox', { name: '倍数增量' })).toHaveValue('0.5');
    await userEvent.click(screen.getByRole('button', { name: '生成阶梯' }));
    const drops = screen.getAllByRole('textbox', { name: '跌幅（%）' }).map((input) => (input as HTMLInputElement).value);
    const multiples = screen.getAllByRole('textbox', { name: '倍数' }).map((input) => (input as HTMLInputElement).value);
    expect(drops).toEqual(['2', '4', '6']);
    expect(multiples).toEqual(['1', '1.5', '2']);
  });

  it('reads back every ladder the generator makes', () => {
    for (const input of [
      DEFAULT_GENERATOR,
      { ...DEFAULT_GENERATOR, count: '1' },
      { ...DEFAULT_GENERATOR, count: '7', firstStep: '0.8', stepScale: '1.3', mode: 'equal' as const, firstMultiple: '2' },
      { ...DEFAULT_GENERATOR, count: '4', firstStep: '1.5', stepScale: '1', mode: 'arithmetic' as const, firstMultiple: '1', multipleStep: '0.25' },
    ]) {
      const levels = generateLevels(input)!;
      expect(generateLevels(generatorFrom(levels))).toEqual(levels);
    }
    // A ladder typed by hand: its count, first drop and first multiple at least.
    expect(generatorFrom([{ dropPercent: '1', multiple: '1' }, { dropPercent: '5', multiple: '3' }, { dropPercent: '6', multiple: '4' }])).toMatchObject({ count: '3', firstStep: '1', firstMultiple: '1' });
  });
});
