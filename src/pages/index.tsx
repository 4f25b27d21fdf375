import type { CampaignListResponse, CampaignSummary } from '../../api/types';
import { pathTo } from '../../core/routes';
import { css } from '../../styled-system/css';
import { button } from '../../styled-system/recipes';
import { apiRequest } from '../platform/api';
import { useSessionView } from '../platform/appActor';
import { CampaignList } from '../ui/CampaignCard';
import { Link } from '../ui/Link';
import { stack } from '../ui/styles';
import type { AnyPage, PageDefinition, PageProps } from './types';

interface IndexData {
  /** The live campaigns of this page of the list, newest first. */
  readonly campaigns: readonly CampaignSummary[];
  /** The cursor of the next page, `null` on the last. */
  readonly next: string | null;
  /** Whether this is a later page (`/?after=…`). */
  readonly later: boolean;
}

/** The page's cursor, from its query (`/?after=c1k`): the list starts after that campaign. */
function cursorOf(fullPath: string): string | null {
  const query = fullPath.split('#')[0]?.split('?')[1] ?? '';
  return new URLSearchParams(query).get('after');
}

function IndexPage({ data }: PageProps<IndexData>) {
  const { signedIn } = useSessionView();
  return (
    <div className={stack}>
      <section
        aria-labelledby="page-title"
        className={css({
          display: 'grid',
          gap: '4',
          py: { base: '6', md: '12' },
          maxW: '3xl',
        })}
      >
        <p
          className={css({
            color: 'primary.text',
            fontWeight: 'semibold',
            fontSize: 'sm',
            letterSpacing: '0.04em',
            textTransform: 'uppercase',
          })}
        >
          Local campaigns, shared progress
        </p>
        <h1
          id="page-title"
          className={css({ textStyle: 'display', color: 'fg.highlighted', _focus: { outline: 'none' } })}
        >
          Campaigns that move neighbourhoods
        </h1>
        <p className={css({ fontSize: { base: 'md', md: 'lg' }, color: 'fg.muted', maxW: '2xl' })}>
          campaign-web is where neighbours start, follow and fund the projects that make a street better:
          gardens, libraries, repair cafés and clean-ups. See what is happening near you, then sign in to run
          your own.
        </p>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          {signedIn ? (
            <Link to={pathTo('home')} className={button()}>
              Go to your campaigns
            </Link>
          ) : (
            <Link to={pathTo('login')} className={button()}>
              Sign in
            </Link>
          )}
          <Link to={pathTo('campaignComponentsInfo')} className={button({ visual: 'outline' })}>
            Browse the component gallery
          </Link>
        </div>
      </section>
      <section aria-labelledby="live-title" className={css({ display: 'grid', gap: '4' })}>
        <h2 id="live-title" className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.highlighted' })}>
          {data.later ? 'More live campaigns' : 'Live campaigns'}
        </h2>
        <CampaignList campaigns={data.campaigns} empty="No campaigns are live right now." />
        {data.next === null ? null : (
          <p>
            <Link to={`/?after=${encodeURIComponent(data.next)}`} className={button({ visual: 'outline' })}>
              More campaigns
            </Link>
          </p>
        )}
      </section>
    </div>
  );
}

export default {
  component: IndexPage,
  loader: async ({ fullPath, signal }) => {
    const after = cursorOf(fullPath);
    const query: Record<string, string> = after === null ? {} : { after };
    const body = await apiRequest<CampaignListResponse>('/campaigns', { query, signal });
    return { campaigns: body.campaigns, next: body.next ?? null, later: after !== null };
  },
} satisfies PageDefinition<IndexData> as AnyPage;
