/**
 * Every limit a client meets, in one place: of the API's input, and of how often or how much it may ask. The
 * gateway validates and documents requests from these, and the services that check their input again use the
 * same numbers. Change a limit here and both follow.
 */

/** A whole-number query parameter: its range and the value used when it is absent. */
export interface IntegerRange {
  min: number;
  max: number;
  default: number;
}

/** Any plain text query parameter, unless it says otherwise. */
export const QUERY_TEXT_MAX_LENGTH = 200;
/** The years of a calendar date (YYYY-MM-DD) the API takes: the ledger's dates, scheduling's local dates. */
export const DATE_YEARS = { min: 1900, max: 2999 } as const;
/** The years of the audit log's `from` and `to`: every year four digits write, so `to=9999-12-31` means "until the end". */
export const AUDIT_YEARS = { min: 1900, max: 9999 } as const;
/** A UUID written out: 32 hex digits and 4 hyphens. */
export const UUID_LENGTH = 36;
/** Cursors are opaque to clients; the service that signed one checks it. */
export const CURSOR_MAX_LENGTH = 2048;
/** An Idempotency-Key header: the gateway refuses a longer one, and a service checks it again before storing it. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export const REFERENCE_LIMITS = {
  /** Disease names searched (`n`). */
  diseaseNameMaxLength: 200,
  /** Diseases per page (`b`). */
  diseaseBatch: { min: 1, max: 250, default: 25 },
  /** Dosage entries per page (`b`). */
  dosageBatch: { min: 1, max: 500, default: 250 },
  /** Room for a comma-separated list of search terms (`n=potassium,sodium`). */
  termListMaxLength: 2000,
  /** Terms in one list, and the length of each. */
  maxTerms: 20,
  termMaxLength: 200,
  /** The lists whose page size is fixed: clients cannot change it (docs/decisions/0009). */
  labTestPage: 25,
  drugPage: 50,
  categoryPage: 25,
  conditionPage: 10,
  premisePage: 25,
  /** Food interactions a page of the bulk download reads (a drug's own list is never paged: it has a few). */
  foodInteractionPage: 250,
  /** Concepts one code lookup answers at most (an FDA application names a few drugs, an id a few diseases). */
  codeMatches: 50,
  /** Type-ahead starts at this many characters (`q`): one letter begins a tenth of every vocabulary. */
  suggestMinLength: 2,
  /** Type-ahead suggestions (`limit`). */
  suggestLimit: { min: 1, max: 20, default: 10 },
  /** Concepts of one ValueSet/$expand page (`count`). */
  expandCount: { min: 1, max: 100, default: 20 },
  /** How deep $expand pages (`offset`): a page reads the matches before it too, so depth is bounded. */
  expandOffset: { min: 0, max: 10_000, default: 0 },
} as const satisfies Record<string, number | IntegerRange>;

export const FINANCE_LIMITS = {
  /** Transactions and payments per page (`limit`). */
  page: { min: 1, max: 500, default: 50 },
  /** Items of one bulk create or delete. */
  bulkItems: 1000,
  payee: 200,
  notes: 2000,
  /** Names of accounts and categories. */
  name: 200,
  /** Identifiers from other systems: user ids, registration numbers, programme levels, semesters. */
  idText: 64,
  /** Descriptions of payments and statement lines. */
  description: 500,
  /** A bursar's note on a payment. */
  note: 1000,
  /** Largest |amount| in minor units: what a JSON number carries exactly. */
  maxAbsAmount: Number.MAX_SAFE_INTEGER,
} as const satisfies Record<string, number | IntegerRange>;

/** Files uploaded to be named by a later request: proofs of payment's attachments (docs/decisions/0020). */
export const FILE_LIMITS = {
  /** Largest file: the upload stops being read at one byte more (413). */
  maxBytes: 10 * 1024 * 1024,
  /** Files a payment names. */
  perPayment: 3,
  /** A file's name as the uploader gave it, after sanitising. */
  name: 200,
  /**
   * Largest image a PNG's header (IHDR) may declare, in pixels: a small file that would decode to gigabytes (a
   * decompression bomb) is refused from its header, never decoded. 50 megapixels covers any phone photo and scan.
   */
  maxPixels: 50_000_000,
  /** The size of the chunks a file travels and is stored in. */
  chunkBytes: 64 * 1024,
  /** Hours an uploaded file waits for a payment to name it; then it is deleted. */
  unlinkedHours: 24,
  /** Uploads the gateway streams at once; more wait, unread, for a place (back-pressure, flat memory). */
  concurrentUploads: 16,
} as const satisfies Record<string, number | IntegerRange>;

