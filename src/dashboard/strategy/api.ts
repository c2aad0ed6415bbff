/**
 * The user's own templates go through react-admin's controllers (resource
 * `strategy`); the system templates are asked through kit/queries.ts (the
 * trade wizard shows them too).
 */

/** The user's strategy templates (react-admin resource: /api/strategy/list|detail|add|edit|delete). */
export const STRATEGIES = 'strategy';
