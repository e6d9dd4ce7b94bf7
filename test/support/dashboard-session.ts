// A dashboard session as a browser gets one: the sign-in form posted with the secret key, its
// cookie kept, and the CSRF token the signed-in page carries.

export interface DashboardSession {
  /** `pairwise_session=…`, for the Cookie header. */
  cookie: string;
  csrf: string;
}

export async function dashboardSession(url: string, secretKey: string): Promise<DashboardSession> {
  const signIn = await fetch(url + '/dashboard/sign-in', {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
    body: new URLSearchParams({ key: secretKey }).toString(),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';', 1)[0]!;
  const page = await (await fetch(url + '/dashboard', { headers: { cookie } })).text();
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(page)?.[1];
  if (csrf === undefined) throw new Error(`signing in to ${url}/dashboard did not give a session (${signIn.status})`);
  return { cookie, csrf };
}
