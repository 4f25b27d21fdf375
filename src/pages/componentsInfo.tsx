import { routes } from '../../machines/routes';
import { css } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { GoalProgress, StatusBadge } from '../ui/CampaignCard';
import { Field } from '../ui/Field';
import { Link } from '../ui/Link';
import { card, muted, pageTitle, stack } from '../ui/styles';
import { definePage } from './types';

const sectionTitle = css({ fontSize: 'lg', fontWeight: 'bold', color: 'fg.highlighted' });

function Specimen({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={`${card} ${css({ display: 'grid', gap: '3' })}`}>
      <h2 id={id} className={sectionTitle}>
        {title}
      </h2>
      <p className={muted}>{description}</p>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}>
        {children}
      </div>
    </section>
  );
}

/** The live gallery of the app's UI components: each one as the app uses it, to try by hand. */
function ComponentsInfoPage() {
  return (
    <div className={stack}>
      <header className={css({ display: 'grid', gap: '1' })}>
        <h1 tabIndex={-1} className={pageTitle}>
          Component gallery
        </h1>
        <p className={muted}>
          Every building block of campaign-web, live. New components appear here as they land.
        </p>
      </header>
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', lg: 'repeat(2, minmax(0, 1fr))' },
        })}
      >
        <Specimen
          id="buttons"
          title="Buttons"
          description="Solid for the main action, outline and ghost for the rest."
        >
          <button type="button" className={button()}>
            Solid
          </button>
          <button type="button" className={button({ visual: 'outline' })}>
            Outline
          </button>
          <button type="button" className={button({ visual: 'ghost' })}>
            Ghost
          </button>
          <button type="button" className={button()} disabled>
            Disabled
          </button>
        </Specimen>
        <Specimen
          id="links"
          title="Links"
          description="Links send a navigation event to the app machine; modified clicks stay with the browser."
        >
          <Link to="/">Home page</Link>
          <Link to="/campaign/1">Campaign 1</Link>
          <Link to="/campaign/abc">An invalid campaign id</Link>
          <Link to="/no/such/page">A page that does not exist</Link>
        </Specimen>
        <Specimen
          id="fields"
          title="Form fields"
          description="Labelled inputs whose errors are read out with the field."
        >
          <div className={css({ w: 'full', display: 'grid', gap: '3' })}>
            <Field label="Example field" placeholder="Type here" />
            <Field
              label="Field with an error"
              defaultValue="not an email"
              error="Enter an email address like name@example.com."
            />
          </div>
        </Specimen>
        <Specimen
          id="status"
          title="Status and progress"
          description="Campaign status badges and the funding meter."
        >
          <StatusBadge status="active" />
          <StatusBadge status="paused" />
          <StatusBadge status="completed" />
          <StatusBadge status="draft" />
          <div className={css({ w: 'full' })}>
            <GoalProgress raised={6400} goal={10000} title="the example" />
          </div>
        </Specimen>
      </div>
      <section
        aria-labelledby="routes-title"
        className={`${card} ${css({ display: 'grid', gap: '3', overflowX: 'auto' })}`}
      >
        <h2 id="routes-title" className={sectionTitle}>
          Route table
        </h2>
        <table
          className={css({
            w: 'full',
            fontSize: 'sm',
            borderCollapse: 'collapse',
            '& th, & td': {
              textAlign: 'left',
              py: '2',
              pr: '4',
              borderBottomWidth: '1px',
              borderColor: 'border',
            },
          })}
        >
          <caption className={css({ textAlign: 'left', color: 'fg.muted', pb: '2' })}>
            The six routes, read from machines/routes.ts.
          </caption>
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Guards</th>
              <th scope="col">Validated</th>
            </tr>
          </thead>
          <tbody>
            {routes.map((route) => (
              <tr key={route.name}>
                <td>
                  <code>{route.path}</code>
                </td>
                <td>
                  {[route.requiresAuth ? 'auth (global)' : null, ...route.middleware]
                    .filter(Boolean)
                    .join(', ') || '—'}
                </td>
                <td>{route.validate ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

export default definePage<undefined>({ component: ComponentsInfoPage });
