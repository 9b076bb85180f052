import { ManagementApp, startManagement } from './support';

type Page = { rate_limit_policies: Array<{ id: string; consumer_selector: string }>; next?: string };

describe('rate-limit policy pagination', () => {
  let app: ManagementApp;
  beforeAll(async () => {
    app = await startManagement();
  });
  afterAll(async () => app?.close());

  const create = (selector: string) =>
    app.api('/rate-limit-policies', {
      method: 'POST',
      body: {
        resource: 'oauth_authentication_api',
        consumer: 'client',
        consumer_selector: selector,
        configuration: { action: 'allow' },
      },
    });
  const page = async (query: string): Promise<Page> => {
    const response = await app.api(`/rate-limit-policies?${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  };

  it('has no next on an empty list and on a last page', async () => {
    expect(await page('')).toEqual({ rate_limit_policies: [] });
  });

  it('walks several pages in creation order, each policy exactly once, while policies are added meanwhile', async () => {
    const existing: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      const response = await create(`client_id:page-${i}`);
      existing.push(((await response.json()) as { id: string }).id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    let added = 0;
    do {
      const current = await page(`take=5${cursor ? `&from=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...current.rate_limit_policies.map((p) => p.id));
      pages += 1;
      // Concurrent writers: insert two while the reader is between pages.
      if (added < 6) {
        await Promise.all([create(`client_id:late-${added}`), create(`client_id:late-${added + 1}`)]);
        added += 2;
      }
      if (current.next) expect(current.rate_limit_policies).toHaveLength(5);
      cursor = current.next;
    } while (cursor && pages < 50);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, existing.length)).toEqual(existing);
    // Inserts made during the walk come after every existing policy, so the walk reaches them too.
    expect(seen).toHaveLength(existing.length + added);
  });

  it('walks with a writer inserting concurrently: every policy that existed is seen once, none twice', async () => {
    const before = new Set<string>();
    let cursor: string | undefined;
    do {
      const current = await page(`take=100${cursor ? `&from=${encodeURIComponent(cursor)}` : ''}`);
      current.rate_limit_policies.forEach((p) => before.add(p.id));
      cursor = current.next;
    } while (cursor);
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await create(`client_id:concurrent-${written}`);
        written += 1;
      }
    })();
    const seen: string[] = [];
    try {
      cursor = undefined;
      do {
        const current = await page(`take=3${cursor ? `&from=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...current.rate_limit_policies.map((p) => p.id));
        cursor = current.next;
      } while (cursor && seen.length < before.size + 200);
    } finally {
      writing = false;
      await writer;
    }
    expect(written).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before) expect(seen).toContain(id);
  });

  it('answers next only when another page exists (exact multiple of take)', async () => {
    const all = await page('take=100');
    const total = all.rate_limit_policies.length;
    expect(all.next).toBeUndefined();
    const exact = await page(`take=${total}`);
    expect(exact.next).toBeUndefined();
    const shorter = await page(`take=${total - 1}`);
    expect(shorter.next).toEqual(expect.any(String));
    const last = await page(`take=${total - 1}&from=${encodeURIComponent(shorter.next!)}`);
    expect(last.rate_limit_policies).toHaveLength(1);
    expect(last.next).toBeUndefined();
  });

  it('keeps a cursor valid after the policy it points at is deleted', async () => {
    const first = await page('take=2');
    await app.api(`/rate-limit-policies/${first.rate_limit_policies[1].id}`, { method: 'DELETE' });
    const second = await page(`take=2&from=${encodeURIComponent(first.next!)}`);
    expect(second.rate_limit_policies.map((p) => p.id)).not.toContain(first.rate_limit_policies[1].id);
    expect(second.rate_limit_policies).toHaveLength(2);
  });

  it('defaults take to 50', async () => {
    for (let i = 0; i < 30; i += 1) await create(`client_id:bulk-${i}`);
    const first = await page('');
    expect(first.rate_limit_policies).toHaveLength(50);
    expect(first.next).toEqual(expect.any(String));
  });
});
