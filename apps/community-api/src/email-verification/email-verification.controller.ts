import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { IncomingHttpHeaders } from 'node:http';
import { Project } from '@acme/community';
import { EmailVerificationService, TOKEN_LENGTH, VerificationErrorCode } from '@acme/community-verification';
import { AppError } from '@acme/platform-errors';
import { sendRedirect } from '@acme/platform-http';
import { Authenticated, ClientAddress, CurrentProject, CurrentUserId, ProjectRoute } from '../auth';
import { CommunityEnv } from '../config/env';
import { COMMUNITY_API_PREFIX } from '../http/api-prefix';
import { SuccessResponse } from '../users/dto/auth.dto';
import { SendVerificationRequest, VerifyEmailLinkQuery, VerifyEmailRequest } from './dto/email-verification.dto';

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
    @Req() request: { protocol: string; headers: IncomingHttpHeaders },
  ): Promise<SuccessResponse> {
    const base = this.env.PUBLIC_URL?.replace(/\/$/, '') ?? `${request.protocol}://${request.headers.host}`;
    await this.verification.send(project, userId, {
      mode: body.mode ?? 'code',
      tokenFormat: body.tokenFormat ?? 'hex',
      tokenLength: body.tokenLength ?? TOKEN_LENGTH.default,
      redirectUrl: body.redirectUrl,
      linkEndpoint: `${base}/api/v6/${project.id}/api/v7/auth/verify-email-link`,
    });
    return { success: true };
  }

  @Post('verify-email')
  @HttpCode(200)
  @ApiOkResponse({ type: SuccessResponse })
  @ProjectRoute()
  async verify(
    @CurrentProject() project: Project,
    @Body() body: VerifyEmailRequest,
    @ClientAddress() address: string,
  ): Promise<SuccessResponse> {
    await this.verification.verify(project.id, body.token, address);
    return { success: true };
  }

  /**
   * Redirects to `redirect` with `?verified=true`, or `verified=false&error=...`, when `redirect` is the URL the
   * token was mailed with; otherwise (no `redirect`, another one, a token we never issued, or too many
   * attempts from this address) answers JSON, so the endpoint never bounces a visitor to a made-up address.
   */
  @Get('verify-email-link')
  @ApiOkResponse({ type: SuccessResponse, description: 'No usable redirect: the outcome as JSON' })
  @ApiResponse({
    status: 302,
    description:
      'Redirect to the issued `redirect` URL with `verified=true`, or `verified=false&error=invalid-or-expired-token`',
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
      await this.verification.verify(project.id, query.token ?? '', address);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failure = error;
    }
    // Over the attempt limit, the token is not even looked up (no free oracle for guessed tokens).
    const limited = failure?.code === VerificationErrorCode.VERIFICATION_TOO_MANY_ATTEMPTS;
    const redirect =
      query.redirect &&
      !limited &&
      (await this.verification.isIssuedRedirect(project.id, query.token ?? '', query.redirect))
        ? query.redirect
        : undefined;
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
