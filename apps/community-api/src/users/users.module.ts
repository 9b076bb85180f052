import { Module } from '@nestjs/common';
import { ConfiguredCommunityModule } from '../configured-domain.module';
import { AuthController } from './auth.controller';

@Module({ imports: [ConfiguredCommunityModule], controllers: [AuthController] })
export class UsersModule {}
