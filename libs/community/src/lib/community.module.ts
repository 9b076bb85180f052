import { ConfigurableModuleBuilder, Module } from '@nestjs/common';
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

const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN } = new ConfigurableModuleBuilder<CommunitySettings>()
  .setClassMethodName('forRoot')
  .build();

const REPOSITORIES = [ProjectRepository, UserRepository, RefreshTokenRepository];
const SERVICES = [ProjectService, UserService, AccessTokenService, SessionService, CallerResolver];

/**
 * Projects, end users and sessions. Not global: the app configures it once (`forRoot`/`forRootAsync`) and every
 * module that injects `ProjectService`, `UserService`, `CallerResolver` or `Clock` imports that same object.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Project, User, RefreshToken]), RateLimitingModule],
  providers: [
    { provide: CommunitySettings, useExisting: MODULE_OPTIONS_TOKEN },
    { provide: Clock, useClass: SystemClock },
    ...REPOSITORIES,
    ...SERVICES,
  ],
  exports: [CommunitySettings, Clock, ...REPOSITORIES, ...SERVICES],
})
export class CommunityModule extends ConfigurableModuleClass {}
