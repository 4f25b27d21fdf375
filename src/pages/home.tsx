import type { CampaignListResponse, CampaignSummary } from '../../api/types';
import { css } from '../../styled-system/css';
import { grid } from '../../styled-system/patterns';
import { apiRequest } from '../platform/api';
import { useSessionView } from '../platform/appActor';
import { CampaignList } from '../ui/CampaignCard';
import { formatMoney } from '../ui/format';
import { PageHeader } from '../ui/PageHeader';
import { stack } from '../ui/styles';
import type { AnyPage, PageDefinition, PageProps } from './types';

interface HomeData {
  readonly campaigns: readonly CampaignSummary[];
}

function HomePage({ data }: PageProps<HomeData>) {
  const name = useSessionView().user?.displayName ?? '';
  const active = data.campaigns.filter((campaign) => campaign.status === 'active').length;
  const raised = data.campaigns.reduce((sum, campaign) => sum + campaign.raised, 0);
  return (
    <div className={stack}>
      <PageHeader title={`Welcome back, ${name}`} description="Here is how your campaigns are doing." />
      <dl className={grid({ gap: '4', columns: { base: 1, sm: 3 } })}>
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
        <CampaignList campaigns={data.campaigns} empty="You have no campaigns yet." />
      </section>
    </div>
  );
}

export default {
  component: HomePage,
  loader: async ({ signal }) => apiRequest<CampaignListResponse>('/me/campaigns', { signal }),
} satisfies PageDefinition<HomeData> as AnyPage;
