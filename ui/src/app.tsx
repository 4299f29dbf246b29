import { useEffect, useMemo, useState } from 'preact/hooks';

import { Link } from './components';
import { InspectorContext, type Inspector } from './inspector-context';
import { AuditPage } from './pages/audit';
import { ConfigPage } from './pages/config';
import { KeysPage } from './pages/keys';
import { LessonsPage } from './pages/lessons';
import { MemoriesPage } from './pages/memories';
import { MemoryPage } from './pages/memory';
import { NotFoundPage } from './pages/not-found';
import { SignInPage } from './pages/sign-in';
import { WebhooksPage } from './pages/webhooks';
import { WhyPage } from './pages/why';
import { navigate, useRoute, type Route } from './router';
import { EMPTY_SCOPE, resolveScope, type ScopeDraft } from './scope';
import { abilitiesOf, describeSession, newClient, restoreSession, saveSession, type Session } from './session';

const NAV: { path: string; label: string; page: Route['page']; needs: 'memories' | 'admin' | 'any' }[] = [
  { path: '/memories', label: 'Memories', page: 'memories', needs: 'memories' },
  { path: '/why', label: 'Why visible?', page: 'why', needs: 'admin' },
  { path: '/lessons', label: 'Lessons', page: 'lessons', needs: 'memories' },
  { path: '/audit', label: 'Audit log', page: 'audit', needs: 'admin' },
  { path: '/keys', label: 'API keys', page: 'keys', needs: 'admin' },
  { path: '/webhooks', label: 'Webhooks', page: 'webhooks', needs: 'admin' },
  { path: '/config', label: 'Config', page: 'config', needs: 'any' },
];

export function App() {
  const route = useRoute();
  const [session, setSession] = useState<Session | null>(() => restoreSession());
  const [draft, setDraft] = useState<ScopeDraft>(EMPTY_SCOPE);

  const inspector = useMemo<Inspector | null>(() => {
    if (!session) return null;
    return { session, client: newClient(session), can: abilitiesOf(session), draft, setDraft, scope: resolveScope(session, draft) };
  }, [session, draft]);

  useEffect(() => {
    if (!session && route.page !== 'sign-in') navigate('/sign-in', { replace: true });
    if (session && route.page === 'sign-in') navigate(abilitiesOf(session).memories ? '/memories' : '/why', { replace: true });
  }, [session, route.page]);

  const signOut = () => {
    saveSession(null);
    setSession(null);
    setDraft(EMPTY_SCOPE);
  };

  if (!inspector) {
    return (
      <Shell nav={null}>
        <SignInPage onSignedIn={setSession} />
      </Shell>
    );
  }

  const nav = NAV.filter((item) => item.needs === 'any' || inspector.can[item.needs]);
  const current = route.page === 'memory' ? 'memories' : route.page;
  return (
    <InspectorContext.Provider value={inspector}>
      <Shell
        nav={
          <>
            <nav aria-label="Inspector pages">
              <ul>
                {nav.map((item) => (
                  <li key={item.path}>
                    <Link to={item.path} aria-current={current === item.page ? 'page' : undefined}>
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <div class="who">
              <span data-testid="signed-in-as">Signed in: {describeSession(inspector.session)}</span>
              <button type="button" onClick={signOut}>
                Sign out
              </button>
            </div>
          </>
        }
      >
        <Page route={route} />
      </Shell>
    </InspectorContext.Provider>
  );
}

function Page(props: { route: Route }) {
  const route = props.route;
  switch (route.page) {
    case 'sign-in':
    case 'memories':
      return <MemoriesPage />;
    case 'memory':
      return <MemoryPage id={route.id} />;
    case 'why':
      return <WhyPage />;
    case 'lessons':
      return <LessonsPage />;
    case 'audit':
      return <AuditPage />;
    case 'keys':
      return <KeysPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'config':
      return <ConfigPage />;
    case 'not-found':
      return <NotFoundPage path={route.path} />;
  }
}

function Shell(props: { nav: preact.ComponentChildren; children: preact.ComponentChildren }) {
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <p class="brand">Atrium inspector</p>
        {props.nav}
      </header>
      <main id="main">{props.children}</main>
    </>
  );
}
