import { Writable } from 'node:stream';
import { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { pinoRequestStore } from './pino-request-store';

describe('pinoRequestStore', () => {
  it("is the store nestjs-pino's PinoLogger writes through (an upgrade that moves it fails here)", () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(JSON.parse(String(chunk)))) });
    const requestLogger = pino(sink).child({ req: { id: 'r-1' } });
    const logger = new PinoLogger({});

    pinoRequestStore.run({ logger: requestLogger }, () => logger.info('inside'));

    expect(lines).toEqual([expect.objectContaining({ msg: 'inside', req: { id: 'r-1' } })]);
  });
});
