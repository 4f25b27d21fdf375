/**
 * The demo API's wire types, each derived from its JSON Schema (./schemas.ts, ./reportSchemas.ts, core/forms.ts) by
 * json-schema-to-ts: no shape is written here. Type-only imports and type exports, nothing else, so the browser
 * bundle can `import type` from this module and gets no runtime code.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { reportBodySchema, storedReportFields } from './reportSchemas.ts';
import type * as schemas from './schemas.ts';

export type PublicUser = FromSchema<typeof schemas.publicUser>;
export type Profile = PublicUser;

/** Amounts (`goal`, `raised`) are whole currency units; `image` is a source path for `/_ipx` or null. */
export type CampaignSummary = FromSchema<typeof schemas.campaignSummary>;
export type CampaignStatus = CampaignSummary['status'];
/** `startsOn` and `endsOn` are ISO dates (`2025-03-01`). */
export type Campaign = FromSchema<typeof schemas.campaign>;

export type ApiErrorBody = FromSchema<typeof schemas.errorBody>;

// Request and response envelopes, one per endpoint.
export type SignInRequest = FromSchema<typeof schemas.signInBody>;
export type SessionResponse = FromSchema<(typeof schemas.sessionResponse)[200]>;
export type SignInResponse = FromSchema<(typeof schemas.signInResponse)[200]>;
export type CampaignListResponse = FromSchema<(typeof schemas.campaignListResponse)[200]>;
export type CampaignResponse = FromSchema<(typeof schemas.campaignResponse)[200]>;
export type ProfileResponse = FromSchema<(typeof schemas.profileResponse)[200]>;
export type ProfileUpdateRequest = FromSchema<typeof schemas.profileUpdateBody>;
/** `POST /api/account`: a new account, signed in (201, with the session cookie). */
export type SignUpRequest = FromSchema<typeof schemas.signUpBody>;
export type SignUpResponse = FromSchema<(typeof schemas.signUpResponse)[201]>;
/** `GET /api/demo-accounts`: the demo accounts this database has and their published passwords (none in production). */
export type DemoAccountsResponse = FromSchema<(typeof schemas.demoAccountsResponse)[200]>;
/** `PUT /api/account/password` (204): every other session of the account ends. */
export type PasswordChangeRequest = FromSchema<typeof schemas.passwordChangeBody>;
/** `DELETE /api/account` (204): the account, its sessions and its drafts and finished campaigns. */
export type AccountDeleteRequest = FromSchema<typeof schemas.accountDeleteBody>;

// Reports from the browser (POST /api/reports; ./reports.ts).

/**
 * A report as the browser sends it: an error the visitor met, or a sample of web vitals. The events are the
 * last ones the app actor received (oldest first), enough for `npm run replay` to drive the same machine.
 */
export type ReportBody = FromSchema<typeof reportBodySchema>;
/** One event the app actor received, as it leaves the browser: its type and an allow-listed payload. */
export type ReportedEvent = ReportBody['events'][number];
/** What a report says about the error the visitor was shown. */
export type ReportedError = NonNullable<ReportBody['error']>;
export type ReportedVital = NonNullable<ReportBody['vitals']>[number];
export type VitalName = ReportedVital['name'];
/** A stored report (GET /api/reports, `npm run reports -- --json`). */
export type StoredReport = ReportBody & FromSchema<typeof storedReportFields>;
