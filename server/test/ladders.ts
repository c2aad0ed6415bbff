/** The six-level ladder of the engine's acceptance runs: drops 2/4/7/11/16/22 %, each level 1.5 times the one before. */
export const SIX_LEVELS = [
  { dropPercent: '2', multiple: '1' },
  { dropPercent: '4', multiple: '1.5' },
  { dropPercent: '7', multiple: '2.25' },
  { dropPercent: '11', multiple: '3.375' },
  { dropPercent: '16', multiple: '5.0625' },
  { dropPercent: '22', multiple: '7.59375' },
];
