/**
 * Agents for tests of long answers (not a test file): each ~250 bytes of JSON with a run of
 * two-byte UTF-8 characters in its name, so byte and character counts differ, and room for a
 * text of the test's own (the session's token, say) at the name's end.
 */
const stamp = '2026-01-01T00:00:00.000000+00:00'

export const wideAgent = (i: number, extra = '') => ({
  id: `a${i}`,
  name: `Agent ${i} ${'·'.repeat(40)}${extra}`,
  type: 'REACT',
  llm: { provider: 'openai', model: 'gpt-4o' },
  hasMemory: false,
  tags: [],
  createdAt: stamp,
  updatedAt: stamp
})
