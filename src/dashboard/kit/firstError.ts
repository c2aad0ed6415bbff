/**
 * Brings the first field a form marks as wrong into view and focuses it: a
 * field the user cannot see cannot tell what to do. Fields are found by
 * `aria-invalid="true"` (MUI and react-admin inputs set it) or a
 * `data-field-error` marker (a group of choices, a message beside a field).
 */
export const scrollToFirstError = (root: ParentNode = document): boolean => {
  const target = root.querySelector<HTMLElement>('[aria-invalid="true"], [data-field-error]');
  if (!target) return false;
  // jsdom and old browsers have no smooth scrolling (or none at all).
  target.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  const focusable = target.matches('input, textarea, select, button, [tabindex]') ? target : target.querySelector<HTMLElement>('input, textarea, select, button, [tabindex]');
  focusable?.focus({ preventScroll: true });
  return true;
};

/** After React has painted the error states of a submit: scroll to the first. */
export const scrollToFirstErrorSoon = (root?: ParentNode) => {
  setTimeout(() => scrollToFirstError(root), 0);
};
