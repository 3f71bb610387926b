// The first code of the app's bundle to run: see earlyReads.ts. The marks let the benchmarks
// split a start into its parts.
import { startEarlyReads } from './earlyReads'

performance.mark('agent-desk:bundle-start')
startEarlyReads()
