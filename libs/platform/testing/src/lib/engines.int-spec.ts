import { Body, Controller, DynamicModule, Get, Logger, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { PinoLogger } from 'nestjs-pino';
import { symbols } from 'pino';
import { BaseEnv } from '@acme/platform-config';
import { AppError, ErrorPresenter } from '@acme/platform-errors';
import { RateLimitDecision } from '@acme/platform-rate-limiting';
import {
  RateLimit,
  RateLimitGuard,
  RateLimitModule,
  RateLimitPolicy,
  RateLimitTarget,
  rawRequest,
  sendRedirect,
  ServiceCoreModule,
  ServiceDefinition,
  setResponseHeaders,
} from '@acme/platform-http';
import { startTestApp, TestApp } from './test-app';

class SampleEnv extends BaseEnv {}

class EchoRequest {
  @IsString()
  @MaxLength(20)
  readonly text!: string;
}

/** What an app would write: no engine type anywhere, only the kernel's helpers. */
@Controller('sample')
class SampleController {
  private readonly logger = new Logger('Sample');

  @Get('hello/:name')
  hello(@Param('name') name: string, @Req() request: object) {
    return {
      hello: name,
      caller: rawRequest(request as { headers: Record<string, string> }).headers['x-caller'] ?? null,
    };
  }

  @Post('echo')
  echo(@Body() body: EchoRequest) {
    return { text: body.text };
  }

  @Post('logged')
  async logged(@Body() body: EchoRequest) {
    this.logger.log(`parsed ${body.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    this.logger.log(`awaited ${body.text}`);
    return { text: body.text };
  }

  @Get('headers')
  headers(@Res({ passthrough: true }) response: unknown) {
    setResponseHeaders(response, { 'X-Sample': 'yes' });
    return { ok: true };
  }

  @Get('away')
  away(@Res({ passthrough: true }) response: unknown): void {
    sendRedirect(response, 'https://example.com/elsewhere', 302);
  }

  @Get('limited')
  @RateLimit('sample')
  @UseGuards(RateLimitGuard)
  limited() {
    return { ok: true };
  }
}

class SamplePolicy extends RateLimitPolicy {
  target(_name: string, request: unknown): RateLimitTarget {
    const caller = rawRequest(request as { headers: Record<string, string> }).headers['x-caller'];
    return { key: `sample:${caller}`, rule: { tokenBucket: { capacity: 2, refillPerSecond: 0.001 } } };
  }

  refusal(_name: string, decision: RateLimitDecision): Error {
    return new AppError('SLOW_DOWN', 'rate_limited', 'Slow down.', { rateLimit: decision });
  }
}

const presenter: ErrorPresenter = (error) => ({
  status: error.status,
  body: { sample_error: error.code, message: error.message },
});

const sampleModule = (source: Record<string, string>, service: ServiceDefinition): DynamicModule => ({
  module: class SampleAppModule {},
  imports: [
    ServiceCoreModule.forRoot({ service, envClass: SampleEnv, source, schema: 'sample', migrations: [] }),
    RateLimitModule.withPolicy(SamplePolicy),
  ],
  controllers: [SampleController],
});

/** One sample app, the same assertions, on both engines the kernel offers. */
describe.each(['express', 'fastify'] as const)('the service kernel on %s', (platform) => {
  let app: TestApp;
  const service: ServiceDefinition = {
    name: `kernel-sample-${platform}`,
    title: 'Sample',
    description: 'Sample',
    version: '1',
    presenter,
    platform,
  };

  // What the app logs once started, at info, kept here rather than written out: through its root logger and the
  // one PinoLogger falls back to outside a request context (where a line lost its request would go).
  const logged: Array<{ msg: string; req?: { id: string; method: string; url: string } }> = [];
  const writes: jest.SpyInstance[] = [];

  beforeAll(async () => {
    app = await startTestApp({ service, module: (env) => sampleModule(env, service) });
    const outsideRequests = (await app.app.resolve(PinoLogger)).logger;
    for (const logger of new Set([PinoLogger.root, outsideRequests])) {
      logger.level = 'info';
      const stream = (logger as unknown as Record<symbol, { write(line: string): boolean }>)[symbols.streamSym];
      writes.push(jest.spyOn(stream, 'write').mockImplementation((line: string) => logged.push(JSON.parse(line)) > 0));
    }
  });
  afterAll(async () => {
    for (const write of writes) write.mockRestore();
    await app?.close();
  });

  const call = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, { redirect: 'manual', ...init });

  it('routes, reads the Node request through rawRequest and answers JSON with a request id', async () => {
    const response = await call('/sample/hello/ada', { headers: { 'x-caller': 'c1' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ hello: 'ada', caller: 'c1' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('validates bodies and refuses text PostgreSQL cannot hold, in the app error shape', async () => {
    const post = (body: string) =>
      call('/sample/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(await (await post('{"text":"fine"}')).json()).toEqual({ text: 'fine' });
    for (const body of ['{"text":"far too long for the limit here"}', '{"text":"nul\\u0000"}', '{"text":']) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(Object.keys((await response.json()) as object).sort()).toEqual(['message', 'sample_error']);
    }
  });

  it('logs from handlers with the request, after the body is parsed and across awaits, as the completed line does', async () => {
    // The body follows the headers after a pause, so it is parsed from later socket events, as a large one would be.
    const lateBody = (text: string) =>
      new ReadableStream({
        async start(controller) {
          await new Promise((resolve) => setTimeout(resolve, 30));
          controller.enqueue(new TextEncoder().encode(JSON.stringify({ text })));
          controller.close();
        },
      });
    const post = (text: string) =>
      call('/sample/logged', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': `req-${platform}-${text}` },
        body: lateBody(text),
        duplex: 'half',
      } as RequestInit);
    const answers = await Promise.all(['one', 'two'].map(post));
    expect(answers.map((answer) => answer.headers.get('x-request-id'))).toEqual([
      `req-${platform}-one`,
      `req-${platform}-two`,
    ]);
    for (const text of ['one', 'two']) {
      const lines = logged.filter(
        (line) =>
          line.msg.endsWith(` ${text}`) ||
          (line.msg === 'request completed' && line.req?.id === `req-${platform}-${text}`),
      );
      expect(lines.map((line) => [line.msg, line.req])).toEqual(
        [`parsed ${text}`, `awaited ${text}`, 'request completed'].map((msg) => [
          msg,
          { id: `req-${platform}-${text}`, method: 'POST', url: '/sample/logged' },
        ]),
      );
    }
  });

  it('sets headers and redirects through the kernel helpers', async () => {
    expect((await call('/sample/headers')).headers.get('x-sample')).toBe('yes');
    const away = await call('/sample/away');
    expect({ status: away.status, location: away.headers.get('location') }).toEqual({
      status: 302,
      location: 'https://example.com/elsewhere',
    });
  });

  it('limits with @RateLimit: the headers on every answer, then a 429 in the app shape with Retry-After', async () => {
    const caller = { 'x-caller': `limited-${platform}-${Date.now()}` };
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await call('/sample/limited', { headers: caller }));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[0].headers.get('x-ratelimit-limit')).toBe('2');
    expect(answers[1].headers.get('x-ratelimit-remaining')).toBe('0');
    expect(answers[2].headers.get('retry-after')).toBeTruthy();
    expect(await answers[2].json()).toEqual({ sample_error: 'SLOW_DOWN', message: 'Slow down.' });
  });

  it('answers an unknown route in the app error shape', async () => {
    const response = await call('/nowhere');
    expect(response.status).toBe(404);
    expect(Object.keys((await response.json()) as object).sort()).toEqual(['message', 'sample_error']);
  });

  // An unknown path is labelled `unmatched` on Fastify and with Nest's catch-all pattern on Express: bounded either way.
  it('counts request durations under the matched route pattern, never the raw URL', async () => {
    await call('/sample/hello/grace');
    await call('/nowhere/7f3a');
    const text = await (await call('/metrics')).text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/sample\/hello\/:name",status="200"\} [1-9]/,
    );
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="[^"]+",status="404"\} [1-9]/);
    expect(text).not.toContain('grace');
    expect(text).not.toContain('7f3a');
  });
});
