import DOMPurify from 'dompurify';

/**
 * An article body ready for the page. The server already keeps only a safe subset of HTML;
 * the browser cleans it again (defence in depth, e.g. an older row) and makes every link open
 * in a new tab without handing the page to it (rel noopener noreferrer).
 */
export const articleHtml = (html: string): string => {
  const body = DOMPurify.sanitize(html, {
    RETURN_DOM: true,
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    FORBID_ATTR: ['style', 'class', 'id'],
  }) as HTMLElement;
  for (const link of Array.from(body.querySelectorAll<HTMLAnchorElement>('a'))) {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  }
  return body.innerHTML;
};
