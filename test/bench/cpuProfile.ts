/** A V8 CPU profile (inspector `Profiler.stop`), as the profiling aids read it. */
export interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
export interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** One sample: the node it caught, when (µs from the profile's start), the time it stands for (ms). */
export interface Sample {
  node: ProfileNode
  at: number
  ms: number
}

/** A profile's samples in order, and a walk from a node up through its callers (itself first). */
export function readProfile(p: Profile): {
  samples: Sample[]
  stack: (node: ProfileNode) => Generator<ProfileNode>
} {
  const byId = new Map(p.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, ProfileNode>()
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n)
  let at = 0
  const samples = p.samples.map((id, i) => {
    at += p.timeDeltas[i] ?? 0
    return { node: byId.get(id) as ProfileNode, at, ms: (p.timeDeltas[i + 1] ?? 0) / 1000 }
  })
  function* stack(node: ProfileNode): Generator<ProfileNode> {
    for (let n: ProfileNode | undefined = node; n; n = parent.get(n.id)) yield n
  }
  return { samples, stack }
}
