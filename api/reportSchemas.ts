/**
 * The JSON Schemas of reports from the browser (./reports.ts takes, stores and lists them): what a report may
 * hold, as POST /api/reports validates it, and a report as GET /api/reports lists it. Their types are derived in
 * ./types.ts. Pure data: it imports nothing but core/.
 */
import { BUILD_ID_PATTERN, SAFE_TEXT_PATTERN, UNSAFE_TEXT_CLASS } from '../core/untrustedText.ts';

/** The events a report holds at most (the app's ring buffer keeps as many, src/config.ts). */
export const REPORT_MAX_EVENTS = 50;

/**
 * What a browser can measure, in the unit web-vitals reports: LCP, FCP and TTFB are cut off by the page's
 * lifetime in practice (2 minutes is generous), INP by an interaction's, CLS is a unitless sum.
 */
export const VITAL_MAXIMUM = { LCP: 120_000, FCP: 120_000, TTFB: 120_000, INP: 60_000, CLS: 100 } as const;

/** Text a report names: bounded, and nothing a browser would not send (core/untrustedText.ts). */
const safeText = (maxLength: number) => ({ type: 'string', maxLength, pattern: SAFE_TEXT_PATTERN }) as const;

const vitalRange = <const Names extends readonly string[]>(names: Names, maximum: number) =>
  ({
    if: { properties: { name: { enum: names } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords; this object is never awaited.
    then: { properties: { value: { type: 'number', maximum } } },
  }) as const;

const reportBody = {
  type: 'object',
  required: ['kind', 'buildId', 'route', 'state', 'events', 'eventsDropped', 'boot', 'time'],
  additionalProperties: false,
  $defs: {
    // A machine's state value: a state's name, or an object of regions' values.
    stateValue: {
      anyOf: [
        safeText(120),
        {
          type: 'object',
          maxProperties: 16,
          propertyNames: safeText(120),
          additionalProperties: { $ref: '#/$defs/stateValue' },
        },
      ],
    },
  },
  properties: {
    kind: { type: 'string', enum: ['error', 'vitals'] },
    buildId: { type: 'string', minLength: 1, maxLength: 64, pattern: BUILD_ID_PATTERN },
    route: {
      type: 'object',
      required: ['name', 'path'],
      additionalProperties: false,
      properties: {
        name: { type: ['string', 'null'], maxLength: 64, pattern: SAFE_TEXT_PATTERN },
        path: { type: 'string', maxLength: 2048, pattern: `^/[^?#${UNSAFE_TEXT_CLASS}]*$` },
      },
    },
    state: { $ref: '#/$defs/stateValue' },
    events: {
      type: 'array',
      maxItems: REPORT_MAX_EVENTS,
      items: {
        type: 'object',
        required: ['type'],
        maxProperties: 8,
        properties: { type: { ...safeText(160), minLength: 1 } },
        // The event's allow-listed payload (src/platform/reportScrub.ts); said, so the listing keeps it.
        additionalProperties: true,
      },
    },
    eventsDropped: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    boot: {
      type: ['object', 'null'],
      required: ['path', 'title'],
      additionalProperties: false,
      properties: {
        path: { type: 'string', maxLength: 2048, pattern: `^/[^?#${UNSAFE_TEXT_CLASS}]*$` },
        title: { type: ['string', 'null'], maxLength: 300, pattern: SAFE_TEXT_PATTERN },
      },
    },
    error: {
      type: 'object',
      required: ['name', 'message', 'status'],
      additionalProperties: false,
      properties: {
        name: safeText(200),
        message: safeText(2000),
        status: { type: ['integer', 'null'], minimum: 100, maximum: 999 },
      },
    },
    vitals: {
      type: 'array',
      minItems: 1,
      maxItems: 8,
      items: {
        type: 'object',
        required: ['name', 'value', 'rating'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', enum: ['LCP', 'INP', 'CLS', 'TTFB'] },
          value: { type: 'number', minimum: 0 },
          rating: { type: 'string', enum: ['good', 'needs-improvement', 'poor'] },
          attribution: {
            type: 'object',
            maxProperties: 8,
            propertyNames: safeText(64),
            additionalProperties: {
              anyOf: [safeText(300), { type: 'number', minimum: -1e9, maximum: 1e9 }],
            },
          },
        },
        allOf: [
          vitalRange(['LCP', 'FCP', 'TTFB'], VITAL_MAXIMUM.LCP),
          vitalRange(['INP'], VITAL_MAXIMUM.INP),
          vitalRange(['CLS'], VITAL_MAXIMUM.CLS),
        ],
      },
    },
    time: { type: 'integer', minimum: 0, maximum: 8.64e15 },
  },
  // Each kind carries its own detail and not the other's.
  allOf: [
    {
      if: { properties: { kind: { const: 'error' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords; this object is never awaited.
      then: { required: ['error'], properties: { vitals: false } },
    },
    {
      if: { properties: { kind: { const: 'vitals' } } },
      // biome-ignore lint/suspicious/noThenProperty: as above.
      then: { required: ['vitals'], properties: { error: false } },
    },
  ],
} as const;

/**
 * The report schema as its type is read (json-schema-to-ts): it cannot follow the recursive state value, so for
 * the types `state` is any JSON value. Validation and the OpenAPI document have the whole schema.
 */
/** A schema any JSON value matches. */
type AnyJson = Record<never, never>;
type ReportBodyTypes = Omit<typeof reportBody, '$defs' | 'properties'> & {
  readonly properties: Omit<(typeof reportBody)['properties'], 'state'> & { readonly state: AnyJson };
};

/** The report as the browser sends it (ReportBody in ./types.ts). */
export const reportBodySchema: ReportBodyTypes = reportBody;

/** What a stored report has beside the body the browser sent: its id and when it arrived. */
export const storedReportFields = {
  type: 'object',
  required: ['id', 'receivedAt'],
  properties: { id: { type: 'string' }, receivedAt: { type: 'string', format: 'date-time' } },
} as const;

/**
 * A report as listed (GET /api/reports): the body exactly as the browser sent it (reportBodySchema, which the
 * listing checked the shape of without its limits), with storedReportFields.
 */
export const storedReportSchema = {
  ...storedReportFields,
  description:
    'A report exactly as the browser sent it (the body of POST /api/reports), with its id and arrival.',
  additionalProperties: true,
} as const;
