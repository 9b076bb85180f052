import { Module } from '@nestjs/common';
import { AccountsService } from './accounts.service';
import { AppKeysService } from './app-keys.service';
import { AuditService } from './audit.service';
import { IngestService } from './ingest.service';
import { AccountsRepository } from './repositories/accounts.repository';
import { AppKeysRepository } from './repositories/app-keys.repository';
import { ApplicationsRepository } from './repositories/applications.repository';
import { AuditRepository } from './repositories/audit.repository';
import { ErrorEventsRepository } from './repositories/error-events.repository';
import { RuleSetSnapshotsRepository } from './repositories/rule-set-snapshots.repository';
import { RulesRepository } from './repositories/rules.repository';
import { RuleSetCache } from './rule-set.cache';
import { RuleSetStore } from './rule-set.store';
import { RulesService } from './rules.service';

const REPOSITORIES = [
  AccountsRepository,
  AppKeysRepository,
  ApplicationsRepository,
  AuditRepository,
  ErrorEventsRepository,
  RuleSetSnapshotsRepository,
  RulesRepository,
];
const SERVICES = [
  AccountsService,
  AppKeysService,
  AuditService,
  RuleSetStore,
  RuleSetCache,
  RulesService,
  IngestService,
];

/** Needs the app's Postgres connection (DataSource), ReadReplicas and RedisPubSub, all global. */
@Module({
  providers: [...REPOSITORIES, ...SERVICES],
  exports: SERVICES,
})
export class RumModule {}
