import { appointmentsArea } from './appointments/appointments-area';
import { auditArea } from './audit/audit-area';
import { calendarArea } from './calendar/calendar-area';
import { financeArea } from './finance/finance-area';
import { identityArea } from './identity/identity-area';
import { mailPreferencesArea } from './mail-preferences/mail-preferences-area';
import { platformArea } from './platform/platform-area';
import { referenceArea } from './reference/reference-area';
import { schedulingArea } from './scheduling/scheduling-area';
import { webhooksArea } from './webhooks/webhooks-area';

/**
 * Every area of the API, in the order the OpenAPI document lists them: the gateway routes (app.ts), documents
 * (/openapi.json, /api/v1/metadata) and tests (the access walk and the hostile-input run read /openapi.json)
 * exactly these. A new area is one line here.
 */
export const AREAS = [identityArea, referenceArea, financeArea, appointmentsArea, calendarArea, auditArea, schedulingArea, webhooksArea, mailPreferencesArea, platformArea] as const;
