import { useState } from 'preact/hooks';

import { ErrorBox, Field, PageTitle } from '../components';
import { signIn, type Session } from '../session';

/**
 * Sign in with the admin token, an API key (AUTH_MODE=api_key: the pages then show exactly
 * what the key's agent sees), both, or nothing in AUTH_MODE=off (the scope is typed in on the
 * memories page). Each credential is checked with the service before the session starts.
 */
export function SignInPage(props: { onSignedIn: (session: Session) => void }) {
  const [adminToken, setAdminToken] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await signIn({ adminToken, apiKey, remember });
    setBusy(false);
    if (result.ok) props.onSignedIn(result.session);
    else setError(result.error);
  };

  return (
    <section class="narrow">
      <PageTitle>Sign in</PageTitle>
      <p>
        The inspector calls this service's API with the credential you give here, sent as a header; the service decides what you see. With
        an API key you see exactly what that key's agent sees. With AUTH_MODE=off leave both empty and type the scope on the memories page.
      </p>
      <form onSubmit={submit} aria-describedby="sign-in-note">
        <Field
          id="admin-token"
          label="Admin token"
          type="password"
          value={adminToken}
          onInput={setAdminToken}
          hint="ATRIUM_ADMIN_TOKEN: API keys, audit log, the “why visible?” explanations, config changes."
        />
        <Field
          id="api-key"
          label="API key"
          type="password"
          value={apiKey}
          onInput={setApiKey}
          hint="atr_…: memories and lessons as that key (a service key can open any scope)."
        />
        <div class="check">
          <input
            id="remember"
            type="checkbox"
            checked={remember}
            onChange={(event) => setRemember((event.currentTarget as HTMLInputElement).checked)}
          />
          <label for="remember">Keep me signed in in this tab (sessionStorage, cleared when the tab closes)</label>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <ErrorBox error={error} testId="sign-in-error" />
      </form>
      <p id="sign-in-note" class="muted">
        Credentials stay in this page's memory (or this tab's sessionStorage if you tick the box) and never appear in an address.
      </p>
    </section>
  );
}