export const AUDIT_LIMITS = {
  /** Entries per page (`limit`). */
  page: { min: 1, max: 500, default: 50 },
  /** Dead letters moved by one replay (`limit`). */
  replay: { min: 1, max: 10_000, default: 10_000 },
  /** Filters that name an entity, an action or a user. */
  filterMaxLength: 64,
  /** `from` and `to`: a day or a timestamp with offset. */
  instantMaxLength: 40,
  /** Signed checkpoints per page (`limit`). */
  checkpointPage: { min: 1, max: 500, default: 100 },
} as const satisfies Record<string, number | IntegerRange>;

export const SCHEDULING_LIMITS = {
  /** Locations, resources, services, blocks and appointments per page (`limit`). */
  page: { min: 1, max: 500, default: 50 },
  /** Slots (and with explain=true the reasons for the rest) per page: they are small, so a page holds more. */
  slotPage: { min: 1, max: 500, default: 100 },
  /** Names of resources and services. */
  name: 200,
  /** Services a resource offers, and users who staff it. */
  links: 200,
  /** A block's reason. */
  reason: 500,
  /** Times as written: an instant with its offset, a local date (YYYY-MM-DD), an IANA zone name, a local time (HH:MM). */
  instantMaxLength: 40,
  localDateLength: 10,
  zoneNameMaxLength: 64,
  localTimeLength: 5,
  /** Longest block. */
  blockDays: 366,
  /** Appointments a block's 409 names when they are in its way: enough to act on, few enough for the answer. */
  blockOverlapsListed: 20,
  /** How long after it was marked a no-show may be reverted (the student came after all). */
  noShowRevertHours: 24,
  /** Longest range of one slot search. */
  slotRangeDays: 31,
  /**
   * The most resource-days one search's look-ahead for `nextAvailable` reads: the whole two-year horizon for one or
   * two resources, fewer days the more resources a search covers. Without it a reader key could make one request
   * read 24 ranges of 31 days of every resource at a location.
   */
  lookAheadResourceDays: 1_500,
  /** Weekly windows of a schedule (up to 12 a day), and windows of one date's override. */
  weeklyWindows: 7 * 12,
  dateWindows: 12,
  /** A cancellation's free text and an entered-in-error reason. */
  reasonText: 500,
} as const satisfies Record<string, number | IntegerRange>;

/** Subscribable calendar feeds (docs/SCHEDULING.md, "Calendar feeds"). */
export const CALENDAR_FEED_LIMITS = {
  /** Live feeds one user may hold (409 beyond): each is a standing credential, so a few, as with API keys. */
  feedsPerUser: 10,
  /** The window a feed shows: this many days back and ahead of the moment it is read. */
  pastDays: 90,
  futureDays: 365,
  /** Most events in one feed, the nearest to now first: a feed is read again and again, whole, by calendar apps. */
  events: 2_000,
  /** A cancelled appointment stays in the feed (STATUS:CANCELLED) this long after its cancellation, so calendars drop it. */
  cancelledDays: 30,
  /**
   * Reads of one feed URL a minute, per gateway instance (a bucket of this many, refilled over the minute): calendar
   * apps poll every few minutes at most, so a leaked URL flooded by a script meets 429 long before the service feels it.
   */
  readsPerMinute: 6,
} as const satisfies Record<string, number | IntegerRange>;

/** An inclusive range of whole numbers, and the value an omitted field takes (none: the field is required). */
export interface Bounds {
  min: number;
  max: number;
  default?: number;
}

/** A service's shape, in minutes (docs/SCHEDULING.md, "Policies"). */
export const SERVICE_SHAPE_BOUNDS = {
  durationMinutes: { min: 5, max: 1_440 },
  slotStepMinutes: { min: 5, max: 1_440 },
  bufferBeforeMinutes: { min: 0, max: 240 },
  bufferAfterMinutes: { min: 0, max: 240 },
} as const satisfies Record<string, Bounds>;

