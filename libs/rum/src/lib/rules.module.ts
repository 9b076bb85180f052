import { Module } from '@nestjs/common';
import { AccountsService } from './accounts.service';
import { AuditService } from './audit.service';
import { IngestService } from './ingest.service';
import { RuleSetCache } from './rule-set.cache';
import { RuleSetStore } from './rule-set.store';
import { RulesService } from './rules.service';
import { AppKeysService } from './app-keys.service';

/** Needs the app's Postgres connection (DataSource) and RedisPubSub, both global. */
@Module({
  providers: [AccountsService, AppKeysService, AuditService, RuleSetStore, RuleSetCache, RulesService, IngestService],
  exports: [AccountsService, AppKeysService, AuditService, RuleSetStore, RuleSetCache, RulesService, IngestService],
})
export class RulesModule {}
