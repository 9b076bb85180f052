import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { RateLimit, RateLimitGuard } from '@acme/platform-http';
import { Project, SessionService, toPublicUser, UserService } from '@acme/community';
import { Authenticated, ClientAddress, CurrentProject, CurrentUserId, ProjectRoute } from '../auth';
import { COMMUNITY_API_PREFIX } from '../http/api-prefix';
import { SIGN_UP_LIMIT } from '../http/community-rate-limit.policy';
import { RefreshTokenRequest, SignInRequest, SignUpRequest } from './dto/auth.request.dto';
import { SessionResponse, SuccessResponse, TokensResponse, UserResponse } from './dto/auth.response.dto';

/** End-user sign-up, sign-in and session refresh (docs/community-api.md#end-users-and-sessions). */
@ApiTags('auth')
@Controller(`${COMMUNITY_API_PREFIX}/auth`)
export class AuthController {
  constructor(
    private readonly users: UserService,
    private readonly sessions: SessionService,
  ) {}

  @Post('sign-up')
  @ApiCreatedResponse({ type: SessionResponse })
  @ApiTooManyRequestsResponse({ description: 'Too many sign-ups from this address (Retry-After)' })
  // Below ProjectRoute's guard in order of running: an unknown project answers 404 without spending the budget.
  @RateLimit(SIGN_UP_LIMIT)
  @UseGuards(RateLimitGuard)
  @ProjectRoute()
  async signUp(@CurrentProject() project: Project, @Body() body: SignUpRequest): Promise<SessionResponse> {
    const user = await this.users.signUp(project.id, body);
    return { ...(await this.sessions.start(project.id, user.id)), user: toPublicUser(user) };
  }

  @Post('sign-in')
  @HttpCode(200)
  @ApiOkResponse({ type: SessionResponse })
  @ProjectRoute()
  async signIn(
    @CurrentProject() project: Project,
    @Body() body: SignInRequest,
    @ClientAddress() address: string,
  ): Promise<SessionResponse> {
    const user = await this.users.authenticate(project.id, body.email, body.password, address);
    return { ...(await this.sessions.start(project.id, user.id)), user: toPublicUser(user) };
  }

  @Post('request-new-access-token')
  @HttpCode(200)
  @ApiOkResponse({ type: TokensResponse })
  @ProjectRoute()
  async refresh(@CurrentProject() project: Project, @Body() body: RefreshTokenRequest): Promise<TokensResponse> {
    const { accessToken, refreshToken } = await this.sessions.rotate(project.id, body.refreshToken);
    return { accessToken, refreshToken };
  }

  @Post('sign-out')
  @HttpCode(200)
  @ApiOkResponse({ type: SuccessResponse })
  @ProjectRoute()
  async signOut(@CurrentProject() project: Project, @Body() body: RefreshTokenRequest): Promise<SuccessResponse> {
    await this.sessions.end(project.id, body.refreshToken);
    return { success: true };
  }

  @Get('me')
  @ApiOkResponse({ type: UserResponse })
  @Authenticated(['user'])
  async me(@CurrentProject() project: Project, @CurrentUserId() userId: string): Promise<UserResponse> {
    return toPublicUser(await this.users.getById(project.id, userId));
  }
}
