import { BRAND, HUES } from '../api/colors';

/**
 * The widgets' own CSS, injected in each shadow root. The page's styles do
 * not reach inside; the `.qt` root sets every inherited property itself so
 * nothing the host element inherits (color, font...) shows through.
 */
export const widgetCss = `
:host { display: block; contain: content; }
:host([hidden]) { display: none; }
.qt {
  --qt-bg: #ffffff; --qt-fg: #1f2329; --qt-muted: #646a73; --qt-border: #e5e6eb;
  --qt-accent: ${BRAND.light}; --qt-red: ${HUES.light.red}; --qt-green: ${HUES.light.green}; --qt-hover: #f5f6f7;
  --qt-up: var(--qt-green); --qt-down: var(--qt-red);
  --qt-error: #c62828; --qt-error-bg: #fdecea;
  all: initial; display: block; box-sizing: border-box;
  background: var(--qt-bg); color: var(--qt-fg);
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", sans-serif;
  border: 1px solid var(--qt-border); border-radius: 12px; padding: 16px; text-align: left;
}
.qt[data-theme="dark"] {
  --qt-bg: #1d1e22; --qt-fg: #e8eaed; --qt-muted: #9aa0a6; --qt-border: #34363c;
  --qt-accent: ${BRAND.dark}; --qt-red: ${HUES.dark.red}; --qt-green: ${HUES.dark.green}; --qt-hover: #2a2c31;
  --qt-error: #f28b82; --qt-error-bg: #3a2323;
}
.qt[data-colors="red-up"] { --qt-up: var(--qt-red); --qt-down: var(--qt-green); }
.qt[data-colors="green-up"] { --qt-up: var(--qt-green); --qt-down: var(--qt-red); }
.qt *, .qt *::before, .qt *::after { box-sizing: border-box; font: inherit; color: inherit; margin: 0; padding: 0; }
.qt h2 { font-size: 15px; font-weight: 600; margin-bottom: 12px; }
.qt .muted { color: var(--qt-muted); font-size: 12px; }
.qt .up { color: var(--qt-up); }
.qt .down { color: var(--qt-down); }
.qt .num { font-variant-numeric: tabular-nums; }
.qt .stats { display: flex; gap: 24px; flex-wrap: wrap; }
.qt .stat .value { font-size: 22px; font-weight: 700; }
.qt .unit { font-size: 12px; color: var(--qt-muted); margin-left: 4px; font-weight: 400; }
.qt ul { list-style: none; }
.qt li + li { border-top: 1px solid var(--qt-border); }
.qt .row { display: flex; justify-content: space-between; align-items: center; gap: 12px; padding: 8px 4px; width: 100%;
  background: none; border: 0; text-align: left; cursor: default; border-radius: 6px; }
.qt button.row { cursor: pointer; }
.qt button.row:hover, .qt button.row:focus-visible { background: var(--qt-hover); outline: none; }
.qt .pair { font-weight: 600; }
.qt .right { text-align: right; }
.qt .state { padding: 8px 0; color: var(--qt-muted); }
.qt .state.error { color: var(--qt-error); background: var(--qt-error-bg); border-left: 3px solid var(--qt-error);
  border-radius: 6px; padding: 8px 12px; }
.qt .state.error p::before { content: "⚠ "; }
.qt .action { display: inline-block; margin-top: 8px; padding: 4px 14px; border-radius: 6px; cursor: pointer;
  background: var(--qt-accent); color: #fff; border: 0; text-decoration: none; font-size: 13px; }
.qt[data-theme="dark"] .action { color: #06201e; }
`;
