import { ApiProperty } from '@nestjs/swagger';
import type { AppKey, AuditEntry as DomainAuditEntry, AuditPage, IssuedAppKey, NewAccount } from '@acme/rum';
import { unixSeconds } from '../../ingestion-rules/dto/rule.response.dto';

export class CreatedAccountResponse {
  @ApiProperty() readonly account_id!: number;
  @ApiProperty({ description: 'Shown once; stored as a digest' }) readonly app_key!: string;
  @ApiProperty() readonly app_key_id!: number;
}

export class IssuedAppKeyResponse {
  @ApiProperty() readonly app_key_id!: number;
  @ApiProperty({ description: 'Shown once; stored as a digest' }) readonly app_key!: string;
}

export class MaskedAppKey {
  @ApiProperty() readonly app_key_id!: number;
  @ApiProperty({ description: 'The prefix and the last characters only' }) readonly masked_app_key!: string;
  @ApiProperty({ description: 'Unix seconds' }) readonly created_at!: number;
}

export class AppKeyListResponse {
  @ApiProperty({ type: [MaskedAppKey] }) readonly items!: MaskedAppKey[];
}

export class CreatedApplicationResponse {
  @ApiProperty() readonly application_id!: string;
}

export class AccessGrantResponse {
  @ApiProperty() readonly application_id!: string;
  @ApiProperty() readonly account_id!: number;
  @ApiProperty({ enum: ['read', 'write'] }) readonly access!: 'read' | 'write';
}

export class ClientTokenResponse {
  @ApiProperty({ description: 'Shown once; stored as a digest' }) readonly client_token!: string;
}

class AuditedRequest {
  @ApiProperty({ required: false, description: 'Query string, secrets redacted' }) readonly query?: object;
  @ApiProperty({
    required: false,
    description: 'Body as sent (any JSON value), secrets redacted',
    anyOf: [
      { type: 'object' },
      { type: 'array', items: {} },
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
    ],
  })
  readonly body?: unknown;
}

export class AuditEntry {
  @ApiProperty() readonly id!: number;
  @ApiProperty() readonly account_id!: number;
  @ApiProperty() readonly method!: string;
  @ApiProperty() readonly route!: string;
  @ApiProperty({ type: String, nullable: true }) readonly application_id!: string | null;
  @ApiProperty() readonly status!: number;
  @ApiProperty() readonly result!: string;
  @ApiProperty() readonly request_id!: string;
  @ApiProperty({ type: AuditedRequest, nullable: true }) readonly request!: AuditedRequest | null;
  @ApiProperty({ description: 'Unix seconds' }) readonly created_at!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The app key the call was made with' })
  readonly app_key_id!: number | null;
}

export class AuditLogResponse {
  @ApiProperty({ type: [AuditEntry] }) readonly items!: AuditEntry[];
  @ApiProperty({ type: Number, nullable: true, description: 'Pass as `before` for the next page' })
  readonly next_before!: number | null;
}

export const presentCreatedAccount = (account: NewAccount): CreatedAccountResponse => ({
  account_id: account.accountId,
  app_key: account.appKey,
  app_key_id: account.appKeyId,
});

export const presentIssuedAppKey = (key: IssuedAppKey): IssuedAppKeyResponse => ({
  app_key_id: key.id,
  app_key: key.secret,
});

export const presentAppKeys = (keys: AppKey[]): AppKeyListResponse => ({
  items: keys.map((key) => ({
    app_key_id: key.id,
    masked_app_key: key.masked,
    created_at: unixSeconds(key.createdAt),
  })),
});

const presentAuditEntry = (entry: DomainAuditEntry): AuditEntry => ({
  id: entry.id,
  account_id: entry.accountId,
  method: entry.method,
  route: entry.route,
  application_id: entry.applicationId,
  status: entry.status,
  result: entry.result,
  request_id: entry.requestId,
  request: entry.request as AuditedRequest | null,
  created_at: unixSeconds(entry.createdAt),
  app_key_id: entry.appKeyId,
});

export const presentAuditPage = (page: AuditPage): AuditLogResponse => ({
  items: page.items.map(presentAuditEntry),
  next_before: page.nextBefore,
});
