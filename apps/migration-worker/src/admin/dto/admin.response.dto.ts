import { ApiProperty } from '@nestjs/swagger';

export class CreatedWorkspaceResponse {
  @ApiProperty({ format: 'uuid' }) readonly workspaceId!: string;
  @ApiProperty({ description: 'Shown once; stored hashed' }) readonly apiKey!: string;
  @ApiProperty({ description: 'Shown once; stored hashed' }) readonly authToken!: string;
}

export class CreatedOrganizationResponse {
  @ApiProperty({ format: 'uuid' }) readonly workspaceId!: string;
  @ApiProperty() readonly organizationId!: string;
}

export class OrganizationStatsResponse {
  @ApiProperty({ description: 'Documents in the organization' }) readonly documents!: number;
  @ApiProperty({ description: 'Records of those documents' }) readonly records!: number;
}
