import type { CampaignStatus, CampaignSummary } from '../../api/types';
import { pathTo } from '../../core/routes';
import { css } from '../../styled-system/css';
import { formatMoney } from './format';
import { Image } from './Image';
import { Link } from './Link';
import { muted } from './styles';

const statusLabels: Readonly<Record<CampaignStatus, string>> = {
  draft: 'Draft',
  active: 'Active',
  paused: 'Paused',
  completed: 'Completed',
};

const badgeColors: Readonly<Record<CampaignStatus, string>> = {
  draft: css({ bg: 'bg.elevated', color: 'fg' }),
  active: css({ bg: 'primary.subtle', color: 'primary.text' }),
  paused: css({ bg: 'bg.elevated', color: 'warning.text' }),
  completed: css({ bg: 'bg.elevated', color: 'info.text' }),
};

export function StatusBadge({ status }: { readonly status: CampaignStatus }) {
  return (
    <span
      className={`${css({ display: 'inline-block', px: '2', py: '0.5', borderRadius: 'full', fontSize: 'xs', fontWeight: 'semibold' })} ${badgeColors[status]}`}
    >
      {statusLabels[status]}
    </span>
  );
}

/** How far a campaign is towards its goal, as a labelled meter. */
export function GoalProgress({
  raised,
  goal,
  title,
}: {
  readonly raised: number;
  readonly goal: number;
  readonly title: string;
}) {
  const percent = goal > 0 ? Math.min(100, Math.round((raised / goal) * 100)) : 0;
  return (
    <div className={css({ display: 'grid', gap: '1.5' })}>
      {/* biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot take the theme's colours in every browser. */}
      <div
        role="meter"
        aria-label={`Funding of ${title}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${formatMoney(raised)} of ${formatMoney(goal)} (${percent}%)`}
        className={css({ h: '2', borderRadius: 'full', bg: 'bg.elevated', overflow: 'hidden' })}
      >
        <div
          className={css({ h: 'full', bg: 'primary', borderRadius: 'full' })}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        <strong className={css({ color: 'fg.highlighted' })}>{formatMoney(raised)}</strong> raised of{' '}
        {formatMoney(goal)} · {percent}%
      </p>
    </div>
  );
}

/**
 * How wide a card's image is, from `cardGrid` below and the layout's container (at most 72rem, 16 px of padding
 * a side, 24 from `md`): one column of the viewport less 34 px (padding and the card's border), two from `md`
 * (16 px apart), three of 1,104 px from `xl`. A phone 412 px wide shows it 378 px wide.
 */
const cardImageSizes = '(min-width: 1280px) 356px, (min-width: 768px) calc(50vw - 34px), calc(100vw - 34px)';

export function CampaignCard({
  campaign,
  priority = false,
}: {
  readonly campaign: CampaignSummary;
  /** The first card of a list: its image is on the first screen of a phone, and usually the page's largest paint. */
  readonly priority?: boolean;
}) {
  return (
    <article
      className={css({
        display: 'grid',
        gap: '3',
        alignContent: 'start',
        bg: 'bg',
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: 'card',
        p: '5',
        position: 'relative',
        // No transition: a fading border and shadow repainted the whole card (its image too) in every frame
        // of the 120 ms after the pointer arrived, which is when it is clicked: the click's own frame waited
        // for that repaint (32 ms to the next paint at 1x, 16 without; 32 and 28 at 4x CPU).
        _hover: { borderColor: 'primary', boxShadow: 'md' },
        _focusWithin: { borderColor: 'primary' },
      })}
    >
      <div
        className={css({
          mt: '-5',
          mx: '-5',
          overflow: 'hidden',
          borderTopRadius: 'card',
          borderBottomWidth: '1px',
          borderColor: 'border',
        })}
      >
        {/* Decorative: the title below names the campaign. Only the first card's image loads at once. */}
        <Image
          src={campaign.image}
          alt=""
          width={480}
          height={270}
          sizes={cardImageSizes}
          fit="cover"
          priority={priority}
        />
      </div>
      <div
        className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', alignItems: 'start' })}
      >
        <h3
          className={css({
            fontSize: 'lg',
            fontWeight: 'semibold',
            color: 'fg.highlighted',
            lineHeight: '1.3',
          })}
        >
          <Link
            to={pathTo('campaign', { id: campaign.id })}
            className={css({
              textDecoration: 'none',
              color: 'inherit',
              _after: { content: '""', position: 'absolute', inset: '0', borderRadius: 'card' },
            })}
          >
            {campaign.title}
          </Link>
        </h3>
        <StatusBadge status={campaign.status} />
      </div>
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{campaign.summary}</p>
      <GoalProgress raised={campaign.raised} goal={campaign.goal} title={campaign.title} />
    </article>
  );
}

const cardGrid = css({
  display: 'grid',
  gap: '4',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' },
});

/** Campaign cards in a responsive grid, or the `empty` sentence when there are none. */
export function CampaignList({
  campaigns,
  empty,
}: {
  readonly campaigns: readonly CampaignSummary[];
  readonly empty: string;
}) {
  if (campaigns.length === 0) return <p className={muted}>{empty}</p>;
  return (
    <div className={cardGrid}>
      {campaigns.map((campaign, index) => (
        <CampaignCard key={campaign.id} campaign={campaign} priority={index === 0} />
      ))}
    </div>
  );
}
