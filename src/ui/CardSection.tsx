import type { ReactNode } from 'react';
import { css, cx } from '../../styled-system/css';
import { card, muted, sectionTitle } from './styles';

const spacing = {
  normal: css({ display: 'grid', gap: '3' }),
  roomy: css({ display: 'grid', gap: '5' }),
} as const;

export interface CardSectionProps {
  /** The heading's id, which names the section. */
  readonly id: string;
  readonly title: string;
  /** A muted sentence under the heading. */
  readonly description?: string;
  readonly spacing?: keyof typeof spacing;
  /** Classes for the section box that do not touch its spacing (a width, an overflow). */
  readonly className?: string;
  readonly children: ReactNode;
}

/** A card with a section heading that names it, an optional description, then its content. */
export function CardSection({
  id,
  title,
  description,
  spacing: space = 'normal',
  className,
  children,
}: CardSectionProps) {
  return (
    <section aria-labelledby={id} className={cx(card, spacing[space], className)}>
      <h2 id={id} className={sectionTitle}>
        {title}
      </h2>
      {description === undefined ? null : <p className={muted}>{description}</p>}
      {children}
    </section>
  );
}
