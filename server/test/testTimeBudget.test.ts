import { describe, expect, it } from 'vitest';
import { planOrder, readDurations } from '../../scripts/testOrder';
import { budgetReport } from '../../scripts/testTimeBudget';

describe('the suite time budget (scripts/testTimeBudget.ts)', () => {
  const times = Array.from({ length: 12 }, (_, index) => ({ file: `f${index}.test.ts`, project: 'server', seconds: index * 7 }));

  it('lists the ten slowest files, slowest first', () => {
    const { lines } = budgetReport(times, 1000, {});
    expect(lines).toHaveLength(11);
    expect(lines[1]).toContain('f11.test.ts');
    expect(lines[10]).toContain('f2.test.ts');
  });

  it('names a file over the limit unless it is allowed with a reason, and fails those over the failing time', () => {
    const failing = budgetReport(times, 60, {});
    expect(failing.over.map((time) => time.file)).toEqual(['f11.test.ts', 'f10.test.ts', 'f9.test.ts']);
    expect(failing.lines.join('\n')).toContain('f11.test.ts took 77.0 s, over the 60 s');
    expect(failing.failing.map((time) => time.file)).toEqual([]);
    expect(budgetReport(times, 30, {}).failing.map((time) => time.file)).toEqual(['f11.test.ts', 'f10.test.ts', 'f9.test.ts']);
    expect(budgetReport(times, 60, {}, 70).failing.map((time) => time.file)).toEqual(['f11.test.ts']);
    const allowed = budgetReport(times, 60, { 'f11.test.ts': 'a reason', 'f10.test.ts': 'another', 'f9.test.ts': 'a third' }, 1);
    expect(allowed.over).toEqual([]);
    expect(allowed.failing).toEqual([]);
    expect(allowed.lines.join('\n')).toContain('over, allowed: a reason');
  });

  it('starts the files longest first by their measured times, whatever their project (scripts/testOrder.ts)', () => {
    const order = planOrder([
      { key: 'browser-code:a.test.tsx', seconds: 5 },
      { key: 'server:replay.test.ts', seconds: 64 },
      { key: 'journeys:routes.test.ts', seconds: 31 },
      { key: 'server:b.test.ts', seconds: 5 },
    ]);
    expect(order).toEqual(['server:replay.test.ts', 'journeys:routes.test.ts', 'browser-code:a.test.tsx', 'server:b.test.ts']);
    // The committed times name files as project:path.
    expect(Object.keys(readDurations())).toContain('server:server/test/engineReplay.postgres.test.ts');
  });
});
