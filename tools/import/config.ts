import { z } from 'zod';
import { env, loadConfig } from '@libs/config';

const schema = z.object({
  // The reference service's database: the import tool is how data enters it.
  DATABASE_URL: env.url('postgres://postgres@127.0.0.1:5432/reference', ['postgres:', 'postgresql:']),
});

export const readImportConfig = () => loadConfig('import', schema);
