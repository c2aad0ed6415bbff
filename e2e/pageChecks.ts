import type { Page } from 'playwright-core';

/** What a page's text shows badly. */
export interface TextFindings {
  /**
   * Texts cut by a box that hides its overflow (across or down; an ellipsis
   * counts unless the full text is its title or accessible name), or running
   * past the window: the text and by how many pixels.
   */
  clipped: string[];
  /** Numbers (and dates, times) whose characters sit on two lines. */
  brokenNumbers: string[];
}

/** Reads the visible texts of the page for cut text and numbers broken across lines. */
export const textFindings = (page: Page): Promise<TextFindings> =>
  page.evaluate(() => ({
    clipped: (() => {
      const found: string[] = [];
      /** The full text is at hand where it is cut: a title or an accessible name (a tooltip's) holding it. */
      const namedInFull = (el: Element, words: string) =>
        [el, el.closest('[title]'), el.closest('[aria-label]')].some((at) =>
          ['title', 'aria-label'].some((name) => (at?.getAttribute(name) ?? '').replace(/\s+/g, ' ').includes(words.replace(/\s+/g, ' '))),
        );
      /** Cut on purpose, with an ellipsis or a line clamp. */
      const ellipsis = (el: Element) => {
        const style = getComputedStyle(el);
        return style.textOverflow === 'ellipsis' || (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '');
      };
      /** The nearest box that does not let its content show beyond it on an axis; null: none, or one that scrolls. */
      const clipOf = (from: Element, axis: 'overflowX' | 'overflowY'): Element | null => {
        let at: Element | null = from;
        while (at && at !== document.body && getComputedStyle(at)[axis] === 'visible') at = at.parentElement;
        if (!at || at === document.body) return null;
        // A scrolling box (a wide table) keeps its content reachable.
        const overflow = getComputedStyle(at)[axis];
        return overflow === 'auto' || overflow === 'scroll' ? null : at;
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const owner = node.parentElement;
        const words = node.textContent?.trim();
        if (!owner || !words || owner.closest('svg, script, style, [aria-hidden="true"]')) continue;
        if (!owner.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const text = range.getBoundingClientRect();
        if (text.width === 0) continue;
        const lineHeight = parseFloat(getComputedStyle(owner).lineHeight);
        const firstLine = range.getClientRects()[0];
        const slack = firstLine && lineHeight > 0 ? Math.max(0, (firstLine.height - lineHeight) / 2) : 0;
        const cuts: string[] = [];
        const clipX = clipOf(owner, 'overflowX');
        const clipY = clipOf(owner, 'overflowY');
        for (const [clip, axis] of [
          [clipX, 'x'],
          [clipY, 'y'],
        ] as const) {
          if (!clip) continue;
          const box = clip.getBoundingClientRect();
          // A 1-pixel box is text for screen readers only.
          if (box.width <= 2 || box.height <= 2) continue;
          // Down, the line's box counts, not the font's taller content area (CJK fonts' ascent and descent pass a tight line height).
          const over = axis === 'x' ? Math.max(text.right - box.right, box.left - text.left) : Math.max(text.bottom - slack - box.bottom, box.top - (text.top + slack));
          // Its own box too: a box that scrolls further than it shows (scrollWidth/scrollHeight past clientWidth/clientHeight).
          const scrolls = axis === 'x' ? clip.scrollWidth > clip.clientWidth + 1 : clip.scrollHeight > clip.clientHeight + 1;
          if (over <= 1 || !scrolls) continue;
          if (ellipsis(clip) && namedInFull(owner, words)) continue;
          cuts.push(`${axis === 'x' ? 'width' : 'height'} ${Math.round(over)} px${ellipsis(clip) ? ', an ellipsis without the full text as title' : ''}`);
        }
        if (!clipX && text.right > window.innerWidth + 1) cuts.push(`${Math.round(text.right - window.innerWidth)} px past the window`);
        if (cuts.length > 0) found.push(`"${words.slice(0, 60)}" (${cuts.join('; ')})`);
      }
      return found;
    })(),
    brokenNumbers: (() => {
      const found: string[] = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const owner = node.parentElement;
        const content = node.textContent ?? '';
        if (!owner || !/\d/.test(content) || owner.closest('svg, script, style, [aria-hidden="true"]')) continue;
        if (!owner.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        // A number (with its separators, a sign, a decimal point) or a date and time, not a part of a word (an address): its characters on one line.
        for (const match of content.matchAll(/(?<![A-Za-z\d])[-+−]?\d(?:[\d,.:/-]*\d)?%?(?![A-Za-z\d])/g)) {
          if (match[0].length < 2) continue;
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = [...range.getClientRects()].filter((rect) => rect.width > 0);
          const first = lines[0];
          if (first && lines.some((rect) => Math.abs(rect.top - first.top) > first.height / 2)) found.push(`"${match[0]}" in "${content.trim().slice(0, 60)}"`);
        }
      }
      return found;
    })(),
  }));
