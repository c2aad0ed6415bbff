import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerChromium } from './browser';
import { textFindings } from './pageChecks';

/** The route sweep's text checks on pages made to show each fault, and on one without. */
describe('text checks of the route sweep', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await workerChromium();
    page = await browser.newPage({ viewport: { width: 375, height: 812 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  const findings = async (html: string) => {
    await page.setContent(`<!doctype html><body style="margin:0;font:16px sans-serif">${html}</body>`);
    return textFindings(page);
  };

  it('finds nothing where every text fits', async () => {
    const found = await findings(`
      <div style="width:200px;overflow:hidden">Fits well</div>
      <div style="width:120px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap" title="Cut, with its full text as title">Cut, with its full text as title</div>
      <div style="width:80px"><span style="white-space:nowrap">12,345,678.123456</span></div>
      <div style="width:40px;height:20px;overflow:hidden;position:absolute;clip:rect(0 0 0 0)"></div>
      <div style="width:1px;height:1px;overflow:hidden">Read to screen readers only</div>
      <div style="width:100px;overflow-x:auto;white-space:nowrap">A wide table scrolls across its own box</div>
      <div style="width:200px;overflow:hidden;text-overflow:ellipsis;line-height:1.2;font-family:'Noto Sans CJK SC'">任务详情</div>
      <div style="width:80px;word-break:break-all">TGbPQLb6xBu5gR8DJUTUe4kNgy5sJ54DjR</div>`);
    expect(found).toEqual({ clipped: [], brokenNumbers: [] });
  });

  it('finds a text cut across, down, or by an ellipsis that hides the rest', async () => {
    const found = await findings(`
      <div style="width:60px;overflow:hidden;white-space:nowrap">A label too long for its box</div>
      <div style="width:300px;height:20px;overflow:hidden;line-height:20px">One line shows<br>the second is cut</div>
      <div style="width:80px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap">An ellipsis and no title</div>`);
    expect(found.clipped).toEqual([
      expect.stringMatching(/^"A label too long for its box" \(width \d+ px\)$/),
      expect.stringMatching(/^"the second is cut" \(height \d+ px\)$/),
      expect.stringMatching(/^"An ellipsis and no title" \(width \d+ px, an ellipsis without the full text as title\)$/),
    ]);
  });

  it('finds a text running past the window', async () => {
    const found = await findings('<div style="white-space:nowrap;margin-left:300px">Past the right edge of a phone</div>');
    expect(found.clipped).toEqual([expect.stringMatching(/^"Past the right edge of a phone" \(\d+ px past the window\)$/)]);
  });

  it('finds a number whose digits sit on two lines', async () => {
    const found = await findings('<div style="width:60px;word-break:break-all">Qty 123456789.123456 SHIB</div><div style="width:300px">12:30 on 2026/03/01</div>');
    expect(found.brokenNumbers).toEqual(['"123456789.123456" in "Qty 123456789.123456 SHIB"']);
  });
});
