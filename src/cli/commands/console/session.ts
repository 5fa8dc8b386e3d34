import type { ServerResponse } from 'node:http';
import type { Principal } from './sign-in.ts';

/** One browser session: who it acts as, and its open event streams (ended with it). */
export interface Session {
  readonly principal: Principal;
  readonly streams: Set<ServerResponse>;
}

/** A session acting as `principal`, with no stream yet. */
export const newSession = (principal: Principal): Session => ({ principal, streams: new Set() });
