import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { communityTable } from '@acme/community-schema';
import { queryRows } from '@acme/platform-persistence';
import type { PushPlatform } from '../device-registration';
import { PushDevice } from '../push-device.entity';

const TABLE = communityTable('push_devices');

export interface DeviceUpsert {
  projectId: string;
  userId: string;
  platform: PushPlatform;
  deviceKey: string;
  p256dh: string | null;
  auth: string | null;
  lastSeenAt: Date;
}

/** Push devices; every statement is scoped to the project. */
@Injectable()
export class PushDeviceRepository {
  constructor(@InjectRepository(PushDevice) private readonly devices: Repository<PushDevice>) {}

  /**
   * One statement: a new device is created for the user, a known one is updated (keys, last seen) and moved to
   * the user if another held it; concurrent upserts cannot duplicate a device. Refused (false, nothing written)
   * when the user already holds `cap` devices other than this one. The count and the write share one snapshot,
   * so one user's simultaneous registrations can pass the cap by at most their number, once
   * (apps/community-api/README.md, "Push devices").
   */
  async upsertWithinCap(device: DeviceUpsert, cap: number): Promise<boolean> {
    // Straight to the pool (a hot route): no TypeORM query runner around the one statement.
    const rows = await queryRows(
      this.devices.manager.connection,
      `INSERT INTO ${TABLE} (project_id, user_id, platform, device_key, p256dh, auth, last_seen_at)
       SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::timestamptz
        WHERE (SELECT count(*) FROM ${TABLE} WHERE project_id = $1 AND user_id = $2 AND device_key <> $4) < $8
       ON CONFLICT (project_id, device_key) DO UPDATE
         SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
             last_seen_at = EXCLUDED.last_seen_at, updated_at = now()
       RETURNING 1`,
      [
        device.projectId,
        device.userId,
        device.platform,
        device.deviceKey,
        device.p256dh,
        device.auth,
        device.lastSeenAt,
        cap,
      ],
    );
    return rows.length === 1;
  }

  /** Whether the user held the device (and it is now gone). */
  async deleteUserDevice(projectId: string, userId: string, deviceKey: string): Promise<boolean> {
    const result = await this.devices.delete({ projectId, userId, deviceKey });
    return Boolean(result.affected);
  }

  listForUser(projectId: string, userId: string): Promise<PushDevice[]> {
    return this.devices.find({ where: { projectId, userId }, order: { createdAt: 'ASC' } });
  }

  async delete(projectId: string, deviceId: string): Promise<void> {
    await this.devices.delete({ projectId, id: deviceId });
  }
}
