import { ApiProperty } from '@nestjs/swagger';
import { SPACE_MEMBER_STATUSES, SpaceMemberStatus } from '@acme/events';

export class CreatedSpaceResponse {
  @ApiProperty() readonly id: string;
  @ApiProperty() readonly projectId: string;
  @ApiProperty() readonly name: string;
}

export class MembershipResponse {
  @ApiProperty() readonly spaceId: string;
  @ApiProperty() readonly userId: string;
  @ApiProperty({ enum: SPACE_MEMBER_STATUSES }) readonly status: SpaceMemberStatus;
}
