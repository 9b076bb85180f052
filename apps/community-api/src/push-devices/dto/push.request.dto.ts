import { ApiProperty } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, IsUUID } from 'class-validator';
import { CodePointLength } from '@acme/platform-errors';

/** Documentation of the registration body; the route validates it with the domain's parser (push-device/invalid-body). */
export class PushSubscriptionKeysDoc {
  @ApiProperty() readonly p256dh: string;
  @ApiProperty() readonly auth: string;
}

export class PushSubscriptionDoc {
  @ApiProperty() readonly endpoint: string;
  @ApiProperty({ type: PushSubscriptionKeysDoc }) readonly keys: PushSubscriptionKeysDoc;
}

export class RegisterPushDeviceDoc {
  @ApiProperty({ enum: ['ios', 'android', 'web'] }) readonly platform: string;
  @ApiProperty({ required: false, description: 'ios and android' }) readonly token?: string;
  @ApiProperty({ required: false, type: PushSubscriptionDoc, description: 'web' })
  readonly subscription?: PushSubscriptionDoc;
}

export class SendPushRequest {
  @ApiProperty()
  @IsUUID()
  readonly userId: string;

  @ApiProperty()
  @IsString()
  @CodePointLength(1, 200)
  readonly title: string;

  @ApiProperty({ required: false })
  @IsOptional()
  @IsString()
  @CodePointLength(0, 1000)
  readonly body?: string;

  @ApiProperty({ required: false, type: Object })
  @IsOptional()
  @IsObject()
  readonly data?: Record<string, unknown>;
}
