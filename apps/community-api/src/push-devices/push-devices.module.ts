import { Module } from '@nestjs/common';
import { AdminPushController } from './admin-push.controller';
import { PushDevicesController } from './push-devices.controller';

@Module({ controllers: [PushDevicesController, AdminPushController] })
export class PushDevicesModule {}
