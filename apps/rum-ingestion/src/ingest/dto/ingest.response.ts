import { ApiProperty } from '@nestjs/swagger';
import { enveloped } from '../../http/envelope.dto';

export class IngestOutcomeView {
  @ApiProperty({ description: 'Events stored' }) readonly accepted!: number;
  @ApiProperty({ description: 'Events that matched an enabled rule and were dropped' }) readonly dropped!: number;
}

export const IngestOutcomeResponse = enveloped(IngestOutcomeView);
