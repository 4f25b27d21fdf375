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
  readonly featured: readonly CampaignSummary[];
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
      <section aria-labelledby="featured-title" className={css({ display: 'grid', gap: '4' })}>
        <h2
          id="featured-title"
          className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.highlighted' })}
        >
          Featured campaigns
        </h2>
        <CampaignList campaigns={data.featured} empty="No campaigns are featured right now." />
      </section>
    </div>
  );
}

export default {
  component: IndexPage,
  loader: async ({ signal }) => {
    const body = await apiRequest<CampaignListResponse>('/campaigns', { query: { featured: '1' }, signal });
    return { featured: body.campaigns };
  },
} satisfies PageDefinition<IndexData> as AnyPage;
