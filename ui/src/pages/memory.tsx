import type { MemoryRecord, ScopeInput } from '../../../src/client';
import { Json, Link, Loading, Notice, PageTitle, TableBox, useLoad, when } from '../components';
import { fetchHistory } from '../history';
import { useInspector } from '../inspector-context';
import { WhyPanel } from './why';

/** One memory as the current scope reads it: the record, its grants, its history, and why it is visible. */
export function MemoryPage(props: { id: string }) {
  const { client, scope, can } = useInspector();
  const input = scope.ok ? scope.input : null;
  const [record] = useLoad(input ? () => client.get({ ...input, id: props.id }) : null, [input, props.id, client]);

  return (
    <section>
      <PageTitle>Memory</PageTitle>
      <p>
        <Link to="/memories">Back to the memories</Link>
      </p>
      {!scope.ok ? <Notice>{scope.error}</Notice> : null}
      <Loading load={record} label="the memory" />
      {record.state === 'done' && input ? (
        <>
          <RecordView memory={record.value} />
          <GrantsPanel memory={record.value} />
          <HistoryPanel id={props.id} input={input} />
        </>
      ) : null}
      {can.admin ? (
        <WhyPanel
          memoryId={props.id}
          userId={record.state === 'done' ? record.value.userId : ((scope.ok ? scope.userId : null) ?? '')}
          workspaceId={record.state === 'done' ? (record.value.workspaceId ?? '') : ((scope.ok ? scope.workspaceId : null) ?? '')}
          agentId={(scope.ok ? scope.agentId : null) ?? ''}
        />
      ) : null}
    </section>
  );
}

function RecordView(props: { memory: MemoryRecord }) {
  const m = props.memory;
  const rows: [string, string][] = [
    ['id', m.id],
    ['user', m.userId],
    ['workspace', m.workspaceId ?? '— (personal memory)'],
    ['owning agent', m.agentId ?? '—'],
    ['visibility', m.visibility ?? (m.workspaceId ? 'NULL (legacy: read as workspace)' : '—')],
    ['type', m.memoryType],
    ['status', m.status],
    ['importance', String(m.importance)],
    ['trust score', String(m.trustScore)],
    ['source', `${m.sourceSite}${m.sourceUrl ? ` (${m.sourceUrl})` : ''}`],
    ['namespace', m.namespace ?? '—'],
    ['episode', m.episodeId ?? '—'],
    ['created', when(m.createdAt)],
    ['updated', when(m.updatedAt)],
    ['version', String(m.version)],
    ['expires', m.expiresAt ? when(m.expiresAt) : 'never'],
    ['valid until', m.validUntil ? when(m.validUntil) : 'still valid'],
    ['accesses', `${m.accessCount}${m.lastAccessedAt ? `, last ${when(m.lastAccessedAt)}` : ''}`],
  ];
  return (
    <section class="panel" aria-labelledby="record-title" data-testid="record">
      <h2 id="record-title">Record</h2>
      <pre class="content-block" data-testid="record-content">
        {m.content}
      </pre>
      <dl class="facts">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h3>Metadata</h3>
      <Json value={m.metadata} />
    </section>
  );
}

/** Grants are the owning agent's to list: a typed scope asks as the owner; a key asks as itself. */
function GrantsPanel(props: { memory: MemoryRecord }) {
  const { client, session, can } = useInspector();
  const m = props.memory;
  const asOwner = m.workspaceId && m.agentId && can.typedScope ? { userId: m.userId, workspaceId: m.workspaceId, agentId: m.agentId } : {};
  const [grants] = useLoad(m.workspaceId && m.visibility === 'restricted' ? () => client.listGrants({ ...asOwner, id: m.id }) : null, [
    m.id,
    client,
    session,
  ]);
  return (
    <section class="panel" aria-labelledby="grants-title">
      <h2 id="grants-title">Grants</h2>
      {!m.workspaceId ? <p>A personal memory has no grants.</p> : null}
      {m.workspaceId && m.visibility !== 'restricted' ? (
        <p>Only restricted memories have grants; this one is {m.visibility ?? 'workspace (legacy)'}.</p>
      ) : null}
      {grants.state === 'failed' ? (
        <Notice>Only the owning agent can list the grants of this memory.</Notice>
      ) : (
        <Loading load={grants} label="grants" />
      )}
      {grants.state === 'done' ? (
        grants.value.count === 0 ? (
          <p>No agent has a grant.</p>
        ) : (
          <TableBox label="Grants">
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Granted</th>
              </tr>
            </thead>
            <tbody>
              {grants.value.grants.map((grant) => (
                <tr key={grant.granteeAgentId} data-testid="grant-row">
                  <td class="mono">{grant.granteeAgentId}</td>
                  <td>{when(grant.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </TableBox>
        )
      ) : null}
    </section>
  );
}

function HistoryPanel(props: { id: string; input: ScopeInput }) {
  const { client } = useInspector();
  const [history] = useLoad(() => fetchHistory(client, props.id, props.input), [props.id, props.input, client]);
  return (
    <section class="panel" aria-labelledby="history-title" data-testid="history" data-state={history.state}>
      <h2 id="history-title">History</h2>
      <Loading load={history} label="history" />
      {history.state === 'done' && history.value.kind === 'unavailable' ? <p>No history available.</p> : null}
      {history.state === 'done' && history.value.kind === 'versions' ? (
        <TableBox label="Versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Change</th>
              <th scope="col">When</th>
              <th scope="col">Agent</th>
              <th scope="col">Visibility</th>
              <th scope="col">Content</th>
            </tr>
          </thead>
          <tbody>
            {history.value.history.versions.map((v) => (
              <tr key={v.version}>
                <td>{v.version}</td>
                <td>{v.change}</td>
                <td class="nowrap">{when(v.changedAt)}</td>
                <td class="mono">{v.agentId ?? '—'}</td>
                <td>{v.visibility ?? '—'}</td>
                <td class="content-cell">{v.content}</td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      ) : null}
    </section>
  );
}
