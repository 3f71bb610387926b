/** Swatches offered by the tag colour picker; the first is the origin service's default. */
export const TAG_PRESETS = [
  '#0E8A16',
  '#1D76DB',
  '#D93F0B',
  '#FBCA04',
  '#5319E7',
  '#B60205',
  '#006B75',
  '#C5DEF5',
  '#000000',
  '#FFFFFF'
]
