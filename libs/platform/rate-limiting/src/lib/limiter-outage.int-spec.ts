import { createServer, Server, Socket } from 'node:net';
import Redis from 'ioredis';
import { LimiterUnavailableError, RateLimiter } from './rate-limiter';

/** Answers the connection handshake with +OK, then never answers a script: Redis connected but stuck. */
function stuckRedis(): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (chunk) => {
      const text = chunk.toString('latin1');
      if (/EVAL/i.test(text)) return;
      for (const _command of text.matchAll(/^\*\d+\r\n/gm)) socket.write('+OK\r\n');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as { port: number }).port, sockets }),
    ),
  );
}

describe('RateLimiter while Redis is unavailable', () => {
  it('refuses at once when the connection is not ready, and the local fallback still counts', async () => {
    const redis = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      retryStrategy: () => null,
    });
    const limiter = new RateLimiter(redis);
    const started = Date.now();
    await expect(limiter.tokenBucket('k', { capacity: 5, refillPerSecond: 1 })).rejects.toBeInstanceOf(
      LimiterUnavailableError,
    );
    await expect(limiter.fixedWindows('k', [{ limit: 5, windowSeconds: 60 }])).rejects.toBeInstanceOf(
      LimiterUnavailableError,
    );
    expect(Date.now() - started).toBeLessThan(20);
    const windows = [{ limit: 2, windowSeconds: 60 }];
    const decisions = [];
    for (let i = 0; i < 3; i += 1)
      decisions.push(await limiter.fixedWindows('guess', windows, 1, { fallback: 'local' }));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false]);
    expect(decisions[2].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    redis.disconnect();
  });

  it('gives up on a connected Redis that does not answer within the timeout', async () => {
    const { server, port, sockets } = await stuckRedis();
    const redis = new Redis(`redis://127.0.0.1:${port}`, {
      maxRetriesPerRequest: 1,
      enableReadyCheck: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    await redis.connect();
    expect(redis.status).toBe('ready');
    const limiter = new RateLimiter(redis);
    const started = Date.now();
    await expect(limiter.tokenBucket('slow', { capacity: 5, refillPerSecond: 1 }, { timeoutMs: 50 })).rejects.toThrow(
      'within 50 ms',
    );
    await expect(limiter.fixedWindows('slow', [{ limit: 5, windowSeconds: 60 }])).rejects.toThrow('within 100 ms');
    expect(Date.now() - started).toBeLessThan(400);
    redis.disconnect();
    for (const socket of sockets) socket.destroy();
    server.close();
  });
});
