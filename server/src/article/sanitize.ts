import sanitizeHtml from 'sanitize-html';

/** Links may only lead to web pages or mail addresses (no relative, javascript:, data: ...). */
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;
/** Images from https, or inline raster images (no SVG: it can carry script). */
const SAFE_SRC = /^(https:\/\/|data:image\/(png|jpe?g|gif|webp);base64,[a-z0-9+/]+=*$)/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'h2', 'h3', 'h4', 'strong', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'br', 'hr', 'img'],
  allowedAttributes: { a: ['href', 'rel'], img: ['src', 'alt'] },
  allowedSchemes: [],
  allowedSchemesByTag: { a: ['http', 'https', 'mailto'], img: ['https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Tags outside the list go, their text stays; script, style and the like go with their content.
  disallowedTagsMode: 'discard',
  transformTags: {
    // The page title is the article's own h1; headings inside start at h2.
    h1: 'h2',
    h5: 'h4',
    h6: 'h4',
    a: (tagName, attribs) => {
      const href = (attribs.href ?? '').trim();
      const kept: sanitizeHtml.Attributes = SAFE_HREF.test(href) ? { href, rel: 'noopener noreferrer' } : {};
      return { tagName, attribs: kept };
    },
    img: (tagName, attribs) => {
      const src = (attribs.src ?? '').trim();
      const kept: sanitizeHtml.Attributes = SAFE_SRC.test(src) ? { src, alt: attribs.alt ?? '' } : {};
      return { tagName, attribs: kept };
    },
  },
  // An image whose source was refused is dropped whole.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/**
 * The article HTML as stored and served: only a safe subset of tags and
 * attributes survives (README "Articles"); scripts, event handlers, styles
 * and javascript: URLs are removed.
 */
export const sanitizeArticleHtml = (html: string): string => sanitizeHtml(html, OPTIONS).trim();

/** True when the HTML has no text and no image left (nothing to read). */
export const isEmptyHtml = (html: string): boolean => !/<img\b/i.test(html) && sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim() === '';
