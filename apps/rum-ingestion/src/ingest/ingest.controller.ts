import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags, ApiSecurity } from '@nestjs/swagger';
import { BodyLimit, Enveloped, OpaqueBody } from '@acme/platform-http';
import { IngestService, type ClientTokenTarget } from '@acme/rum';
import { ClientTokenGuard } from '../auth/client-token.guard';
import { IngestTarget } from '../http/request-context';
import { IngestErrorsRequest } from './dto/ingest.request.dto';
import { IngestOutcomeResponse, IngestOutcomeView, presentIngestOutcome } from './dto/ingest.response.dto';
import { IngestQuota } from './ingest-quota';

@ApiTags('ingest')
@ApiSecurity('clientToken')
@Enveloped()
@UseGuards(ClientTokenGuard)
@Controller('rum/ingest')
export class IngestController {
  constructor(
    private readonly ingest: IngestService,
    private readonly quota: IngestQuota,
  ) {}

  @Post('errors')
  @HttpCode(200)
  // Events are stored as sent, with unstorable text replaced (docs/rum-ingestion.md), not refused.
  @OpaqueBody()
  // 1,000 events per batch fit comfortably; read only once the client token is accepted (docs/security.md, API4).
  @BodyLimit('5mb')
  @ApiOperation({
    summary: 'Ingest 1–1,000 error events; those matching an enabled rule are dropped → {accepted, dropped}',
  })
  @ApiBody({ type: IngestErrorsRequest })
  @ApiOkResponse({ type: IngestOutcomeResponse })
  async errors(
    @IngestTarget() target: ClientTokenTarget,
    @Body() body: IngestErrorsRequest,
    @Req() request: { headers: Record<string, string | string[] | undefined> },
  ): Promise<IngestOutcomeView> {
    // The body limit already bounds it; a chunked body without a length counts as its events' JSON.
    const length = Number(request.headers['content-length']);
    const bytes = Number.isFinite(length) && length > 0 ? length : Buffer.byteLength(JSON.stringify(body.events));
    await this.quota.take(target.applicationId, body.events.length, bytes);
    return presentIngestOutcome(await this.ingest.ingest(target.applicationId, target.ruleSetVersion, body.events));
  }
}
