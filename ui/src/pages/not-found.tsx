import { Link, PageTitle } from '../components';

export function NotFoundPage(props: { path: string }) {
  return (
    <section>
      <PageTitle>No such page</PageTitle>
      <p>
        The inspector has no page at <code>{props.path}</code>. <Link to="/memories">Go to the memories</Link>.
      </p>
    </section>
  );
}
