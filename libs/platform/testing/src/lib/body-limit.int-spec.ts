import { Body, CanActivate, Controller, DynamicModule, ExecutionContext, Post, UseGuards } from '@nestjs/common';
import { IsArray, IsString } from 'class-validator';
import { BaseEnv } from '@acme/platform-config';
import { AppError, ErrorPresenter } from '@acme/platform-errors';
import { BodyLimit, rawRequest, ServiceCoreModule, ServiceDefinition } from '@acme/platform-http';
import { startTestApp, TestApp } from './test-app';
import { timedPost } from './timed-post';

class SampleEnv extends BaseEnv {}

class ItemsRequest {
  @IsArray()
  @IsString({ each: true })
  readonly items!: string[];
}

/** Stands for a route's authentication: a guard that reads only headers. */
class KeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const headers = rawRequest(context.switchToHttp().getRequest<{ headers: Record<string, string> }>()).headers;
    if (headers['x-key'] !== 'open-sesame') throw new AppError('NO_KEY', 'unauthorized', 'No key.');
    return true;
  }
}

@Controller('bodies')
class BodiesController {
  @Post('small')
  small(@Body() body: ItemsRequest) {
    return { count: body.items.length };
  }

  @Post('large')
  @UseGuards(KeyGuard)
  @BodyLimit('4mb')
  large(@Body() body: ItemsRequest) {
    return { count: body.items.length };
  }
}

const presenter: ErrorPresenter = (error) => ({
  status: error.status,
  body: { sample_error: error.code, message: error.message },
});

const sampleModule = (source: Record<string, string>, service: ServiceDefinition): DynamicModule => ({
  module: class BodyLimitSampleModule {},
  imports: [ServiceCoreModule.forRoot({ service, envClass: SampleEnv, source, schema: 'sample', migrations: [] })],
  controllers: [BodiesController],
});

/** `{"items":["xxx…",…]}` of about `bytes` bytes. */
const itemsOfSize = (bytes: number) =>
  JSON.stringify({ items: Array.from({ length: Math.ceil(bytes / 1000) }, () => 'x'.repeat(996)) });

describe.each(['express', 'fastify'] as const)('body limits on %s (docs/security.md, API4)', (platform) => {
  let app: TestApp;
  const service: ServiceDefinition = {
    name: `body-limit-sample-${platform}`,
    title: 'Sample',
    description: 'Sample',
    version: '1',
    presenter,
    platform,
  };
  const KEY = { 'x-key': 'open-sesame' };

  beforeAll(async () => {
    app = await startTestApp({ service, module: (env) => sampleModule(env, service) });
  });
  afterAll(async () => app?.close());

  it('parses bodies up to the global 1 MB limit on any route', async () => {
    const answer = await timedPost(`${app.url}/bodies/small`, itemsOfSize(900_000));
    expect([answer.status, answer.body.count]).toEqual([201, 900]);
  });

  it('refuses a body declaring more than 1 MB on a route without @BodyLimit: 413 in the app shape, at once', async () => {
    const answer = await timedPost(`${app.url}/bodies/small`, itemsOfSize(2_000_000));
    expect([answer.status, answer.body.sample_error]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(answer.ms).toBeLessThan(1000);
  });

  it('refuses a chunked body once more than 1 MB has arrived: 413', async () => {
    const answer = await timedPost(`${app.url}/bodies/large`, itemsOfSize(2_000_000), { headers: KEY, chunked: true });
    expect([answer.status, answer.body.sample_error]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('answers an unauthenticated large body from its guard, without reading it (401)', async () => {
    const answer = await timedPost(`${app.url}/bodies/large`, itemsOfSize(3_000_000));
    expect([answer.status, answer.body.sample_error]).toEqual([401, 'NO_KEY']);
  });

  it('reads a large body for an authenticated caller within the route limit, validated as any other', async () => {
    const answer = await timedPost(`${app.url}/bodies/large`, itemsOfSize(3_000_000), { headers: KEY });
    expect([answer.status, answer.body.count]).toEqual([201, 3000]);
    const invalid = await timedPost(`${app.url}/bodies/large`, JSON.stringify({ items: 'x'.repeat(2_000_000) }), {
      headers: KEY,
    });
    expect([invalid.status, invalid.body.sample_error]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('refuses a body over the route limit with 413 before its guard or any read', async () => {
    const answer = await timedPost(`${app.url}/bodies/large`, itemsOfSize(5_000_000));
    expect([answer.status, answer.body.sample_error]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('checks a late-read body for text PostgreSQL cannot hold and for broken JSON (400)', async () => {
    const nul = `{"items":["\\u0000"],"pad":"${'x'.repeat(1_200_000)}"}`;
    const unstorable = await timedPost(`${app.url}/bodies/large`, nul, { headers: KEY });
    expect([unstorable.status, unstorable.body.sample_error]).toEqual([400, 'VALIDATION_FAILED']);
    const broken = await timedPost(`${app.url}/bodies/large`, `{"items":["${'x'.repeat(1_200_000)}"`, { headers: KEY });
    expect([broken.status, broken.body.sample_error]).toEqual([400, 'MALFORMED_BODY']);
  });
});
