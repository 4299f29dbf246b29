import { useState } from 'preact/hooks';

import { Field } from './components';
import { useInspector } from './inspector-context';
import { describeScope, type ScopeDraft } from './scope';

/**
 * The scope the memory pages read in. A typed scope (AUTH_MODE=off, a service key) is edited
 * here and applied with the button; a key's scope is shown, and an agent key may still narrow
 * by agent_scope (which never widens what visibility allows).
 */
export function ScopePanel(props: { userOnly?: boolean }) {
  const { session, can, draft, setDraft, scope } = useInspector();
  const [form, setForm] = useState<ScopeDraft>(draft);
  const set = (patch: Partial<ScopeDraft>) => setForm({ ...form, ...patch });
  const kind = session.who?.kind;

  if (!can.typedScope) {
    return (
      <section class="panel" aria-labelledby="scope-title">
        <h2 id="scope-title">Scope</h2>
        <p data-testid="scope">From your API key: {describeScope(scope)}.</p>
        {kind === 'agent' && !props.userOnly ? (
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault();
              setDraft(form);
            }}
          >
            <AgentScopeField value={form.agentScope} onInput={(agentScope) => set({ agentScope })} />
            <button type="submit">Apply</button>
          </form>
        ) : null}
      </section>
    );
  }

  return (
    <section class="panel" aria-labelledby="scope-title">
      <h2 id="scope-title">Scope</h2>
      <form
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          setDraft(form);
        }}
      >
        <Field id="scope-user" label="User id" value={form.userId} onInput={(userId) => set({ userId })} required />
        {props.userOnly ? null : (
          <>
            <Field
              id="scope-workspace"
              label="Workspace id"
              value={form.workspaceId}
              onInput={(workspaceId) => set({ workspaceId })}
              hint="Empty: the user's personal memories."
            />
            <Field
              id="scope-agent"
              label="Agent id"
              value={form.agentId}
              onInput={(agentId) => set({ agentId })}
              hint="The agent whose view you see."
            />
            <AgentScopeField value={form.agentScope} onInput={(agentScope) => set({ agentScope })} />
          </>
        )}
        <button type="submit">Open scope</button>
      </form>
      <p class="muted" data-testid="scope">
        Reading as: {describeScope(scope)}
      </p>
    </section>
  );
}

function AgentScopeField(props: { value: string; onInput: (value: string) => void }) {
  return (
    <>
      <Field
        id="scope-agent-scope"
        label="Agent scope"
        value={props.value}
        onInput={props.onInput}
        list="agent-scope-values"
        hint="all, self, others, or agent ids separated by commas."
      />
      <datalist id="agent-scope-values">
        <option value="all" />
        <option value="self" />
        <option value="others" />
      </datalist>
    </>
  );
}
