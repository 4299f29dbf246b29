import { useState } from 'preact/hooks';

import type { AuditQueryOptions } from '../../../src/client';
import { AUDIT_ACTIONS } from '../../../src/contract/admin-wire-types';
import { Field, Json, Loading, Notice, PageTitle, TableBox, useLoad, when } from '../components';
import { useInspector } from '../inspector-context';
import { short } from '../session';

interface Filters {
  userId: string;
  workspaceId: string;
  action: string;
  since: string;
  limit: string;
}

const EMPTY: Filters = { userId: '', workspaceId: '', action: '', since: '', limit: '100' };

function toQuery(filters: Filters): AuditQueryOptions {
  const query: AuditQueryOptions = {};
  if (filters.userId.trim()) query.userId = filters.userId.trim();
  if (filters.workspaceId.trim()) query.workspaceId = filters.workspaceId.trim();
  if (filters.action.trim()) query.action = filters.action.trim();
  // datetime-local is the browser's local time; the service wants an ISO time with a zone.
  if (filters.since) query.since = new Date(filters.since).toISOString();
  if (filters.limit.trim()) query.limit = Number(filters.limit);
  return query;
}

/** The audit log (admin), newest first, with the route's filters. Events carry ids, never content. */
export function AuditPage() {
  const { client, can } = useInspector();
  const [form, setForm] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const set = (patch: Partial<Filters>) => setForm({ ...form, ...patch });
  const [events] = useLoad(can.admin ? () => client.auditEvents(toQuery(applied)) : null, [applied, client]);

  return (
    <section>
      <PageTitle>Audit log</PageTitle>
      {!can.admin ? (
        <Notice>The audit log is an admin route: sign in with the admin token.</Notice>
      ) : (
        <>
          <form
            class="inline panel"
            aria-label="Audit filters"
            onSubmit={(event) => {
              event.preventDefault();
              setApplied(form);
            }}
          >
            <Field id="audit-user" label="User id" value={form.userId} onInput={(userId) => set({ userId })} />
            <Field id="audit-workspace" label="Workspace id" value={form.workspaceId} onInput={(workspaceId) => set({ workspaceId })} />
            <Field id="audit-action" label="Action" value={form.action} onInput={(action) => set({ action })} list="audit-actions" />
            <datalist id="audit-actions">
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action} />
              ))}
            </datalist>
            <Field id="audit-since" label="Since" type="datetime-local" value={form.since} onInput={(since) => set({ since })} />
            <Field
              id="audit-limit"
              label="Limit"
              type="number"
              inputMode="numeric"
              min="1"
              max="500"
              value={form.limit}
              onInput={(limit) => set({ limit })}
            />
            <button type="submit">Filter</button>
          </form>
          <Loading load={events} label="audit events" />
          {events.state === 'done' ? (
            <>
              <p class="muted" role="status" data-testid="audit-count">
                {events.value.count} event{events.value.count === 1 ? '' : 's'}
              </p>
              <TableBox label="Audit events">
                <thead>
                  <tr>
                    <th scope="col">At</th>
                    <th scope="col">Action</th>
                    <th scope="col">User</th>
                    <th scope="col">Workspace</th>
                    <th scope="col">Agent</th>
                    <th scope="col">Key</th>
                    <th scope="col">Target</th>
                    <th scope="col">Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {events.value.events.map((event) => (
                    <tr key={event.id} data-testid="audit-row" data-action={event.action}>
                      <td class="nowrap">{when(event.at)}</td>
                      <td>{event.action}</td>
                      <td>{event.userId ?? '—'}</td>
                      <td class="mono">{short(event.workspaceId)}</td>
                      <td class="mono">{short(event.agentId)}</td>
                      <td class="mono">{short(event.keyId)}</td>
                      <td class="mono">{short(event.targetId)}</td>
                      <td>
                        <Json value={event.detail} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </TableBox>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
