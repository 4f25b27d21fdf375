import type { ComponentType } from 'react';
import type { AppLocation } from '../../core/routes';

export interface LoaderArgs {
  readonly params: Readonly<Record<string, string>>;
  readonly fullPath: string;
  /** Aborted when a newer navigation supersedes this one. */
  readonly signal: AbortSignal;
}

export interface PageProps<Data> {
  readonly data: Data;
  readonly params: Readonly<Record<string, string>>;
  readonly location: AppLocation;
}

/** One page: its component, the data it needs before it can show (loaded before the URL commits), its title. */
export interface PageDefinition<Data> {
  readonly component: ComponentType<PageProps<Data>>;
  readonly loader?: (args: LoaderArgs) => Promise<Data>;
  /** A title from the data (a campaign's name); the route table's title otherwise. */
  readonly title?: (data: Data) => string;
  /** The prerendered HTML's meta description from the data (a campaign's summary); the app's otherwise. */
  readonly description?: (data: Data) => string;
  /** The picture link previews show (Open Graph), as an image source path (a campaign's `image`), if any. */
  readonly image?: (data: Data) => string | null;
}

/**
 * A page module's default export: `{ ... } satisfies PageDefinition<Data> as AnyPage` ties its loader to its
 * component's props, then forgets the data type for the registry. Only types: an identity function here was a
 * 38-byte chunk that every page's first load fetched on its own.
 */
export type AnyPage = PageDefinition<unknown>;
