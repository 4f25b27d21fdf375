import type { ReactNode } from 'react';
import { pathTo } from '../../core/routes';
import { css } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { config } from '../config';
import { useAppView, useSessionView } from '../platform/appActor';
import { LazyColorModeSwitch } from '../ui/ColorModeSwitch.lazy';
import { Icon } from '../ui/Icon';
import { Link } from '../ui/Link';
import { SignOutForm } from '../ui/SignOutForm';

const skipLink = css({
  position: 'absolute',
  left: '4',
  top: '-40',
  zIndex: 60,
  bg: 'bg',
  color: 'fg.highlighted',
  px: '4',
  py: '2',
  borderRadius: 'control',
  boxShadow: 'lg',
  _focus: { top: '4' },
});

const navLink = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  px: { base: '2', sm: '3' },
  py: '2',
  borderRadius: 'control',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg',
  textDecoration: 'none',
  _hover: { bg: 'bg.elevated', color: 'fg.highlighted' },
  '&[aria-current=page]': { color: 'primary.text', bg: 'primary.subtle' },
});

/**
 * A label beside an icon in the header: read by screen readers always, shown from `sm` up. On a phone (390 px)
 * the links, the colour-mode control and sign-out keep one row as icons, each still named by its label.
 */
const headerLabel = css({ srOnly: { base: true, sm: false } });

/** One link of the main navigation: an icon and its label. */
function NavItem({
  to,
  icon,
  label,
}: {
  readonly to: string;
  readonly icon: string;
  readonly label: string;
}) {
  return (
    <li>
      <Link to={to} className={navLink}>
        <Icon name={icon} />
        <span className={headerLabel}>{label}</span>
      </Link>
    </li>
  );
}

/** The app's name in the header, a link home, with a dot in the brand colour before it. */
const brandLink = css({
  fontWeight: 'extrabold',
  fontSize: { base: 'md', sm: 'lg' },
  // One line: on a phone the name shares the row with the links and the controls.
  whiteSpace: 'nowrap',
  flexShrink: 0,
  color: 'fg.highlighted',
  textDecoration: 'none',
  mr: 'auto',
  display: 'flex',
  alignItems: 'center',
  gap: '2',
});

const brandDot = css({ display: 'inline-block', w: '3', h: '3', borderRadius: 'full', bg: 'primary' });

const container = css({ maxW: '6xl', mx: 'auto', px: { base: '4', md: '6' }, w: 'full' });

/** The one layout: header with navigation, the page, a footer. */
export function DefaultLayout({ children }: { readonly children: ReactNode }) {
  const { signedIn } = useSessionView();
  const { busy, current } = useAppView();
  // Until the first page commits, main is empty: a footer would sit on screen only to jump below the fold
  // when the page arrives, a layout shift on every first load of a long page.
  const hasPage = current !== null;
  return (
    <div className={css({ minH: '100dvh', display: 'flex', flexDirection: 'column', bg: 'bg.muted' })}>
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is in-page navigation and works without JS too. */}
      <a
        href="#main"
        className={skipLink}
        onClick={(event) => {
          // Moving focus is all a skip link has to do. Following `#main` would add a history entry, which
          // the app reads as a new navigation: the page would reload its data and lose what was typed.
          const main = document.getElementById('main');
          if (!main) return;
          event.preventDefault();
          main.focus();
        }}
      >
        Skip to content
      </a>
      <header
        className={css({
          bg: 'bg',
          borderBottomWidth: '1px',
          borderColor: 'border',
          position: 'sticky',
          top: '0',
          zIndex: 40,
        })}
      >
        <div
          className={`${container} ${css({ display: 'flex', alignItems: 'center', gap: { base: '1', sm: '2' }, minH: '16', py: '2' })}`}
        >
          <Link to={pathTo('index')} className={brandLink}>
            <span aria-hidden="true" className={brandDot} />
            {config.appName}
          </Link>
          <nav aria-label="Main">
            <ul className={css({ display: 'flex', gap: { base: '0', sm: '1' }, alignItems: 'center' })}>
              {signedIn ? (
                <>
                  <NavItem to={pathTo('home')} icon="lucide:house" label="Home" />
                  <NavItem to={pathTo('profile')} icon="lucide:user-round" label="Profile" />
                </>
              ) : (
                <NavItem to={pathTo('login')} icon="lucide:log-in" label="Sign in" />
              )}
            </ul>
          </nav>
          <LazyColorModeSwitch compact />
          {signedIn ? (
            <SignOutForm className={button({ visual: 'outline', size: 'sm' })}>
              <Icon name="lucide:log-out" />
              <span className={headerLabel}>Sign out</span>
            </SignOutForm>
          ) : null}
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        aria-busy={busy}
        className={`${container} ${css({ flex: '1', py: { base: '6', md: '10' }, _focus: { outline: 'none' } })}`}
      >
        {children}
      </main>
      {hasPage ? (
        <footer className={css({ borderTopWidth: '1px', borderColor: 'border', bg: 'bg' })}>
          <div
            className={`${container} ${css({ py: '6', fontSize: 'sm', color: 'fg.muted', display: 'flex', gap: '4', flexWrap: 'wrap', justifyContent: 'space-between' })}`}
          >
            <p>
              {config.appName} — where neighbours start, follow and fund the projects that make a street
              better.
            </p>
            <Link
              to={pathTo('campaignComponentsInfo')}
              className={css({ color: 'fg.muted', _hover: { color: 'fg.highlighted' } })}
            >
              Component gallery
            </Link>
          </div>
        </footer>
      ) : null}
    </div>
  );
}
