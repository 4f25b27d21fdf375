import type { ReactNode } from 'react';
import { css } from '../../styled-system/css';
import { muted, pageTitle } from './styles';

const header = css({ display: 'grid', gap: '1' });

/**
 * A page's main heading (focusable from script: it takes focus when a navigation arrives) with a muted
 * line under it.
 */
export function PageHeader({
  title,
  description,
}: {
  readonly title: ReactNode;
  readonly description: ReactNode;
}) {
  return (
    <header className={header}>
      <h1 className={pageTitle}>{title}</h1>
      <p className={muted}>{description}</p>
    </header>
  );
}
