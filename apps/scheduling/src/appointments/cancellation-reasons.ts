/**
 * The codes of FHIR R4's appointment-cancellation-reason value set
 * (http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason): who or what made the appointment
 * not happen. A cancellation names one; "expired" and "released" are kept for holds that ran out or were let go.
 */
export const CANCELLATION_REASONS = [
  'pat', 'pat-crs', 'pat-cpp', 'pat-dec', 'pat-fb', 'pat-lt', 'pat-mt', 'pat-mv', 'pat-preg', 'pat-swl', 'pat-ucp',
  'prov', 'prov-pers', 'prov-dch', 'prov-edu', 'prov-hosp', 'prov-labs', 'prov-mri', 'prov-onc',
  'maint', 'meds-inc', 'other', 'oth-cms', 'oth-err', 'oth-fin', 'oth-im', 'oth-int', 'oth-mu', 'oth-room', 'oth-oerr',
  'oth-swie', 'oth-weath',
] as const;

/** The reason given when a block cancels the appointments under it: the provider is unavailable. */
export const BLOCK_CANCELLATION_REASON = 'prov';
