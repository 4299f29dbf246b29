import { useState } from 'preact/hooks';

import type { LessonCheck, SearchResult } from '../../../src/client';
import { ErrorBox, Field, Link, Loading, Notice, PageTitle, TableBox, useLoad, when } from '../components';
import { useInspector } from '../inspector-context';
import { ScopePanel } from '../scope-panel';
import { short } from '../session';

const PAGE_SIZES = [20, 50, 100] as const;

/** Memories by scope: both search routes side by side, and the paged list (newest first). */
export function MemoriesPage() {
  const { can, scope } = useInspector();
  return (
    <section>
      <PageTitle>Memories</PageTitle>
      <ScopePanel />
      {!can.memories || !scope.ok ? (
        <Notice>{scope.ok ? '' : scope.error}</Notice>
      ) : (
        <>
          <SearchPanel />
          <MemoryList />
        </>
      )}
    </section>
  );
}

function SearchPanel() {
  const { client, scope } = useInspector();
  const [query, setQuery] = useState('');
  const [limit, setLimit] = useState('10');
  const [asked, setAsked] = useState<{ query: string; limit: number } | null>(null);
  const input = scope.ok ? scope.input : null;
  const [results] = useLoad(
    asked && input
      ? async () => {
          // Both routes at once, each timed on its own; one failing does not hide the other.
          const timed = async (run: () => Promise<SearchResult>) => {
            const started = performance.now();
            try {
              return { ok: true as const, result: await run(), ms: performance.now() - started };
            } catch (error) {
              return { ok: false as const, error };
            }
          };
          const options = { ...input, query: asked.query, limit: asked.limit };
          const [hybrid, fast] = await Promise.all([timed(() => client.search(options)), timed(() => client.searchFast(options))]);
          return { hybrid, fast, asked: asked.query };
        }
      : null,
    [asked, input, client],
  );

  return (
    <section
      class="panel"
      aria-labelledby="search-title"
      data-testid="search-panel"
      data-loaded={results.state === 'done' ? results.value.asked : ''}
    >
      <h2 id="search-title">Search</h2>
      <form
        class="inline"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (query.trim() !== '') setAsked({ query, limit: Number(limit) || 10 });
        }}
      >
        <Field id="search-query" label="Query" type="search" value={query} onInput={setQuery} required />
        <Field id="search-limit" label="Limit" type="number" inputMode="numeric" min="1" max="100" value={limit} onInput={setLimit} />
        <button type="submit">Search both</button>
      </form>
      <p class="muted">A real search: it counts as an access of each memory it returns, and its lesson check runs.</p>
      <Loading load={results} label="search results" />
      {results.state === 'done' ? (
        <div class="columns">
          <SearchColumn title="/search (hybrid: vector + full text)" testId="search-results" outcome={results.value.hybrid} />
          <SearchColumn title="/search/fast (vector only)" testId="fast-results" outcome={results.value.fast} />
        </div>
      ) : null}
    </section>
  );
}

type Outcome = { ok: true; result: SearchResult; ms: number } | { ok: false; error: unknown };

function SearchColumn(props: { title: string; testId: string; outcome: Outcome }) {
  const outcome = props.outcome;
  return (
    <section class="column" data-testid={props.testId} aria-label={props.title}>
      <h3>{props.title}</h3>
      {!outcome.ok ? (
        <ErrorBox error={outcome.error} />
      ) : (
        <>
          <p class="muted">
            {outcome.result.count} result{outcome.result.count === 1 ? '' : 's'} in {Math.round(outcome.ms)} ms
          </p>
          {outcome.result.lessonCheck ? <LessonCheckView check={outcome.result.lessonCheck} /> : null}
          <ol class="hits">
            {outcome.result.memories.map((hit) => (
              <li key={hit.id} data-testid="hit" data-id={hit.id}>
                <Link to={`/memories/${hit.id}`}>
                  <span class="content">{hit.content}</span>
                </Link>
                <span class="meta">
                  score {hit.score.toFixed(3)} · similarity {hit.similarity.toFixed(3)} · {hit.visibility ?? 'personal'} · agent{' '}
                  {short(hit.agentId)}
                </span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

export function LessonCheckView(props: { check: LessonCheck }) {
  const check = props.check;
  return (
    <div class={check.safe ? 'lesson-check' : 'lesson-check unsafe'} data-testid="lesson-check">
      <p>
        Lesson check: <strong>{check.safe ? 'safe' : 'failed closed (no memories returned)'}</strong>, highest severity{' '}
        <strong data-testid="highest-severity">{check.highestSeverity}</strong>, {check.matchedCount} match
        {check.matchedCount === 1 ? '' : 'es'}
      </p>
      {check.warnings.length > 0 ? (
        <ul>
          {check.warnings.map((warning, i) => (
            <li key={i}>{warning}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function MemoryList() {
  const { client, scope } = useInspector();
  const [pageSize, setPageSize] = useState<number>(20);
  const [offset, setOffset] = useState(0);
  const input = scope.ok ? scope.input : null;
  const [page] = useLoad(
    input ? async () => ({ ...(await client.list({ ...input, limit: pageSize, offset })), offset, asked: `${pageSize}:${offset}` }) : null,
    [input, pageSize, offset, client],
  );
  const count = page.state === 'done' ? page.value.count : 0;

  return (
    <section
      class="panel"
      aria-labelledby="list-title"
      data-testid="memory-list"
      data-loaded={page.state === 'done' ? page.value.asked : ''}
    >
      <h2 id="list-title">All memories in scope</h2>
      <div class="inline">
        <div class="field">
          <label for="page-size">Per page</label>
          <select
            id="page-size"
            value={String(pageSize)}
            onChange={(event) => {
              setPageSize(Number((event.currentTarget as HTMLSelectElement).value));
              setOffset(0);
            }}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={String(size)}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - pageSize))}>
          Previous page
        </button>
        <button type="button" disabled={page.state !== 'done' || count < pageSize} onClick={() => setOffset(offset + pageSize)}>
          Next page
        </button>
        <span class="muted" role="status" data-testid="list-range">
          {/* From the page on screen, not the one being asked for. */}
          {page.state === 'done'
            ? count === 0
              ? 'No memories here'
              : `Memories ${page.value.offset + 1}–${page.value.offset + count}, newest first`
            : ''}
        </span>
      </div>
      <Loading load={page} label="memories" />
      {page.state === 'done' && count > 0 ? (
        <TableBox label="Memories" cards>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Content</th>
              <th scope="col">Type</th>
              <th scope="col">Visibility</th>
              <th scope="col">Agent</th>
            </tr>
          </thead>
          <tbody>
            {page.value.memories.map((memory) => (
              <tr key={memory.id} data-testid="memory-row" data-id={memory.id}>
                <td class="nowrap" data-label="Created">
                  {when(memory.createdAt)}
                </td>
                <td class="content-cell" data-label="Content">
                  <Link to={`/memories/${memory.id}`}>{memory.content}</Link>
                </td>
                <td data-label="Type">{memory.memoryType}</td>
                <td data-label="Visibility">{memory.visibility ?? (memory.workspaceId ? 'workspace (legacy)' : 'personal')}</td>
                <td class="mono" data-label="Agent">
                  {short(memory.agentId)}
                </td>
              </tr>
            ))}
          </tbody>
        </TableBox>
      ) : null}
    </section>
  );
}
