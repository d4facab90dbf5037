import { Client } from 'pg';

/** Runs `work` on a connection of its own to the database at `url`, closed afterwards whatever happens. */
export async function withPgClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
