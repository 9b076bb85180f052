import { Controller, DynamicModule, Get, Req } from '@nestjs/common';
import { BaseEnv } from '@acme/platform-config';
import { ErrorPresenter } from '@acme/platform-errors';
import { ServiceCoreModule, ServiceDefinition } from '@acme/platform-http';
import { startTestApp, TestApp } from './test-app';

class SampleEnv extends BaseEnv {}

@Controller('whoami')
class WhoAmIController {
  @Get()
  whoAmI(@Req() request: { ip?: string }) {
    return { ip: request.ip };
  }
}

const presenter: ErrorPresenter = (error) => ({ status: error.status, body: { code: error.code } });

const sampleModule = (source: Record<string, string>, service: ServiceDefinition): DynamicModule => ({
  module: class ClientAddressAppModule {},
  imports: [ServiceCoreModule.forRoot({ service, envClass: SampleEnv, source, schema: 'sample', migrations: [] })],
  controllers: [WhoAmIController],
});

/** The one resolution of the client address every service uses (docs/decisions.md#client-addresses-and-the-operator-surface). */
describe.each(['express', 'fastify'] as const)('the client address on %s', (platform) => {
  const service: ServiceDefinition = {
    name: `client-address-${platform}`,
    title: 'Sample',
    description: 'Sample',
    version: '1',
    presenter,
    platform,
  };
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const whoAmI = async (trusted: string | undefined, forwardedFor: string) => {
    app = await startTestApp({
      service,
      module: (env) => sampleModule(env, service),
      env: trusted === undefined ? {} : { TRUSTED_PROXIES: trusted },
    });
    const response = await fetch(`${app.url}/whoami`, { headers: { 'x-forwarded-for': forwardedFor } });
    return ((await response.json()) as { ip: string }).ip;
  };

  it('ignores X-Forwarded-For when no proxy is trusted (the default), even from loopback', async () => {
    expect(await whoAmI(undefined, '203.0.113.7')).toBe('127.0.0.1');
  });

  it('ignores X-Forwarded-For from a peer outside TRUSTED_PROXIES', async () => {
    expect(await whoAmI('10.0.0.0/8, 192.168.0.0/16', '203.0.113.7')).toBe('127.0.0.1');
  });

  it('walks X-Forwarded-For from the right through trusted hops to the first untrusted one', async () => {
    expect(await whoAmI('127.0.0.1/32', '203.0.113.7')).toBe('203.0.113.7');
    expect(await whoAmI('127.0.0.0/8, 10.0.0.0/8', '198.51.100.1, 203.0.113.7, 10.1.2.3')).toBe('203.0.113.7');
  });

  it.each(['10.0.0.0/33', 'not-an-address', '10.0.0.1/8/1', '::1/129'])(
    'refuses to start with TRUSTED_PROXIES=%s, naming the variable',
    async (trusted) => {
      await expect(
        startTestApp({ service, module: (env) => sampleModule(env, service), env: { TRUSTED_PROXIES: trusted } }),
      ).rejects.toThrow('TRUSTED_PROXIES');
    },
  );
});
