import { useState } from 'preact/hooks';

import type { Lesson, LessonSeverity, LessonType, SearchResult } from '../../../src/client';
import { LESSON_SEVERITIES, LESSON_TYPES } from '../../../src/contract/wire-types';
import { ErrorBox, Field, Loading, Notice, PageTitle, TableBox, useLoad, when } from '../components';
import { useInspector } from '../inspector-context';
import { lessonUser } from '../scope';
import { ScopePanel } from '../scope-panel';
import { describeError } from '../session';
import { LessonCheckView } from './memories';

/**
 * The user's active lessons: counts by type (the stats route) and by severity (counted from the
 * listed lessons), the list itself, a try-a-query box that runs a real search and shows the
 * lesson check it got, and, for the admin, retiring a lesson. A lesson's pattern is shown
 * exactly as the API returns it to this caller; when the API leaves it out, so does the page.
 */
export function LessonsPage() {
  const { can, scope, session, draft } = useInspector();
  const typed = can.typedScope;
  const user = lessonUser(session, draft);
  const ready = can.memories && (!typed || (user.userId ?? '') !== '');
  return (
    <section>
      <PageTitle>Lessons</PageTitle>
      <ScopePanel userOnly />
      {!can.memories ? <Notice>{scope.ok ? '' : scope.error}</Notice> : null}
      {can.memories && !ready ? <Notice>Type a user id to see that user's lessons.</Notice> : null}
      {ready ? <LessonsView user={user} /> : null}
    </section>
  );
}

function LessonsView(props: { user: { userId?: string } }) {
  const { client, can } = useInspector();
  const [status, setStatus] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [data, reload] = useLoad(async () => {
    const [stats, list] = await Promise.all([client.lessonStats(props.user), client.listLessons(props.user)]);
    return { stats, list };
  }, [client, props.user.userId]);

  const retire = async (lesson: Lesson) => {
    setStatus(null);
    setActionError(null);
    try {
      const result = await client.retireLesson({ ...props.user, id: lesson.id });
      setStatus(result.success ? `Lesson ${lesson.id} retired.` : 'Lessons are off: nothing was retired.');
      reload();
    } catch (error) {
      setActionError(describeError(error));
    }
  };

  return (
    <>
      <Loading load={data} label="lessons" />
      {data.state === 'done' ? (
        <>
          <section class="panel" aria-labelledby="stats-title">
            <h2 id="stats-title">Active lessons: {data.value.stats.totalActive}</h2>
            <div class="columns">
              <CountTable
                label="By type"
                testId="stats-by-type"
                names={LESSON_TYPES}
                count={(type: LessonType) => data.value.stats.byType[type] ?? 0}
              />
              <CountTable
                label="By severity"
                testId="stats-by-severity"
                names={LESSON_SEVERITIES}
                count={(severity: LessonSeverity) => data.value.list.lessons.filter((l) => l.severity === severity).length}
              />
            </div>
          </section>
          <TryQuery user={props.user} />
          <section class="panel" aria-labelledby="lesson-list-title">
            <h2 id="lesson-list-title">Lessons, newest first</h2>
            <p role="status" class="muted">
              {status}
            </p>
            <ErrorBox error={actionError} />
            {data.value.list.count === 0 ? (
              <p>No active lessons.</p>
            ) : (
              <TableBox label="Lessons">
                <thead>
                  <tr>
                    <th scope="col">Created</th>
                    <th scope="col">Type</th>
                    <th scope="col">Severity</th>
                    <th scope="col">Pattern</th>
                    <th scope="col">Sources</th>
                    {can.admin ? <th scope="col">Action</th> : null}
                  </tr>
                </thead>
                <tbody>
                  {data.value.list.lessons.map((lesson) => (
                    <tr key={lesson.id} data-testid="lesson-row" data-id={lesson.id}>
                      <td class="nowrap">{when(lesson.createdAt)}</td>
                      <td>{lesson.lessonType}</td>
                      <td>{lesson.severity}</td>
                      <td class="content-cell">
                        {typeof lesson.pattern === 'string' ? lesson.pattern : <em>not shown to this caller</em>}
                      </td>
                      <td>{Array.isArray(lesson.sourceMemoryIds) ? lesson.sourceMemoryIds.length : '—'}</td>
                      {can.admin ? (
                        <td>
                          <button type="button" aria-label={`Retire lesson ${lesson.id}`} onClick={() => retire(lesson)}>
                            Retire
                          </button>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </TableBox>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}

function CountTable<T extends string>(props: { label: string; testId: string; names: readonly T[]; count: (name: T) => number }) {
  return (
    <TableBox label={props.label}>
      <caption>{props.label}</caption>
      <tbody data-testid={props.testId}>
        {props.names.map((name) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td data-name={name}>{props.count(name)}</td>
          </tr>
        ))}
      </tbody>
    </TableBox>
  );
}

/** A real search in the current scope, to see the lesson check it gets (and whether it fails closed). */
function TryQuery(props: { user: { userId?: string } }) {
  const { client, scope } = useInspector();
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<SearchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!scope.ok) return setError(scope.error);
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await client.search({ ...scope.input, query, limit: 5 }));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby="try-title">
      <h2 id="try-title">Try a query</h2>
      <p class="muted">Runs a real search in the scope{props.user.userId ? '' : ' of your key'} and shows the lesson check it got.</p>
      <form class="inline" onSubmit={submit}>
        <Field id="try-query" label="Query" type="search" value={query} onInput={setQuery} required />
        <button type="submit" disabled={busy}>
          Check
        </button>
      </form>
      <ErrorBox error={error} />
      {result ? (
        result.lessonCheck ? (
          <>
            <LessonCheckView check={result.lessonCheck} />
            <p class="muted">The search returned {result.count} memories.</p>
          </>
        ) : (
          <p data-testid="lesson-check">No lesson check: lessons are off.</p>
        )
      ) : null}
    </section>
  );
}
