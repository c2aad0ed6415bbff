import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildGraph, checkRules, circles, FOLDERS, importSpecifiers, RULES, type ImportGraph } from '../../scripts/importRules';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));
const broken = (edges: Record<string, string[]>) => checkRules(graphOf(edges));

describe('the layout rules over the imports (scripts/importRules.ts)', () => {
  it('holds for the code: no area imports another, the layout imports no area, the engine imports no HTTP module, no circle of files', () => {
    const graph = buildGraph(ROOT, FOLDERS);
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('src/dashboard/App.tsx')).toContain('src/dashboard/trade/index.ts');
    expect(checkRules(graph)).toEqual([]);
  });

  it('reads every kind of import: static, type-only, export-from, dynamic and side-effect ones', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      "export { c } from './c';",
      "export * from './d';",
      "const e = () => import('./e');",
      "import './f';",
      "import React from 'react';",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a', '../b', './c', './d', './e', './f', 'react']);
  });

  it('names an area that imports another area, and lets an area use the kit and its own files', () => {
    expect(
      broken({
        'src/dashboard/trade/TaskCard.tsx': ['src/dashboard/strategy/strategyText.ts', 'src/dashboard/trade/api.ts', 'src/dashboard/kit/money.ts'],
        'src/dashboard/trade/api.ts': [],
        'src/dashboard/strategy/strategyText.ts': ['src/api/strategy.ts'],
        'src/dashboard/kit/money.ts': ['src/api/format.ts'],
      }),
    ).toEqual([{ rule: 'a dashboard area imports another area', lines: ['src/dashboard/trade/TaskCard.tsx -> src/dashboard/strategy/strategyText.ts'] }]);
  });

  it('names the layout importing an area, while App.tsx (the composition root) may import every area', () => {
    expect(
      broken({
        'src/dashboard/layout/AppLayout.tsx': ['src/dashboard/trade/wizard/navigation.ts', 'src/dashboard/kit/demo.tsx'],
        'src/dashboard/App.tsx': ['src/dashboard/trade/index.ts', 'src/dashboard/layout/AppLayout.tsx'],
      }),
    ).toEqual([{ rule: 'the layout imports an area', lines: ['src/dashboard/layout/AppLayout.tsx -> src/dashboard/trade/wizard/navigation.ts'] }]);
  });

  it('names every file of a circle, however long, and a file that imports itself', () => {
    expect(
      broken({
        'src/dashboard/domain.ts': ['src/dashboard/areaTexts.ts'],
        'src/dashboard/areaTexts.ts': ['src/i18n/texts.ts'],
        'src/i18n/texts.ts': ['src/dashboard/domain.ts'],
        'src/api/format.ts': ['src/api/format.ts'],
        'src/api/types.ts': [],
      }),
    ).toEqual([
      {
        rule: 'a circle of files in src/',
        lines: ['circle of 3: src/dashboard/areaTexts.ts, src/dashboard/domain.ts, src/i18n/texts.ts', 'circle of 1: src/api/format.ts'],
      },
    ]);
  });

  it('keeps a rule to its folder: a circle in server/src/ is not a circle in src/', () => {
    const graph = graphOf({ 'server/src/trade/returns.ts': ['server/src/trade/service.ts'], 'server/src/trade/service.ts': ['server/src/trade/returns.ts'] });
    expect(checkRules(graph, RULES).map((broken) => broken.rule)).toEqual(['a circle of files in server/src/']);
  });

  it('fails when the engine imports an HTTP module or another domain, not when it imports the database', () => {
    expect(
      broken({
        'server/src/engine/runner/runner.ts': ['server/src/http/envelope.ts', 'server/src/db/database.ts', 'server/src/engine/core/decide.ts'],
        'server/src/engine/store/journal.ts': ['server/src/member/fuel.ts'],
      }),
    ).toEqual([
      {
        rule: 'the engine imports an HTTP module or another domain',
        lines: ['server/src/engine/runner/runner.ts -> server/src/http/envelope.ts', 'server/src/engine/store/journal.ts -> server/src/member/fuel.ts'],
      },
    ]);
  });

  it('finds circles in a long chain without running out of stack', () => {
    const files = Array.from({ length: 20_000 }, (_, index) => `src/f${index}.ts`);
    const chain = graphOf(Object.fromEntries(files.map((file, index) => [file, index + 1 < files.length ? [files[index + 1]!] : [files[0]!]])));
    expect(circles(chain, () => true)).toEqual([[...files].sort()]);
  });
});
