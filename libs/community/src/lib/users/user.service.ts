import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { hashPassword, verifyPassword } from '@acme/platform-auth';
import { RateLimitEnforcer } from '@acme/platform-rate-limiting';
import { CommunitySettings } from '../community.settings';
import { CommunityErrors } from '../community.errors';
import { UserRepository } from '../repositories/user.repository';
import { User } from './user.entity';

export interface SignUpInput {
  email: string;
  password: string;
  name?: string;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** End users of a project. Every method takes the project id; no query crosses projects. */
@Injectable()
export class UserService {
  /** Verified against when the email is unknown, so sign-in takes as long either way. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly users: UserRepository,
    private readonly limits: RateLimitEnforcer,
    private readonly settings: CommunitySettings,
  ) {}

  /**
   * A taken email answers 409 before any hashing: the answer says so anyway, so answering sooner tells nothing
   * more, and duplicates spend no hashing slot. The insert still catches a race between two sign-ups.
   */
  async signUp(projectId: string, input: SignUpInput): Promise<User> {
    if (await this.users.emailExists(projectId, normalizeEmail(input.email))) throw CommunityErrors.emailTaken();
    const passwordHash = await hashPassword(input.password);
    const user = await this.users.insert({
      projectId,
      email: normalizeEmail(input.email),
      passwordHash,
      name: input.name ?? null,
    });
    if (user === 'email-taken') throw CommunityErrors.emailTaken();
    return user;
  }

  /**
   * The user whose email and password match, else 401 `auth/invalid-credentials` (same answer for both
   * cases). Attempts are limited per project and client address (429 `auth/too-many-attempts`).
   */
  async authenticate(projectId: string, email: string, password: string, clientAddress: string): Promise<User> {
    // While Redis is away the attempts are counted per instance (apps/community-api README, dependency failures).
    const decision = await this.limits.decideCredentialLimit('sign-in', {
      key: `community:sign-in:${projectId}:${clientAddress}`,
      windows: [{ limit: this.settings.signInAttemptsPerMinute, windowSeconds: 60 }],
    });
    if (!decision.allowed) throw CommunityErrors.tooManyAttempts(decision);
    const user = await this.users.findWithPasswordHash(projectId, normalizeEmail(email));
    if (!user) {
      this.dummyHash ??= hashPassword('not-a-real-password');
      await verifyPassword(password, await this.dummyHash);
      throw CommunityErrors.invalidCredentials();
    }
    if (!(await verifyPassword(password, user.passwordHash))) throw CommunityErrors.invalidCredentials();
    return user;
  }

  /** The user of this project, or undefined (a user of another project is not found). */
  async findById(projectId: string, userId: string): Promise<User | undefined> {
    return this.users.findById(projectId, userId);
  }

  /** The user of this project, or 404 `user/not-found`; for callers acting for a `userId`. */
  async getById(projectId: string, userId: string): Promise<User> {
    const user = await this.findById(projectId, userId);
    if (!user) throw CommunityErrors.userNotFound();
    return user;
  }

  async exists(projectId: string, userId: string): Promise<boolean> {
    return (await this.findById(projectId, userId)) !== undefined;
  }

  /** Sets `isVerified` inside the caller's transaction. */
  async markVerified(manager: EntityManager, projectId: string, userId: string): Promise<void> {
    await this.users.markVerified(manager, projectId, userId);
  }
}
