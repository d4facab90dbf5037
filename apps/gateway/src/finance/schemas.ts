import { z } from 'zod';
import {
  accountJson,
  categoryJson,
  paymentJson,
  registrationNumberJson,
  statementLineJson,
  studentJson,
  transactionJson,
  uploadedFileJson,
} from '@libs/contracts';

/**
 * What the finance area answers: the one JSON shape of each entity (@libs/contracts, the same as the audit
 * log's `before`/`after`), named as the document's components.
 */

export const transaction = transactionJson.meta({ id: 'Transaction' });
export const payment = paymentJson.meta({
  id: 'Payment',
  description: 'A proof of payment: pending → processed (accepted or rejected) → resolved.',
});
export const account = accountJson.meta({ id: 'Account' });
export const category = categoryJson.meta({ id: 'FinanceCategory' });
export const registrationNumber = registrationNumberJson.meta({ id: 'RegistrationNumber' });
export const student = studentJson.meta({ id: 'Student' });
export const statementLine = statementLineJson.meta({ id: 'StatementLine' });

export const statement = z.object({
  studentId: z.uuid(),
  lines: z.array(statementLine),
  balance: z.int().meta({ description: 'The last line’s balance; 0 when empty.' }),
});

export const uploadedFile = uploadedFileJson.meta({ id: 'UploadedFile' });

export const ids = z.object({ ids: z.array(z.uuid()) });
