/**
 * The app code that docs/examples/retry.test.ts (the README's example) tests: send a message, and on a 429
 * RATE_LIMIT_HIT wait the answer's Retry-After before trying again, at most `attempts` times in all.
 */
export interface Login {
  site: string;
  email: string;
  api_key: string;
}

export async function sendWithRetry(
  login: Login,
  message: Record<string, string>,
  wait = (seconds: number) => new Promise<void>((done) => setTimeout(done, seconds * 1000)),
  attempts = 3,
): Promise<Record<string, unknown>> {
  const authorization = `Basic ${Buffer.from(`${login.email}:${login.api_key}`).toString('base64')}`;
  for (let attempt = 1; ; attempt++) {
    const answer = await fetch(`${login.site}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization },
      body: new URLSearchParams(message),
    });
    if (answer.status !== 429 || attempt === attempts) return (await answer.json()) as Record<string, unknown>;
    await answer.body?.cancel();
    await wait(Number(answer.headers.get('retry-after')));
  }
}
