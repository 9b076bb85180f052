import { CreateRumSchema1763760000000 } from './1763760000000-create-rum-schema';
import { AppKeyManagement1764000000200 } from './1764000000200-app-key-management';
import { PartitionErrorEvents1764100000000 } from './1764100000000-partition-error-events';
import { DomainShapedSnapshots1764200000000 } from './1764200000000-domain-shaped-snapshots';
import { RuleVersionSnapshots1764300000000 } from './1764300000000-rule-version-snapshots';

export {
  CreateRumSchema1763760000000,
  AppKeyManagement1764000000200,
  PartitionErrorEvents1764100000000,
  DomainShapedSnapshots1764200000000,
  RuleVersionSnapshots1764300000000,
};

/** Migrations of the `rum` schema, in order (the app passes them to ServiceCoreModule). */
export const RUM_MIGRATIONS = [
  CreateRumSchema1763760000000,
  AppKeyManagement1764000000200,
  PartitionErrorEvents1764100000000,
  DomainShapedSnapshots1764200000000,
  RuleVersionSnapshots1764300000000,
];
