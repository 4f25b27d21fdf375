import type { CampaignListResponse, CampaignSummary } from '../../server/types';
import { css } from '../../styled-system/css';
import { apiRequest } from '../platform/api';
import { useSessionView } from '../ui/appActor';
import { CampaignCard, cardGrid, formatMoney } from '../ui/CampaignCard';
import { muted, pageTitle, stack } from '../ui/styles';
import { definePage, type PageProps } from './types';

interface HomeData {
  readonly campaigns: readonly CampaignSummary[];
}

function HomePage({ data }: PageProps<HomeData>) {
  const name = useSessionView().user?.displayName ?? '';
  const active = data.campaigns.filter((campaign) => campaign.status === 'active').length;
  const raised = data.campaigns.reduce((sum, campaign) => sum + campaign.raised, 0);
  return (
    <div className={stack}>
      <header className={css({ display: 'grid', gap: '2' })}>
        <h1 tabIndex={-1} className={pageTitle}>
          Welcome back, {name}
        </h1>
        <p className={muted}>Here is how your campaigns are doing.</p>
      </header>
      <dl
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', sm: 'repeat(3, minmax(0, 1fr))' },
        })}
      >
        {[
          ['Campaigns', String(data.campaigns.length)],
          ['Active now', String(active)],
          ['Raised in total', formatMoney(raised)],
        ].map(([label, value]) => (
          <div
            key={label}
            className={css({
              bg: 'bg.muted',
              borderWidth: '1px',
              borderColor: 'border',
              borderRadius: 'card',
              p: '4',
            })}
          >
            <dt className={css({ fontSize: 'sm', color: 'fg.muted' })}>{label}</dt>
            <dd className={css({ fontSize: '2xl', fontWeight: 'bold', color: 'fg.highlighted' })}>{value}</dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="mine-title" className={css({ display: 'grid', gap: '4' })}>
        <h2 id="mine-title" className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.highlighted' })}>
          Your campaigns
        </h2>
        {data.campaigns.length === 0 ? (
          <p className={muted}>You have no campaigns yet.</p>
        ) : (
          <div className={cardGrid}>
            {data.campaigns.map((campaign) => (
              <CampaignCard key={campaign.id} campaign={campaign} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}

export default definePage<HomeData>({
  component: HomePage,
  loader: async ({ signal }) => apiRequest<CampaignListResponse>('/me/campaigns', { signal }),
});
