/**
 * Fixed ids of scheduling's demo services and resources (apps/scheduling/src/demo-data.ts seeds them outside
 * production), so that tests and examples name them without reading the service's database.
 */
export const DEMO_SCHEDULING_IDS = {
  services: {
    pharmacistConsultation: '00000000-0000-4000-8000-0000005e0001',
    vaccination: '00000000-0000-4000-8000-0000005e0002',
    walkIn: '00000000-0000-4000-8000-0000005e0003',
  },
  resources: {
    /** Borough High Street Pharmacy (PRM-0002), Europe/London. */
    pharmacist: '00000000-0000-4000-8000-0000005f0001',
    consultationRoom: '00000000-0000-4000-8000-0000005f0002',
    /** Deansgate Walk-in Clinic (PRM-0007), Europe/London: open every day 08:00–20:00. */
    dutyNurse: '00000000-0000-4000-8000-0000005f0003',
    /** Bamburi Health Centre Clinic (PRM-0001), Africa/Nairobi. */
    clinicalOfficer: '00000000-0000-4000-8000-0000005f0004',
  },
} as const;
