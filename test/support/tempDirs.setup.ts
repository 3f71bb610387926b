/**
 * vitest setup: the folders a test file made with `tempDir` go once its last hook has run (a
 * setup file's `afterAll` runs after the file's own, which close the cores and servers first).
 */
import { afterAll } from 'vitest'
import { removeTempDirs } from './tempDirs'

afterAll(removeTempDirs)
