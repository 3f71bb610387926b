/** Main's one clock: timestamps in the service's format (`2024-01-02T03:04:05.678000+00:00`). */
import { formatTimestamp } from '../shared/common'

export const nowTimestamp = (): string => formatTimestamp(new Date())
