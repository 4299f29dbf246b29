import { useState } from 'preact/hooks';

import type { WebhookDeliveriesOptions, WebhookDeliveryStatus } from '../../../src/client';
import { Field, Loading, Notice, PageTitle, Select, TableBox, useLoad, when } from '../components';
import { useInspector } from '../inspector-context';
import { short } from '../session';

const STATUSES: readonly ('' | WebhookDeliveryStatus)[] = ['', 'pending', 'delivered', 'dead'];

interface Filters {
  userId: string;
  status: '' | WebhookDeliveryStatus;
}

const EMPTY: Filters = { userId: '', status: '' };

const countOf = (count: number, [one, many]: readonly [string, string]): string => `${count} ${count === 1 ? one : many}`;

/**
 * A subscription's target without what may be a credential: no user:password, no query or
 * fragment (a token in `?key=` would otherwise end up on screen and in screenshots).
 */
export function targetOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search || parsed.hash ? '?…' : ''}`;
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Webhooks (admin): the subscriptions, optionally of one user, and their deliveries with a status
 * filter; `dead` lists the dead letters. Never a signing secret (the list route has none).
 */
export function WebhooksPage() {
  const { client, can } = useInspector();
  const [form, setForm] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const userQuery = applied.userId.trim() ? { userId: applied.userId.trim() } : {};
  const deliveryQuery: WebhookDeliveriesOptions = { ...userQuery, ...(applied.status ? { status: applied.status } : {}) };
  const [subscriptions] = useLoad(can.admin ? () => client.listWebhooks(userQuery) : null, [applied, client]);
  const [deliveries] = useLoad(can.admin ? () => client.webhookDeliveries(deliveryQuery) : null, [applied, client]);

  return (
    <section>
      <PageTitle>Webhooks</PageTitle>
      {!can.admin ? (
        <Notice>Webhooks are admin routes: sign in with the admin token.</Notice>
      ) : (
        <>
          <form
            class="inline panel"
            aria-label="Webhook filters"
            onSubmit={(event) => {
              event.preventDefault();
              setApplied(form);
            }}
          >
            <Field id="webhooks-user" label="User id" value={form.userId} onInput={(userId) => setForm({ ...form, userId })} />
            <Select
              id="webhooks-status"
              label="Delivery status"
              value={form.status}
              options={STATUSES}
              onChange={(status) => setForm({ ...form, status: status as Filters['status'] })}
            />
            <button type="submit">Filter</button>
          </form>

          <section class="panel" aria-labelledby="subscriptions-title">
            <h2 id="subscriptions-title">Subscriptions</h2>
            <Loading load={subscriptions} label="subscriptions" />
            {subscriptions.state === 'done' ? (
              <>
                <p class="muted" role="status" data-testid="subscription-count">
                  {countOf(subscriptions.value.count, ['subscription', 'subscriptions'])}
                </p>
                <TableBox label="Webhook subscriptions">
                  <thead>
                    <tr>
                      <th scope="col">Id</th>
                      <th scope="col">User</th>
                      <th scope="col">Workspace</th>
                      <th scope="col">Agent</th>
                      <th scope="col">Target</th>
                      <th scope="col">Events</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {subscriptions.value.subscriptions.map((sub) => (
                      <tr key={sub.id} data-testid="subscription-row" data-id={sub.id}>
                        <td class="mono">{short(sub.id)}</td>
                        <td>{sub.userId}</td>
                        <td class="mono">{short(sub.workspaceId)}</td>
                        <td class="mono">{short(sub.agentId)}</td>
                        <td class="mono">{targetOf(sub.url)}</td>
                        <td>{sub.events.join(', ')}</td>
                        <td class="nowrap">{when(sub.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </TableBox>
              </>
            ) : null}
          </section>

          <section class="panel" aria-labelledby="deliveries-title">
            <h2 id="deliveries-title">Deliveries</h2>
            <Loading load={deliveries} label="deliveries" />
            {deliveries.state === 'done' ? (
              <>
                <p class="muted" role="status" data-testid="delivery-count">
                  {countOf(
                    deliveries.value.count,
                    applied.status === 'dead' ? ['dead letter', 'dead letters'] : ['delivery', 'deliveries'],
                  )}
                </p>
                <TableBox label="Webhook deliveries">
                  <thead>
                    <tr>
                      <th scope="col">Id</th>
                      <th scope="col">Event</th>
                      <th scope="col">Subscription</th>
                      <th scope="col">User</th>
                      <th scope="col">Status</th>
                      <th scope="col">Attempts</th>
                      <th scope="col">Last error</th>
                      <th scope="col">Created</th>
                      <th scope="col">Next attempt</th>
                      <th scope="col">Delivered</th>
                    </tr>
                  </thead>
                  <tbody>
                    {deliveries.value.deliveries.map((delivery) => (
                      <tr key={delivery.id} data-testid="delivery-row" data-id={delivery.id} data-status={delivery.status}>
                        <td class="mono">{short(delivery.id)}</td>
                        <td>{delivery.eventType}</td>
                        <td class="mono">{short(delivery.subscriptionId)}</td>
                        <td>{delivery.userId}</td>
                        <td>{delivery.status}</td>
                        <td>{delivery.attempts}</td>
                        <td>{delivery.lastError ?? '—'}</td>
                        <td class="nowrap">{when(delivery.createdAt)}</td>
                        <td class="nowrap">{delivery.status === 'pending' ? when(delivery.nextAttemptAt) : '—'}</td>
                        <td class="nowrap">{when(delivery.deliveredAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </TableBox>
              </>
            ) : null}
          </section>
        </>
      )}
    </section>
  );
}
