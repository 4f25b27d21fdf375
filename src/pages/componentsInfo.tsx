import { pathTo, routes } from '../../core/routes';
import type { ToastOptions } from '../../machines/toast/toaster.utils';
import { css } from '../../styled-system/css';
import { grid } from '../../styled-system/patterns';
import { button } from '../../styled-system/recipes';
import { toast } from '../platform/toast';
import { GoalProgress, StatusBadge } from '../ui/CampaignCard';
import { CardSection } from '../ui/CardSection';
import { LazyColorModeSwitch } from '../ui/ColorModeSwitch.lazy';
import { Field } from '../ui/Field';
import { Icon } from '../ui/Icon';
import { Image } from '../ui/Image';
import { Link } from '../ui/Link';
import { PageHeader } from '../ui/PageHeader';
import { stack } from '../ui/styles';
import { LazyTooltip } from '../ui/Tooltip.lazy';
import { useHydrated } from '../ui/useHydrated';
import type { AnyPage, PageDefinition } from './types';

/** One button each in the toast specimen: what it is called and the toast it shows. */
const imageFigure = css({ w: '48', display: 'grid', gap: '1', fontSize: 'xs', color: 'fg.muted' });
const roundedImage = css({ borderRadius: 'control' });

/** One image of the images specimen, 192×128 and cropped to fill, with what it shows below. */
function ImageFigure({
  src,
  alt,
  caption,
}: {
  readonly src: string;
  readonly alt: string;
  readonly caption: string;
}) {
  return (
    <figure className={imageFigure}>
      <Image src={src} alt={alt} width={192} height={128} fit="cover" className={roundedImage} />
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

const toastDemos: readonly { label: string; toast: ToastOptions }[] = [
  {
    label: 'Show toast',
    toast: { title: 'Changes saved', description: 'Your draft is safe. This closes in 5 seconds.' },
  },
  {
    label: 'Show toast with action',
    toast: {
      title: 'Campaign archived',
      description: 'It no longer shows up in searches.',
      actions: [
        { label: 'Undo', onClick: () => toast.add({ title: 'Campaign restored', type: 'background' }) },
      ],
    },
  },
  { label: 'Show toast with an unlabelled action', toast: { title: 'Something happened', actions: [{}] } },
  {
    label: 'Show toast in the background',
    toast: {
      title: 'Sync finished',
      description: 'Announced politely: it was not the result of anything you did.',
      type: 'background',
    },
  },
  {
    label: 'Show toast that stays',
    toast: {
      title: 'Read this first',
      description: 'This one stays until you close it.',
      duration: Number.POSITIVE_INFINITY,
    },
  },
];

/** Icons the build inlines because the source names them as whole literals: no request on first load. */
const BUNDLED_ICONS = [
  { name: 'lucide:house', label: 'Home' },
  { name: 'lucide:user-round', label: 'Profile' },
  { name: 'lucide:log-in', label: 'Sign in' },
  { name: 'lucide:log-out', label: 'Sign out' },
  { name: 'lucide:heart-handshake', label: 'Support' },
] as const;

/**
 * Names put together at run time are invisible to the build's scan, so these come from the icon endpoint,
 * all in one request; the last does not exist and keeps an empty box of its size.
 */
const ON_DEMAND_ICONS = ['telescope', 'sailboat', 'tent', 'no-such-icon'];

const iconTile = css({
  display: 'grid',
  justifyItems: 'center',
  gap: '1',
  minW: '16',
  fontSize: 'xs',
  color: 'fg.muted',
  '& > span:first-child': { color: 'fg.highlighted' },
});

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
    <CardSection id={id} title={title} description={description}>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}>
        {children}
      </div>
    </CardSection>
  );
}

