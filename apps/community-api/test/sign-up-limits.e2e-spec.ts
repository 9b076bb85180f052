import { PASSWORD_HASH_CONCURRENCY } from '@acme/platform-auth';
import { waitForRoomInWindow } from '@acme/platform-testing';
import { API, CommunityTestApp, TestProject } from './support/community-app';

const signUpBody = (tag: string) => ({
  email: `${tag}-${Date.now()}-${Math.random()}@example.com`,
  password: 'pw 123456',
});

describe('sign-up is limited per project and client address', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  let other: TestProject;
  beforeAll(async () => {
    t = await CommunityTestApp.start({
      env: {
        SIGN_UPS_PER_ADDRESS_PER_MINUTE: '1000',
        SIGN_UPS_PER_ADDRESS_PER_HOUR: '3',
        TRUSTED_PROXIES: '127.0.0.1',
      },
    });
    project = await t.createProject([]);
    other = await t.createProject([]);
  });
  afterAll(async () => t?.close());

  const signUp = (projectId: string, address: string) =>
    t.request('POST', `${API(projectId)}/auth/sign-up`, {
      body: signUpBody('flood'),
      headers: { 'x-forwarded-for': address },
    });

  it('a sign-up flood from one address is refused with 429 and Retry-After; other addresses and projects are not', async () => {
    await waitForRoomInWindow(3600, 30);
    for (let i = 0; i < 3; i += 1) expect((await signUp(project.id, '203.0.113.20')).status).toBe(201);
    const refused = await signUp(project.id, '203.0.113.20');
    expect(refused).toMatchObject({
      status: 429,
      body: { error: expect.any(String), code: 'request/too-many-requests' },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect((await signUp(project.id, '198.51.100.20')).status).toBe(201);
    expect((await signUp(other.id, '203.0.113.20')).status).toBe(201);
  });

  it('an unknown project answers 404 without spending the budget', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < 5; i += 1) expect((await signUp(unknown, '203.0.113.21')).status).toBe(404);
    expect((await signUp(project.id, '203.0.113.21')).status).toBe(201);
  });
});

describe('password hashing waits in a bounded queue', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  beforeAll(async () => {
    t = await CommunityTestApp.start({ env: { PASSWORD_HASH_MAX_QUEUED: '1' } });
    project = await t.createProject([]);
  });
  afterAll(async () => t?.close());

  it('a burst past the hashing queue answers 503 server/busy with Retry-After at once; a taken email still answers 409', async () => {
    const taken = signUpBody('taken');
    expect((await t.request('POST', `${API(project.id)}/auth/sign-up`, { body: taken })).status).toBe(201);
    const burst = PASSWORD_HASH_CONCURRENCY + 1 + 10;
    const started = performance.now();
    const [fresh, duplicates] = await Promise.all([
      Promise.all(
        Array.from({ length: burst }, () =>
          t.request('POST', `${API(project.id)}/auth/sign-up`, { body: signUpBody('burst') }),
        ),
      ),
      Promise.all(
        Array.from({ length: 5 }, () => t.request('POST', `${API(project.id)}/auth/sign-up`, { body: taken })),
      ),
    ]);
    const busy = fresh.filter((response) => response.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(fresh.filter((response) => response.status === 201).length).toBe(burst - busy.length);
    for (const response of busy) {
      expect(response.body).toEqual({ error: expect.any(String), code: 'server/busy' });
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The duplicate check runs before the hash: a taken email never needs (or waits for) a hashing slot.
    expect(duplicates.map((response) => response.status)).toEqual([409, 409, 409, 409, 409]);
    // Nothing waited unbounded: at most the admitted hashes ran, one slot's queue at a time.
    expect(performance.now() - started).toBeLessThan(10_000);
    // Once the burst is over, sign-up works again.
    expect((await t.request('POST', `${API(project.id)}/auth/sign-up`, { body: signUpBody('after') })).status).toBe(
      201,
    );
  });
});

describe('X-Forwarded-For is believed only from TRUSTED_PROXIES', () => {
  let t: CommunityTestApp;
  let project: TestProject;
  const start = async (trusted?: string) => {
    t = await CommunityTestApp.start({
      env: {
        SIGN_UPS_PER_ADDRESS_PER_MINUTE: '1000',
        SIGN_UPS_PER_ADDRESS_PER_HOUR: '2',
        ...(trusted ? { TRUSTED_PROXIES: trusted } : {}),
      },
    });
    project = await t.createProject([]);
  };
  afterEach(async () => t?.close());

  const signUp = (forwardedFor: string) =>
    t.request('POST', `${API(project.id)}/auth/sign-up`, {
      body: signUpBody('proxy'),
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('by default no hop is trusted: a client claiming other addresses gets no fresh budget', async () => {
    await start();
    await waitForRoomInWindow(3600, 30);
    expect([(await signUp('203.0.113.1')).status, (await signUp('203.0.113.2')).status]).toEqual([201, 201]);
    for (const claimed of ['203.0.113.3', '198.51.100.4', '10.0.0.5, 192.0.2.6'])
      expect((await signUp(claimed)).status).toBe(429);
  });

  it('behind a trusted proxy the client address is the first untrusted hop from the right, so prepended claims change nothing', async () => {
    await start('127.0.0.1/32, ::1/128');
    await waitForRoomInWindow(3600, 30);
    // The proxy appends the address it saw; whatever the client wrote before that is its own claim.
    expect((await signUp('203.0.113.9')).status).toBe(201);
    expect((await signUp('1.1.1.1, 203.0.113.9')).status).toBe(201);
    expect((await signUp('2.2.2.2, 203.0.113.9')).status).toBe(429);
    // Another client behind the same proxy has its own budget.
    expect((await signUp('198.51.100.9')).status).toBe(201);
  });
});
