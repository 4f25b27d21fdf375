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
