import { MigrationView } from '@acme/document-migration';
import { SuccessMessage } from '../http/envelope';
import { MigrationStatus } from './dto/migration.response.dto';

/**
 * The wire knows four states: a cancelled migration (our extension) reads `failed`, and both the envelope's
 * message and `failureReason` say it was cancelled and by whom (docs/migration-worker.md#states-and-exactly-once-moves).
 */
export function presentMigrationStatus(message: string, view: MigrationView): SuccessMessage<MigrationStatus> {
  if (view.status !== 'cancelled') return { message, data: { ...view, status: view.status } };
  const reason = view.failureReason ?? 'Cancelled through /migrate/cancel.';
  return { message: reason, data: { ...view, status: 'failed', failureReason: reason } };
}
