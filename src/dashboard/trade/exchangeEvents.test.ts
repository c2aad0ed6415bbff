import { describe, expect, it } from 'vitest';
import type { TaskEvent } from '../../api/trade';
import { eventText, eventTone } from './taskText';

const translate = ((key: string, options?: Record<string, unknown>) =>
  `${key}${options ? `|${Object.entries(options).filter(([name]) => name !== '_').map(([name, value]) => `${name}=${String(value)}`).join(',')}` : ''}`) as Parameters<typeof eventText>[1];
const event = (kind: string, data: Record<string, unknown>): TaskEvent => ({ id: '1', kind, data, createdAt: '2026-11-27T04:00:00.000Z' });

describe("an exchange's faults in the task log", () => {
  it('names why the exchange is away and until when, and its return; neither is an error', () => {
    expect(eventText(event('exchange_down', { cause: 'banned', until: '2026-11-27T04:13:30.000Z' }), translate, 'zh-CN')).toMatch(/^tasks\.event\.exchange_down_banned\|until=\d{2}\/\d{2} \d{2}:\d{2}$/);
    expect(eventText(event('exchange_down', { cause: 'maintenance' }), translate, 'zh-CN')).toBe('tasks.event.exchange_down_maintenance|until=—');
    // A cause this page does not know reads as the exchange being unreachable, never as a raw key.
    expect(eventText(event('exchange_down', { cause: 'solar_flare' }), translate, 'zh-CN')).toBe('tasks.event.exchange_down_unreachable|until=—');
    expect(eventText(event('exchange_up', { seconds: 6 }), translate, 'zh-CN')).toBe('tasks.event.exchange_up|seconds=6');
    expect(eventTone({ kind: 'exchange_down', data: {} })).toBe('warning');
    expect(eventTone({ kind: 'exchange_up', data: {} })).toBe('success');
  });

  it('says an order the exchange cancelled, with its side and what filled', () => {
    expect(eventText(event('exchange_canceled', { side: 'sell', filled: '0.0012' }), translate, 'en-US', { amountStep: '0.0001' })).toBe(
      'tasks.event.exchange_canceled|side=tasks.orders.sides.sell,filled=0.0012',
    );
    expect(eventTone({ kind: 'exchange_canceled', data: {} })).toBe('warning');
  });
});
