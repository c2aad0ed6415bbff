// Renders public/favicon.svg to the PNG app icons (apple-touch-icon 180, manifest 192 and 512) in Chromium.
// Run after changing the SVG: `node scripts/icons.mjs`; the PNGs are committed.
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const svg = readFileSync(new URL('../public/favicon.svg', import.meta.url), 'utf8');
// The Apple icon is full-bleed: iOS rounds the corners itself.
const square = svg.replace(/ rx="14"/, '');
const sizes = [
  ['apple-touch-icon.png', 180, square],
  ['icon-192.png', 192, svg],
  ['icon-512.png', 512, svg],
];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
const page = await browser.newPage();
for (const [name, size, source] of sizes) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${source}`);
  writeFileSync(new URL(`../public/${name}`, import.meta.url), await page.screenshot({ omitBackground: true }));
}
await browser.close();
