/** How anyone gets a key: register (which answers alike for new and taken emails), sign in, create a key. */
export async function signUp(gatewayUrl: string, credentials: { email: string; password: string }): Promise<{ key: string; id: string }> {
  const post = async (path: string, body: unknown, token?: string) => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  await post('/api/v1/auth/register', credentials);
  const { token } = (await post('/api/v1/auth/login', credentials)) as { token: string };
  const { key, id } = (await post('/api/v1/auth/keys', {}, token)) as { key: string; id: string };
  return { key, id };
}
