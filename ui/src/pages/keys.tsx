import { useState } from 'preact/hooks';

import type { ApiKeyInfo, ApiKeyRole, CreateApiKeyOptions, CreatedApiKey } from '../../../src/client';
import { ErrorBox, Field, Loading, Notice, PageTitle, Select, TableBox, useLoad, when } from '../components';
import { useInspector } from '../inspector-context';
import { describeError, short } from '../session';

interface Draft {
  role: ApiKeyRole;
  userId: string;
  workspaceId: string;
  agentId: string;
  label: string;
  expiresAt: string;
  rateLimit: string;
}

const EMPTY: Draft = { role: 'agent', userId: '', workspaceId: '', agentId: '', label: '', expiresAt: '', rateLimit: '' };

function toOptions(d: Draft): CreateApiKeyOptions {
  const options: CreateApiKeyOptions = { role: d.role, userId: d.role === 'service' ? '*' : d.userId.trim() };
  if (d.workspaceId.trim()) options.workspaceId = d.workspaceId.trim();
  if (d.agentId.trim()) options.agentId = d.agentId.trim();
  if (d.label.trim()) options.label = d.label.trim();
  if (d.expiresAt) options.expiresAt = new Date(d.expiresAt).toISOString();
  if (d.rateLimit.trim()) options.rateLimitPerMinute = Number(d.rateLimit);
  return options;
}

/** API keys (admin): create one (its secret is shown this once), list, revoke. */
export function KeysPage() {
  const { can } = useInspector();
  return (
    <section>
      <PageTitle>API keys</PageTitle>
      {can.admin ? <KeysView /> : <Notice>API keys are an admin route: sign in with the admin token.</Notice>}
    </section>
  );
}

function KeysView() {
  const { client } = useInspector();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [appliedFilter, setAppliedFilter] = useState('');
  const [keys, reload] = useLoad(() => client.listApiKeys(appliedFilter ? { userId: appliedFilter } : {}), [client, appliedFilter]);
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    setCreated(null);
    try {
      setCreated(await client.createApiKey(toOptions(draft)));
      setDraft(EMPTY);
      reload();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  const revoke = async (key: ApiKeyInfo) => {
    setError(null);
    try {
      await client.revokeApiKey({ id: key.id });
      setStatus(`Key ${key.id} revoked.`);
      reload();
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <>
      <section class="panel" aria-labelledby="create-title">
        <h2 id="create-title">Create a key</h2>
        <form class="inline" onSubmit={create}>
          <Select
            id="key-role"
            label="Role"
            value={draft.role}
            options={['agent', 'user', 'service']}
            onChange={(role) => set({ role: role as ApiKeyRole })}
          />
          {draft.role === 'service' ? null : (
            <Field id="key-user" label="User id" value={draft.userId} onInput={(userId) => set({ userId })} required />
          )}
          {draft.role === 'agent' ? (
            <>
              <Field
                id="key-workspace"
                label="Workspace id"
                value={draft.workspaceId}
                onInput={(workspaceId) => set({ workspaceId })}
                required
              />
              <Field id="key-agent" label="Agent id" value={draft.agentId} onInput={(agentId) => set({ agentId })} required />
            </>
          ) : null}
          <Field id="key-label" label="Label" value={draft.label} onInput={(label) => set({ label })} />
          <Field
            id="key-expires"
            label="Expires"
            type="datetime-local"
            value={draft.expiresAt}
            onInput={(expiresAt) => set({ expiresAt })}
          />
          <Field
            id="key-rate"
            label="Requests per minute"
            type="number"
            inputMode="numeric"
            min="1"
            value={draft.rateLimit}
            onInput={(rateLimit) => set({ rateLimit })}
          />
          <button type="submit">Create key</button>
        </form>
        <ErrorBox error={error} testId="keys-error" />
        {created ? (
          <div class="secret" role="status" data-testid="created-key">
            <p>
              <strong>The new key, shown this once.</strong> Copy it now: only its hash is stored, and this page forgets it when you leave.
            </p>
            <label for="created-key-value">Key {created.id}</label>
            <input
              id="created-key-value"
              readOnly
              value={created.key}
              onFocus={(event) => (event.currentTarget as HTMLInputElement).select()}
            />
          </div>
        ) : null}
      </section>
      <section class="panel" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        <form
          class="inline"
          onSubmit={(event) => {
            event.preventDefault();
            setAppliedFilter(filter.trim());
          }}
        >
          <Field id="keys-filter" label="User id" value={filter} onInput={setFilter} hint="Empty: every key. * for service keys." />
          <button type="submit">Filter</button>
        </form>
        <p class="muted" role="status">
          {status}
        </p>
        <Loading load={keys} label="keys" />
        {keys.state === 'done' ? (
          <TableBox label="API keys">
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Role</th>
                <th scope="col">User</th>
                <th scope="col">Workspace</th>
                <th scope="col">Agent</th>
                <th scope="col">Label</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Revoked</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {keys.value.keys.map((key) => (
                <tr key={key.id} data-testid="key-row" data-id={key.id}>
                  <td class="mono">{short(key.id)}</td>
                  <td>{key.role}</td>
                  <td>{key.userId}</td>
                  <td class="mono">{short(key.workspaceId)}</td>
                  <td class="mono">{short(key.agentId)}</td>
                  <td>{key.label ?? '—'}</td>
                  <td class="nowrap">{when(key.createdAt)}</td>
                  <td class="nowrap">{when(key.expiresAt)}</td>
                  <td class="nowrap">{when(key.revokedAt)}</td>
                  <td>
                    {key.revokedAt ? null : (
                      <button type="button" aria-label={`Revoke key ${key.id}`} onClick={() => revoke(key)}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </TableBox>
        ) : null}
      </section>
    </>
  );
}
