/**
 * Sign-in of a console that holds no credentials (`hcp install --console`, `hcp console --authentication-mode=token`):
 * the user's own bearer token, which the console hands only to the API server; the session then acts as that user.
 */
import { useState } from 'preact/hooks';
import { call, type FieldError } from '../api.ts';
import { FieldErrors } from './cluster-actions.tsx';

/** The sign-in form; `signedIn` is called once the API server accepted the token. */
export function SignInPage(props: { signedIn: () => void }): preact.JSX.Element {
  const [token, setToken] = useState('');
  const [namespace, setNamespace] = useState('');
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    const answer = await call<{ user?: string }>('POST', '/api/sign-in', { token, namespace });
    setBusy(false);
    if (answer.status === 200) return props.signedIn();
    setErrors(answer.body.errors ?? [{ field: 'form', message: `the console answered ${String(answer.status)}` }]);
  };
  const invalid = (field: string): boolean => errors.some((e) => e.field === field);
  return (
    <section aria-labelledby="sign-in-title" class="sign-in">
      <h1 id="sign-in-title">Sign in</h1>
      <p>
        This console acts as you: sign in with a bearer token of the management cluster. Print yours with <code>oc whoami -t</code>, or make one for a
        service account with <code>kubectl create token NAME -n NAMESPACE</code>. The token goes to the API server only, and the session ends after
        8 hours or when you sign out.
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <div class="field">
          <label for="sign-in-token">Bearer token</label>
          <input id="sign-in-token" type="password" autocomplete="off" spellcheck={false} value={token} onInput={(e) => setToken(e.currentTarget.value)} aria-invalid={invalid('token')} aria-describedby="sign-in-token-errors" required />
          <FieldErrors id="sign-in-token-errors" errors={errors} field="token" />
        </div>
        <div class="field">
          <label for="sign-in-namespace">Namespace (optional)</label>
          <input id="sign-in-namespace" value={namespace} onInput={(e) => setNamespace(e.currentTarget.value)} aria-invalid={invalid('namespace')} aria-describedby="sign-in-namespace-help sign-in-namespace-errors" />
          <p id="sign-in-namespace-help" class="help">
            Where to look when you may not list every namespace.
          </p>
          <FieldErrors id="sign-in-namespace-errors" errors={errors} field="namespace" />
        </div>
        <FieldErrors id="sign-in-errors" errors={errors} field="form" />
        <button type="submit" class="primary" disabled={busy || token.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}
