import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PushDevice } from './push-device.entity';
import { PushDeviceService } from './push-device.service';
import { PushDeviceRepository } from './repositories/push-device.repository';
import { VapidKeyRepository } from './repositories/vapid-key.repository';
import { PushSettings } from './push.settings';
import { VapidKeyStore } from './vapid-keys';
import { PushSender } from './web-push.sender';

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<PushSettings>()
  .setClassMethodName('forRoot')
  .build();

const REPOSITORIES = [PushDeviceRepository, VapidKeyRepository];
const SERVICES = [PushDeviceService, VapidKeyStore, PushSender];

/**
 * Push devices, VAPID keys and the web push sender. Not global; needs the app's configured `CommunityModule`
 * (Clock), passed in `forRootAsync({ imports: [community], ... })`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PushDevice])],
  providers: [{ provide: PushSettings, useExisting: MODULE_OPTIONS_TOKEN }, ...REPOSITORIES, ...SERVICES],
  exports: [PushSettings, ...SERVICES],
})
export class CommunityPushModule extends ConfigurableModuleClass {}
