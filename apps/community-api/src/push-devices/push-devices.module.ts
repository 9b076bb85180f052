import { Module } from '@nestjs/common';
import { ConfiguredCommunityModule, ConfiguredPushModule } from '../configured-domain.module';
import { AdminPushController } from './admin-push.controller';
import { PushDevicesController } from './push-devices.controller';

@Module({
  imports: [ConfiguredCommunityModule, ConfiguredPushModule],
  controllers: [PushDevicesController, AdminPushController],
})
export class PushDevicesModule {}
