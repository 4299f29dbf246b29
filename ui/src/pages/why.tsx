import { useState } from 'preact/hooks';

import type { HiddenBecause, VisibilityExplanation } from '../../../src/client';
import { ErrorBox, Field, Notice, PageTitle } from '../components';
import { useInspector } from '../inspector-context';
import { describeError } from '../session';

const RULE_TEXT = {
  owner: 'Visible: the agent owns this memory (its own rows are always readable).',
  workspace: 'Visible: the memory is open to every agent of the workspace (visibility workspace, or NULL on a legacy row).',
  grant: 'Visible: the memory is restricted and the agent holds a grant on it.',
} as const;

const HIDDEN_TEXT: Record<HiddenBecause, string> = {
  deleted: 'the memory is deleted.',
  superseded: 'the memory was superseded by a newer one.',
  expired: 'the memory is past its expiry time.',
  personal_memory: 'it is a personal memory of the user (user scope), never read from a workspace.',
  other_workspace: 'it belongs to another workspace.',
  agent_only: 'it is agent_only and this agent is not its owner.',
  restricted_without_grant: 'it is restricted and this agent has no grant on it.',
  other: 'the read predicate does not let it through.',
};

export function verdictText(e: VisibilityExplanation): string {
  if (e.rule === 'not_visible') return `Not visible: ${HIDDEN_TEXT[e.hiddenBecause ?? 'other']}`;
  return RULE_TEXT[e.rule];
}

type Ids = 'memoryId' | 'userId' | 'workspaceId' | 'agentId';

/**
 * "Why can agent X see this?" The service answers (GET /v1/admin/explain): it evaluates the
 * same read predicate as every memory read, and the page only words the rule it names.
 */
export function WhyPanel(props: { memoryId: string; userId: string; workspaceId: string; agentId: string; standalone?: boolean }) {
  const { client } = useInspector();
  // What the operator typed; until then each field follows the page (the record may arrive after the panel).
  const [edited, setEdited] = useState<Partial<Record<Ids, string>>>({});
  const [result, setResult] = useState<VisibilityExplanation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Record<Ids, string>>) => setEdited({ ...edited, ...patch });
  const value = (field: Ids): string => edited[field] ?? props[field];

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(
        await client.explainVisibility({
          userId: value('userId'),
          workspaceId: value('workspaceId'),
          agentId: value('agentId'),
          memoryId: value('memoryId'),
        }),
      );
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="why-title" data-testid="why-panel">
      <h2 id="why-title">Why can an agent see this?</h2>
      <form class="inline" onSubmit={submit}>
        {props.standalone ? (
          <>
            <Field id="why-memory" label="Memory id" value={value('memoryId')} onInput={(memoryId) => set({ memoryId })} required />
            <Field id="why-user" label="User id" value={value('userId')} onInput={(userId) => set({ userId })} required />
          </>
        ) : null}
        <Field
          id="why-workspace"
          label="Workspace id"
          value={value('workspaceId')}
          onInput={(workspaceId) => set({ workspaceId })}
          required
        />
        <Field id="why-agent" label="Agent id" value={value('agentId')} onInput={(agentId) => set({ agentId })} required />
        <button type="submit" disabled={busy}>
          Explain
        </button>
      </form>
      <ErrorBox error={error} testId="why-error" />
      {result ? (
        <div class={result.visible ? 'verdict visible' : 'verdict hidden'} role="status" data-testid="why-verdict" data-rule={result.rule}>
          <p>
            <strong>Rule: {result.rule.replace('_', ' ')}</strong>
            {result.hiddenBecause ? <span> ({result.hiddenBecause.replace(/_/g, ' ')})</span> : null}
          </p>
          <p>{verdictText(result)}</p>
          <ul class="conditions">
            <li>owner: {result.conditions.owner ? 'yes' : 'no'}</li>
            <li>open to the workspace: {result.conditions.workspace ? 'yes' : 'no'}</li>
            <li>grant for this agent: {result.conditions.grant ? 'yes' : 'no'}</li>
            <li>
              memory: {result.memory.visibility ?? 'NULL'} visibility, owner {result.memory.agentId ?? '—'}, workspace{' '}
              {result.memory.workspaceId ?? '— (personal)'}
              {result.memory.deleted ? ', deleted' : ''}
              {result.memory.superseded ? ', superseded' : ''}
              {result.memory.expired ? ', expired' : ''}
            </li>
          </ul>
        </div>
      ) : null}
    </section>
  );
}

export function WhyPage() {
  const { can, scope } = useInspector();
  return (
    <section>
      <PageTitle>Why is a memory visible?</PageTitle>
      <p>
        For a memory and an agent, the service evaluates the same visibility predicate as every read (agent scope “all”) and names the rule
        that lets the memory through: the agent owns it, it is open to the workspace, or the agent holds a grant; or what keeps it out. An
        agent scope given on a read can only narrow this further.
      </p>
      {can.admin ? (
        <WhyPanel
          standalone
          memoryId=""
          userId={(scope.ok ? scope.userId : null) ?? ''}
          workspaceId={(scope.ok ? scope.workspaceId : null) ?? ''}
          agentId={(scope.ok ? scope.agentId : null) ?? ''}
        />
      ) : (
        <Notice>The explanation is an admin route: sign in with the admin token.</Notice>
      )}
    </section>
  );
}
