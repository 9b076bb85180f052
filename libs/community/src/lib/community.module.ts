import { DynamicModule, Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitingModule } from '@acme/platform-rate-limiting';
import { CallerResolver } from './callers';
import { Clock, SystemClock } from './clock';
import { CommunitySettings } from './community.settings';
import { Project } from './projects/project.entity';
import { ProjectRepository, RefreshTokenRepository, UserRepository } from './repositories';
import { ProjectService } from './projects/project.service';
import { AccessTokenService } from './sessions/access-token.service';
import { RefreshToken } from './sessions/refresh-token.entity';
import { SessionService } from './sessions/session.service';
import { User } from './users/user.entity';
import { UserService } from './users/user.service';

export interface CommunityModuleOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  inject?: any[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  useFactory: (...args: any[]) => CommunitySettings;
}

const REPOSITORIES = [ProjectRepository, UserRepository, RefreshTokenRepository];
const SERVICES = [ProjectService, UserService, AccessTokenService, SessionService, CallerResolver];

/**
 * Projects, end users and sessions. Global, imported once by the app: feature modules (events, spaces, push)
 * inject `ProjectService`, `UserService`, `CallerResolver` and `Clock` directly.
 */
@Module({})
export class CommunityModule {
  static forRootAsync(options: CommunityModuleOptions): DynamicModule {
    return {
      module: CommunityModule,
      global: true,
      imports: [TypeOrmModule.forFeature([Project, User, RefreshToken]), JwtModule.register({}), RateLimitingModule],
      providers: [{ provide: CommunitySettings, inject: options.inject, useFactory: options.useFactory }, { provide: Clock, useClass: SystemClock }, ...REPOSITORIES, ...SERVICES],
      exports: [CommunitySettings, Clock, ...REPOSITORIES, ...SERVICES],
    };
  }
}
