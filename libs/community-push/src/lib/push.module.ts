import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PushDevice } from './push-device.entity';
import { PushDeviceService } from './push-device.service';
import { PushDeviceRepository } from './repositories/push-device.repository';
import { VapidKeyRepository } from './repositories/vapid-key.repository';
import { PushSettings } from './push.settings';
import { VapidKeyStore } from './vapid-keys';
import { PushSender } from './web-push.sender';

export interface PushModuleOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inject?: any[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => PushSettings;
}

const REPOSITORIES = [PushDeviceRepository, VapidKeyRepository];
const SERVICES = [PushDeviceService, VapidKeyStore, PushSender];

/** Push devices, VAPID keys and the web push sender; global, needs the global `CommunityModule` (Clock). */
@Module({})
export class CommunityPushModule {
  static forRootAsync(options: PushModuleOptions): DynamicModule {
    return {
      module: CommunityPushModule,
      global: true,
      imports: [TypeOrmModule.forFeature([PushDevice])],
      providers: [{ provide: PushSettings, inject: options.inject, useFactory: options.useFactory }, ...REPOSITORIES, ...SERVICES],
      exports: [PushSettings, ...SERVICES],
    };
  }
}
