import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { allowedRedirect, Project } from '@acme/community';
import { EmailVerificationService, TOKEN_LENGTH, VerificationErrorCode } from '@acme/community-verification';
import { AppError } from '@acme/platform-errors';
import { sendRedirect } from '@acme/platform-http';
import { Authenticated, ClientAddress, CurrentProject, CurrentUserId, OptionalUserId, ProjectRoute } from '../auth';
import { CommunityEnv, linkBaseUrl } from '../config/env';
import { COMMUNITY_API_PREFIX } from '../http/api-prefix';
import { SuccessResponse } from '../users/dto/auth.response.dto';
import {
  SendVerificationRequest,
  VerifyEmailLinkQuery,
  VerifyEmailRequest,
} from './dto/email-verification.request.dto';

/** send-verification, verify-email and the link endpoint (docs/community-api.md#email-verification). */
@ApiTags('auth')
@Controller(`${COMMUNITY_API_PREFIX}/auth`)
export class EmailVerificationController {
  constructor(
    private readonly verification: EmailVerificationService,
    private readonly env: CommunityEnv,
  ) {}

  @Post('send-verification')
  @HttpCode(200)
  @ApiOkResponse({ type: SuccessResponse })
  @Authenticated(['user'])
  async send(
    @CurrentProject() project: Project,
    @CurrentUserId() userId: string,
    @Body() body: SendVerificationRequest,
  ): Promise<SuccessResponse> {
    const base = linkBaseUrl(this.env);
    await this.verification.send(project, userId, {
      mode: body.mode ?? 'code',
      tokenFormat: body.tokenFormat ?? 'hex',
      tokenLength: body.tokenLength ?? TOKEN_LENGTH.default,
      redirectUrl: body.redirectUrl,
      linkEndpoint: `${base}/api/v6/${project.id}/api/v7/auth/verify-email-link`,
    });
    return { success: true };
  }

  /** Needs no credentials; an end-user token that comes along names whose code this is (as `email` does). */
  @Post('verify-email')
  @HttpCode(200)
  @ApiOkResponse({ type: SuccessResponse })
  @Authenticated(['user'], { optional: true })
  async verify(
    @CurrentProject() project: Project,
    @Body() body: VerifyEmailRequest,
    @OptionalUserId() userId: string | undefined,
    @ClientAddress() address: string,
  ): Promise<SuccessResponse> {
    await this.verification.verify(project.id, body.token, { userId, email: body.email }, address);
    return { success: true };
  }

  /**
   * Redirects to `redirect` with `?verified=true`, or `verified=false&error=...`, when its origin is on the
   * project's allow-list; otherwise (no `redirect`, a foreign one, or too many attempts from this address)
   * answers JSON, so the endpoint never bounces a visitor off the project's own apps. The token names its user.
   */
  @Get('verify-email-link')
  @ApiOkResponse({ type: SuccessResponse, description: 'No allowed redirect: the outcome as JSON' })
  @ApiResponse({
    status: 302,
    description:
      "Redirect to `redirect` (its origin on the project's allow-list) with `verified=true`, or `verified=false&error=invalid-or-expired-token`",
  })
  @ProjectRoute()
  async verifyLink(
    @CurrentProject() project: Project,
    @Query() query: VerifyEmailLinkQuery,
    @ClientAddress() address: string,
    @Res({ passthrough: true }) response: unknown,
  ): Promise<SuccessResponse | void> {
    let failure: AppError | undefined;
    try {
      await this.verification.verify(project.id, query.token ?? '', {}, address);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failure = error;
    }
    // Over the attempt limit the answer is the plain 429, never a redirect.
    const limited = failure?.code === VerificationErrorCode.VERIFICATION_TOO_MANY_ATTEMPTS;
    const redirect = limited ? undefined : allowedRedirect(project, query.redirect);
    if (!redirect) {
      if (failure) throw failure;
      return { success: true };
    }
    const target = new URL(redirect);
    target.searchParams.set('verified', failure ? 'false' : 'true');
    if (failure) target.searchParams.set('error', 'invalid-or-expired-token');
    sendRedirect(response, target.toString(), 302);
  }
}
