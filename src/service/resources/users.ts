/**
 * Users: storage, the public shape, and the open routes (sign-in, sign-up). Passwords are
 * checked by the `AuthOps` the server hands in (scrypt lives in ../auth.ts).
 */
import { SignInRequest, SignUpRequest, type UserStrict } from '../../shared'
import type { Db } from '../db'
import { conflict, unauthorized, validate } from '../http'
import { action, open, type Credential, type RouteTable } from '../routes'
import { isUniqueViolation, newId, nowStamp, str, strOrNull, type Row } from '../sql'

export const migrations = {
  1: `
  CREATE TABLE users (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );`
}

export interface UserRow {
  id: string
  email: string
  name: string
  password_hash: string
  created_at: string
  updated_at: string
  deleted_at: string | null
}

export function mapUser(r: Row): UserRow {
  return {
    id: str(r.id),
    email: str(r.email),
    name: str(r.name),
    password_hash: str(r.password_hash),
    created_at: str(r.created_at),
    updated_at: str(r.updated_at),
    deleted_at: strOrNull(r.deleted_at)
  }
}

const publicUsers = new WeakMap<UserRow, UserStrict>()
/**
 * The public shape of a user. Memoised per row object (users are never changed, and byId keeps
 * its rows), so every request of one user shares one object and the JSON text `userJson` keeps.
 */
export function publicUser(u: UserRow): UserStrict {
  let user = publicUsers.get(u)
  if (user === undefined) {
    user = Object.freeze(toPublic(u))
    publicUsers.set(u, user)
  }
  return user
}

function toPublic(u: UserRow): UserStrict {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    createdAt: u.created_at,
    updatedAt: u.updated_at,
    deletedAt: u.deleted_at,
    profile: null,
    Agent: null,
    ApiToken: null,
    Document: null
  }
}

const userJsonCache = new WeakMap<UserStrict, string>()
/** JSON text of a public user (memoised per object: the same user object serves many rows). */
export function userJson(user: UserStrict): string {
  let j = userJsonCache.get(user)
  if (j === undefined) {
    j = JSON.stringify(user)
    userJsonCache.set(user, j)
  }
  return j
}

export type UserStorage = ReturnType<typeof usersStorage>

export function usersStorage(db: Db) {
  const s = {
    byId: db.prepare('SELECT * FROM users WHERE id = ? AND deleted_at IS NULL'),
    byEmail: db.prepare('SELECT * FROM users WHERE email = ?'),
    insert: db.prepare(
      'INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)'
    )
  }
  /** Users are never changed once created (no such operation), so lookups by id are cached. */
  const cache = new Map<string, UserRow>()
  return {
    byId(id: string): UserRow | undefined {
      const cached = cache.get(id)
      if (cached) return cached
      const r = s.byId.get(id) as Row | undefined
      if (!r) return undefined
      const user = mapUser(r)
      if (cache.size >= 1024) cache.clear()
      cache.set(id, user)
      return user
    },
    byEmail(email: string): UserRow | undefined {
      const r = s.byEmail.get(email) as Row | undefined
      return r ? mapUser(r) : undefined
    },
    /** Creates a user; returns undefined when the e-mail is taken. */
    create(email: string, name: string, passwordHash: string): UserRow | undefined {
      const now = nowStamp()
      const id = newId()
      try {
        s.insert.run(id, email, name, passwordHash, now, now)
      } catch (e) {
        if (isUniqueViolation(e)) return undefined
        throw e
      }
      return {
        id,
        email,
        name,
        password_hash: passwordHash,
        created_at: now,
        updated_at: now,
        deleted_at: null
      }
    }
  }
}

export interface AuthOps {
  /** null: wrong e-mail or password. Throws 429 while the account or address is backing off. */
  signIn(
    email: string,
    password: string,
    address: string
  ): Promise<{ token: string; user: UserStrict } | null>
  signUp(email: string, password: string, name: string): Promise<{ token: string; user: UserStrict } | null>
  /** Ends a session token for good; an API token is not a session (it is deleted instead). */
  signOut(credential: Credential): { revoked: boolean }
}

/**
 * Sign-out always; sign-in and sign-up only when `passwords` (the Local workspace mints its
 * session in-process and offers no password routes: they answer 404, "not offered").
 */
export function authRoutes(auth: AuthOps, passwords = true): RouteTable {
  const signOut = action('/auth/sign-out', (ctx) => auth.signOut(ctx.credential))
  if (!passwords) return [signOut]
  return [
    signOut,
    open('POST', '/auth/sign-in', async (ctx) => {
      const b = validate(SignInRequest, ctx.body)
      const result = await auth.signIn(b.email, b.password, ctx.address)
      if (!result) throw unauthorized('E-mail or password is wrong')
      return result
    }),
    open('POST', '/auth/sign-up', async (ctx) => {
      const b = validate(SignUpRequest, ctx.body)
      const result = await auth.signUp(b.email, b.password, b.name)
      if (!result) throw conflict('An account with this e-mail exists already')
      return result
    })
  ]
}
