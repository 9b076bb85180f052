import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '@acme/community';
import { DeviceRegistration } from './device-registration';
import { PushDevice } from './push-device.entity';
import { PushErrors } from './push.errors';

/** Push devices of a project's users; every query is scoped to the project. */
@Injectable()
export class PushDeviceService {
  constructor(
    @InjectRepository(PushDevice) private readonly devices: Repository<PushDevice>,
    private readonly clock: Clock,
  ) {}

  /**
   * One atomic upsert on (project, device key): a new device is created for the caller, a known one is
   * updated (keys, last seen) and moved to the caller if another user held it. Concurrent registrations of
   * one device cannot create a duplicate.
   */
  async register(projectId: string, userId: string, registration: DeviceRegistration): Promise<void> {
    const keys = registration.platform === 'web' ? registration.subscription.keys : { p256dh: null, auth: null };
    await this.devices.query(
      `INSERT INTO "community"."push_devices" (project_id, user_id, platform, device_key, p256dh, auth, last_seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (project_id, device_key) DO UPDATE
         SET user_id = EXCLUDED.user_id, platform = EXCLUDED.platform, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth,
             last_seen_at = EXCLUDED.last_seen_at, updated_at = now()`,
      [projectId, userId, registration.platform, registration.deviceKey, keys.p256dh, keys.auth, this.clock.now()],
    );
  }

  /** Removes the caller's device; 404 `push-device/not-found` when the caller holds no such device. */
  async deregister(projectId: string, userId: string, registration: DeviceRegistration): Promise<void> {
    const result = await this.devices.delete({ projectId, userId, deviceKey: registration.deviceKey });
    if (!result.affected) throw PushErrors.deviceNotFound();
  }

  listForUser(projectId: string, userId: string): Promise<PushDevice[]> {
    return this.devices.find({ where: { projectId, userId }, order: { createdAt: 'ASC' } });
  }

  async remove(projectId: string, deviceId: string): Promise<void> {
    await this.devices.delete({ projectId, id: deviceId });
  }
}
