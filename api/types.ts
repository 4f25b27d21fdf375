// Wire format of the demo API. This module must stay free of runtime code and
// node imports so that the browser bundle can `import type` from it.

export type CampaignStatus = 'draft' | 'active' | 'paused' | 'completed';

export interface PublicUser {
  id: string;
  email: string;
  displayName: string;
}

export type Profile = PublicUser;

/** Amounts (`goal`, `raised`) are whole currency units. */
export interface CampaignSummary {
  id: number;
  title: string;
  summary: string;
  status: CampaignStatus;
  goal: number;
  raised: number;
  featured: boolean;
  /**
   * The campaign's picture as a source path for the image optimiser (`/_ipx/{modifiers}{image}`), e.g.
   * `/campaigns/campaign-1.jpg` under api/fixtures/images; null when it has none.
   */
  image: string | null;
}

export interface Campaign extends CampaignSummary {
  description: string;
  ownerId: string;
  ownerName: string;
  /** ISO date, e.g. `2025-03-01`. */
  startsOn: string;
  /** ISO date, e.g. `2025-09-30`. */
  endsOn: string;
}

export interface ApiErrorBody {
  message: string;
}

// Request and response envelopes, one per endpoint.
export interface SignInRequest {
  email: string;
  password: string;
}
export interface SessionResponse {
  user: PublicUser | null;
}
export interface SignInResponse {
  user: PublicUser;
}
export interface CampaignListResponse {
  campaigns: CampaignSummary[];
  /** The cursor of the next page (`?after=`), `null` on the last; absent from the lists that are not paged. */
  next?: string | null;
}
export interface CampaignResponse {
  campaign: Campaign;
}
export interface ProfileResponse {
  profile: Profile;
}
export interface ProfileUpdateRequest {
  displayName: string;
}

// --- Reports from the browser (POST /api/reports; api/reports.ts) ---

/** One event the app actor received, as it leaves the browser: its type and an allow-listed payload. */
export interface ReportedEvent {
  type: string;
  [field: string]: unknown;
}

export type VitalName = 'LCP' | 'INP' | 'CLS' | 'TTFB';

export interface ReportedVital {
  name: VitalName;
  value: number;
  rating: 'good' | 'needs-improvement' | 'poor';
  /** What caused it (INP: the interaction's target and type); short text fields only. */
  attribution?: Record<string, string | number>;
}

/** What a report says about the error the visitor was shown. */
export interface ReportedError {
  name: string;
  message: string;
  /** HTTP-like status of the error view (404, 500); null for errors that never reached one. */
  status: number | null;
}

/**
 * A report as the browser sends it: an error the visitor met, or a sample of web vitals. The events are the
 * last ones the app actor received (oldest first), enough for `npm run replay` to drive the same machine.
 */
export interface ReportBody {
  kind: 'error' | 'vitals';
  buildId: string;
  /** Route name (null for a path that matches none) and path, never a query string or a fragment. */
  route: { name: string | null; path: string };
  /** The app machine's state value when the report was made. */
  state: unknown;
  events: ReportedEvent[];
  /** Older events the ring buffer no longer held: a replay of a report with some starts mid-way. */
  eventsDropped: number;
  /** The page the app booted on when it hydrated a prerendered document (the replay boots the same way). */
  boot: { path: string; title: string | null } | null;
  error?: ReportedError;
  vitals?: ReportedVital[];
  /** When it happened, in milliseconds since the epoch (the visitor's clock). */
  time: number;
}

/** A stored report (GET /api/reports, `npm run reports -- --json`). */
export interface StoredReport extends ReportBody {
  id: string;
  receivedAt: string;
}
