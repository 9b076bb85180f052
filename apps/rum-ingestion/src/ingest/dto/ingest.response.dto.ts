import { ApiProperty } from '@nestjs/swagger';
import type { IngestOutcome } from '@acme/rum';
import { enveloped } from '../../http/dto/envelope.response.dto';

export class IngestOutcomeView {
  @ApiProperty({ description: 'Events stored' }) readonly accepted!: number;
  @ApiProperty({ description: 'Events that matched an enabled rule and were dropped' }) readonly dropped!: number;
}

export const IngestOutcomeResponse = enveloped(IngestOutcomeView);

export const presentIngestOutcome = (outcome: IngestOutcome): IngestOutcomeView => ({
  accepted: outcome.accepted,
  dropped: outcome.dropped,
});
