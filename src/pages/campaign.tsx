import type { Campaign, CampaignResponse } from '../../api/types';
import { pathTo } from '../../core/routes';
import { css } from '../../styled-system/css';
import { apiRequest } from '../platform/api';
import { GoalProgress, StatusBadge } from '../ui/CampaignCard';
import { formatLongDate } from '../ui/format';
import { Icon } from '../ui/Icon';
import { Image } from '../ui/Image';
import { Link } from '../ui/Link';
import { card, muted, pageTitle, sectionTitle, stack } from '../ui/styles';
import type { AnyPage, PageDefinition, PageProps } from './types';

function formatDate(iso: string): string {
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? iso : formatLongDate(date);
}

/** The breadcrumb back to the list: muted until pointed at. */
const backLink = css({
  color: 'fg.muted',
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  _hover: { color: 'fg.highlighted' },
});

function CampaignPage({ data: campaign }: PageProps<Campaign>) {
  return (
    <article className={stack}>
      <nav aria-label="Breadcrumb" className={css({ fontSize: 'sm' })}>
        <Link to={pathTo('index')} className={backLink}>
          <Icon name="lucide:arrow-left" />
          All campaigns
        </Link>
      </nav>
      <header className={css({ display: 'grid', gap: '3' })}>
        <div>
          <StatusBadge status={campaign.status} />
        </div>
        <h1 className={pageTitle}>{campaign.title}</h1>
        <p className={css({ fontSize: 'lg', color: 'fg.muted', maxW: '3xl' })}>{campaign.summary}</p>
      </header>
      {/* The hero is above the fold: fetched at once, first. Decorative, since the title says what it is. */}
      <Image
        src={campaign.image}
        alt=""
        width={1104}
        height={368}
        // The layout's container: 1,104 px from 1,152 up, else the viewport less its padding (24 px a side from
        // `md`, 16 below).
        sizes="(min-width: 1152px) 1104px, (min-width: 768px) calc(100vw - 48px), calc(100vw - 32px)"
        fit="cover"
        priority
        className={css({ borderRadius: 'card', borderWidth: '1px', borderColor: 'border' })}
      />
      <div
        className={css({
          display: 'grid',
          gap: '6',
          gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' },
          alignItems: 'start',
        })}
      >
        <section aria-labelledby="about-title" className={css({ display: 'grid', gap: '3' })}>
          <h2
            id="about-title"
            className={css({ fontSize: 'xl', fontWeight: 'bold', color: 'fg.highlighted' })}
          >
            About this campaign
          </h2>
          {campaign.description.split(/\n{2,}/).map((paragraph) => (
            <p key={paragraph} className={css({ maxW: '65ch' })}>
              {paragraph}
            </p>
          ))}
        </section>
        <aside aria-labelledby="progress-title" className={`${card} ${css({ display: 'grid', gap: '4' })}`}>
          <h2 id="progress-title" className={sectionTitle}>
            Progress
          </h2>
          <GoalProgress raised={campaign.raised} goal={campaign.goal} title={campaign.title} />
          <dl
            className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2 4', fontSize: 'sm' })}
          >
            <dt className={muted}>Organised by</dt>
            <dd>{campaign.ownerName}</dd>
            <dt className={muted}>Starts</dt>
            <dd>{formatDate(campaign.startsOn)}</dd>
            <dt className={muted}>Ends</dt>
            <dd>{formatDate(campaign.endsOn)}</dd>
          </dl>
        </aside>
      </div>
    </article>
  );
}

export default {
  component: CampaignPage,
  loader: async ({ params, signal }) => {
    const body = await apiRequest<CampaignResponse>(`/campaigns/${encodeURIComponent(params.id ?? '')}`, {
      signal,
    });
    return body.campaign;
  },
  title: (campaign) => campaign.title,
  description: (campaign) => campaign.summary,
  image: (campaign) => campaign.image,
} satisfies PageDefinition<Campaign> as AnyPage;
