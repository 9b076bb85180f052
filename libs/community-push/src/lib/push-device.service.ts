import { Injectable } from '@nestjs/common';
import { Clock } from '@acme/community';
import { DeviceRegistration } from './device-registration';
import { PushDevice } from './push-device.entity';
import { PushDeviceRepository } from './repositories/push-device.repository';
import { PushErrors } from './push.errors';

/** Devices one user may hold (each send reaches all of them; apps/community-api/README.md, "Push"). */
export const MAX_DEVICES_PER_USER = 20;

/** Push devices of a project's users; every query is scoped to the project. */
@Injectable()
export class PushDeviceService {
  constructor(
    private readonly devices: PushDeviceRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * One atomic upsert on (project, device key) within the per-user cap: a new device is created for the
   * caller, a known one is updated (keys, last seen) and moved to the caller if another user held it.
   * Concurrent registrations of one device cannot create a duplicate.
   */
  async register(projectId: string, userId: string, registration: DeviceRegistration): Promise<void> {
    const keys = registration.platform === 'web' ? registration.subscription.keys : { p256dh: null, auth: null };
    const device = {
      projectId,
      userId,
      platform: registration.platform,
      deviceKey: registration.deviceKey,
      p256dh: keys.p256dh,
      auth: keys.auth,
      lastSeenAt: this.clock.now(),
    };
    // A re-registration of a device the user holds only updates it; a new one past the cap is refused.
    if (!(await this.devices.upsertWithinCap(device, MAX_DEVICES_PER_USER)))
      throw PushErrors.invalidBody(
        `A user may register at most ${MAX_DEVICES_PER_USER} push devices; deregister one first`,
      );
  }

  /** Removes the caller's device; 404 `push-device/not-found` when the caller holds no such device. */
  async deregister(projectId: string, userId: string, registration: DeviceRegistration): Promise<void> {
    if (!(await this.devices.deleteUserDevice(projectId, userId, registration.deviceKey)))
      throw PushErrors.deviceNotFound();
  }

  listForUser(projectId: string, userId: string): Promise<PushDevice[]> {
    return this.devices.listForUser(projectId, userId);
  }

  async remove(projectId: string, deviceId: string): Promise<void> {
    await this.devices.delete(projectId, deviceId);
  }
}
