import { z } from 'zod';
import { financeApi } from '@libs/contracts';

/** A path that names one entity by its UUID (`/{id}`), under the API's one rule for UUIDs. */
export const byId = (what: string) => z.object({ id: financeApi.uuid.meta({ description: `${what} id.` }) });