/** Each field of a service's policy (docs/SCHEDULING.md, "Policies"). */
export const POLICY_BOUNDS = {
  minNoticeMinutes: { min: 0, max: 43_200 },
  horizonDays: { min: 1, max: 730 },
  holdTtlSeconds: { min: 1, max: 3_600 },
  cancelCutoffMinutes: { min: 0, max: 43_200 },
  rescheduleCutoffMinutes: { min: 0, max: 43_200 },
  checkInWindowMinutes: { min: 0, max: 1_440 },
  noShowGraceMinutes: { min: 0, max: 1_440 },
  /**
   * Per-student caps (OWASP API6): without them one student key could hold or book every slot of a resource up to
   * its horizon. Four live appointments of one service cover a weekly series a month ahead; two holds cover
   * comparing times. They came after the other fields, so a request may omit them and gets these.
   */
  maxActivePerStudent: { min: 1, max: 100, default: 4 },
  maxHoldsPerStudent: { min: 1, max: 20, default: 2 },
} as const satisfies Record<string, Bounds>;

/**
 * A policy's reminders: elapsed durations before the start. Whole minutes, from one minute to the longest notice a
 * policy can ask (30 days); three cover "the day before, the hour before, just before". A service that names none
 * gets one the day before, what students of comparable systems expect without asking.
 */
export const REMINDER_LIMITS = {
  perPolicy: 3,
  minMinutes: 1,
  maxMinutes: 43_200,
  default: ['PT24H'],
} as const;

/**
 * The most body an operation that needs no key (register, login) reads: whoever sends it has shown no key, and
 * credentials fit in a few hundred bytes.
 */
export const PUBLIC_BODY_LIMIT_BYTES = 4_096;

export const IDENTITY_LIMITS = {
  /** Users per page of the admin's list. */
  userPage: { min: 1, max: 500, default: 100 },
  emailMaxLength: 254,
  passwordMinLength: 8,
  passwordMaxLength: 128,
  keyNameMaxLength: 100,
  /** The window over which sign-ins and registrations are counted; past a limit, 429 until it ends. */
  throttleWindowMinutes: 15,
  /** Failed sign-ins per account in a window. */
  loginFailuresPerAccount: 5,
  /** Per client address the bar is higher: many people can share one address, but a password sprayer shows up here. */
  loginFailuresPerAddress: 50,
  /**
   * Registrations per client address in a window: each costs a scrypt hash and adds an account, so an unthrottled
   * script could spend the gateway's CPU and fill the users table. A class behind one address still gets a good number.
   */
  registrationsPerAddress: 20,
  /** Password reset requests per client address in a window: each may send a mail, so a script must not send many. */
  resetRequestsPerAddress: 20,
  /** Live keys an account may hold (409 beyond): more is almost always a leak in the making. */
  liveKeys: 20,
  /**
   * Keys an account may create in any 24 hours, revoked ones included (429 beyond): each new key starts with a full
   * rate bucket and a fresh daily quota, so creating and revoking keys in a loop would otherwise lift every limit.
   */
  keysCreatedPerDay: 20,
} as const satisfies Record<string, number | IntegerRange>;

export const MAIL_LIMITS = {
  /** Account mails (verification, reset, "someone tried to register") of one template to one address in an hour. */
  accountMailsPerAddressPerHour: 5,
  /** The gateway's id of an account mail, and the one-time token in its link: printable ASCII up to this long. */
  accountMailIdMaxLength: 128,
  linkTokenMaxLength: 512,
} as const satisfies Record<string, number | IntegerRange>;

export const WEBHOOK_LIMITS = {
  /** Endpoints one user may own (a 409 beyond). */
  endpointsPerUser: 10,
  /** Endpoints and deliveries per page (`limit`). */
  page: { min: 1, max: 100, default: 20 },
  descriptionMaxLength: 500,
  /** An endpoint's URL: room for any real receiver, and a bound on what is stored and logged. */
  urlMaxLength: 2048,
  /** Days an event is kept: how far back `recover` reaches, and how long deliveries and their attempts are listed. */
  retentionDays: 7,
  /** Deliveries of one endpoint in flight at once, across every instance: a slow receiver holds only these. */
  inFlightPerEndpoint: 4,
} as const satisfies Record<string, number | IntegerRange>;
