import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

import type { AtriumClient } from '../../src/client';
import type { ResolvedScope, ScopeDraft } from './scope';
import type { Abilities, Session } from './session';

/** What every page of a signed-in session gets. */
export interface Inspector {
  session: Session;
  client: AtriumClient;
  can: Abilities;
  draft: ScopeDraft;
  setDraft: (draft: ScopeDraft) => void;
  scope: ResolvedScope;
}

/** Provided by the App once signed in; the pages read it through useInspector. */
export const InspectorContext = createContext<Inspector | null>(null);

export function useInspector(): Inspector {
  const value = useContext(InspectorContext);
  if (!value) throw new Error('useInspector outside a signed-in session');
  return value;
}
