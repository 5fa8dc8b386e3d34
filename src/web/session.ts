/** The page's session: how this console signs users in, and who is signed in. */
import { createContext } from 'preact';

/** What `GET /api/session` says of a session. */
export interface SessionInfo {
  /** kubeconfig: opened by the URL `hcp console` printed; token: the user signed in with a bearer token. */
  readonly signIn: 'kubeconfig' | 'token';
  readonly user: string | null;
  readonly namespace: string | null;
}

/** Where the page stands: signed in, asked to sign in (token consoles), or told how to get a session. */
export type SessionState = { readonly state: 'loading' } | { readonly state: 'signed-in'; readonly info: SessionInfo } | { readonly state: 'sign-in' } | { readonly state: 'no-session'; readonly message: string };

/** The session of the page, for what depends on how it signed in (the banner's words, the sign-out button). */
export const SessionContext = createContext<SessionInfo>({ signIn: 'kubeconfig', user: null, namespace: null });

type SessionAnswer = Partial<SessionInfo> & { signedIn?: boolean; errors?: Array<{ message: string }> };

const infoOf = (body: SessionAnswer): SessionInfo => ({ signIn: body.signIn ?? 'kubeconfig', user: body.user ?? null, namespace: body.namespace ?? null });

/**
 * The session the console put in the page (index.html's `hcp-console-session` meta tag), so the page draws the list
 * or the sign-in form at once; `loading` when it is not there, and the page asks.
 */
export function initialSession(): SessionState {
  const content = document.querySelector('meta[name="hcp-console-session"]')?.getAttribute('content');
  if (content === null || content === undefined) return { state: 'loading' };
  try {
    const body = JSON.parse(content) as SessionAnswer;
    if (body.signedIn === true) return { state: 'signed-in', info: infoOf(body) };
    return body.signIn === 'token' ? { state: 'sign-in' } : { state: 'loading' };
  } catch {
    return { state: 'loading' };
  }
}

/** Asks the console for the page's session. */
export async function loadSession(): Promise<SessionState> {
  try {
    const response = await fetch('/api/session', { credentials: 'same-origin' });
    const body = (await response.json()) as SessionAnswer;
    if (response.ok) return { state: 'signed-in', info: infoOf(body) };
    if (response.status === 401 && body.signIn === 'token') return { state: 'sign-in' };
    return { state: 'no-session', message: body.errors?.[0]?.message ?? `the console answered ${String(response.status)}` };
  } catch (error) {
    return { state: 'no-session', message: `the console did not answer: ${String(error)}` };
  }
}