/** The live gallery of the app's UI components: each one as the app uses it, to try by hand. */
function ComponentsInfoPage() {
  const started = useHydrated();
  return (
    <div className={stack}>
      <PageHeader
        title="Component gallery"
        description="Every building block of campaign-web, live. New components appear here as they land."
      />
      <div className={grid({ gap: '4', columns: { base: 1, lg: 2 } })}>
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
          <button type="button" className={button()}>
            <Icon name="lucide:heart-handshake" />
            With an icon
          </button>
          <button type="button" className={button({ visual: 'ghost' })} aria-label="Search">
            <Icon name="lucide:search" size={20} />
          </button>
        </Specimen>
        <Specimen
          id="tooltips"
          title="Tooltips"
          description="On icon-only buttons: they open after 700 ms of hovering; once one has been open, the next opens at once until 300 ms after the last one closed."
        >
          <LazyTooltip label="Share">
            <button type="button" className={button({ visual: 'outline' })} aria-label="Share">
              <Icon name="lucide:share-2" size={20} />
            </button>
          </LazyTooltip>
          <LazyTooltip label="Bookmark">
            <button type="button" className={button({ visual: 'outline' })} aria-label="Bookmark">
              <Icon name="lucide:bookmark" size={20} />
            </button>
          </LazyTooltip>
          <LazyTooltip label="Report">
            <button type="button" className={button({ visual: 'outline' })} aria-label="Report">
              <Icon name="lucide:flag" size={20} />
            </button>
          </LazyTooltip>
        </Specimen>
        <Specimen
          id="color-mode"
          title="Colour mode"
          description="Light, dark, or whatever the system says; remembered on this browser. This gallery forces the dark theme, so here the control only shows your choice."
        >
          <LazyColorModeSwitch />
        </Specimen>
        <Specimen
          id="icons"
          title="Icons"
          description="Icons the app names are inlined at build; others load from /api/_nuxt_icon on demand, with the public Iconify API as a fallback after 1.5 s."
        >
          <ul className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })} aria-label="Inlined icons">
            {BUNDLED_ICONS.map((icon) => (
              <li key={icon.name} className={iconTile}>
                <Icon name={icon.name} size={24} label={icon.label} />
                <span aria-hidden="true">{icon.label}</span>
              </li>
            ))}
          </ul>
          <ul
            className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}
            aria-label="Icons loaded on demand"
          >
            {ON_DEMAND_ICONS.map((name) => (
              <li key={name} className={iconTile}>
                <Icon name={`lucide:${name}`} size={24} label={name} />
                <span aria-hidden="true">{name}</span>
              </li>
            ))}
          </ul>
        </Specimen>
        <Specimen
          id="images"
          title="Images"
          description="Resized by the /_ipx optimiser with 1x and 2x candidates in webp; a missing source shows a placeholder of the same size."
        >
          <ImageFigure
            src="/campaigns/campaign-3.jpg"
            alt="A river between green hills"
            caption="campaign-3.jpg, 192×128"
          />
          <ImageFigure
            src="/campaigns/no-such-image.jpg"
            alt="A source that does not exist"
            caption="Missing source: placeholder"
          />
        </Specimen>
        <Specimen
          id="links"
          title="Links"
          description="Links send a navigation event to the app machine; modified clicks stay with the browser."
        >
          <Link to={pathTo('index')}>Home page</Link>
          <Link to={pathTo('campaign', { id: 1 })}>Campaign 1</Link>
          <Link to={pathTo('campaign', { id: 'abc' })}>An invalid campaign id</Link>
          <Link to="/no/such/page">A page that does not exist</Link>
          {/* A #fragment of the page on screen: the window moves there, nothing is loaded again. */}
          <Link to={`${pathTo('campaignComponentsInfo')}#toasts`}>Toasts, further down this page</Link>
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
        <Specimen
          id="toasts"
          title="Toasts"
          description="Hover, focus or swipe a toast to hold it; Escape closes one, F8 jumps to them. Five at most are shown."
        >
          {/* Toasts need the app: until it runs these are disabled, so a click is never silently lost. */}
          {toastDemos.map(({ label, toast: options }) => (
            <button
              key={label}
              type="button"
              className={button({ visual: 'outline' })}
              disabled={!started}
              aria-disabled={!started || undefined}
              onClick={() => toast.add(options)}
            >
              {label}
            </button>
          ))}
          <button
            type="button"
            className={button({ visual: 'ghost' })}
            disabled={!started}
            aria-disabled={!started || undefined}
            onClick={() => toast.clear()}
          >
            Clear toasts
          </button>
        </Specimen>
      </div>
      <CardSection id="routes-title" title="Route table" className={css({ overflowX: 'auto' })}>
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
            // A long path breaks at any character rather than push the table sideways on a phone: Firefox breaks
            // it after a slash, Chromium and WebKit would not break it at all.
            '& code': { overflowWrap: 'anywhere' },
          })}
        >
          <caption className={css({ textAlign: 'left', color: 'fg.muted', pb: '2' })}>
            The six routes, read from core/routes.ts.
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
                  {[route.requiresAuth ? 'auth (global)' : null, ...route.guards]
                    .filter(Boolean)
                    .join(', ') || '—'}
                </td>
                <td>{route.validate ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </CardSection>
    </div>
  );
}

export default { component: ComponentsInfoPage } satisfies PageDefinition<undefined> as AnyPage;
