import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { MaxCodePoints, MinCodePoints } from '@acme/platform-errors';
import { SPACE_MEMBER_STATUSES, SpaceMemberStatus } from '@acme/events';

export class CreateSpaceRequest {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MinCodePoints(1)
  @MaxCodePoints(200)
  readonly name: string;
}

export class SetMembershipRequest {
  @ApiProperty({ enum: SPACE_MEMBER_STATUSES })
  @IsIn(SPACE_MEMBER_STATUSES)
  readonly status: SpaceMemberStatus;
}
