import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';

export class SigningKeyParams {
  @ApiProperty({ maxLength: 64 })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'kid must be a key id' })
  readonly kid!: string;
}
