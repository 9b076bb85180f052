import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { isUniqueViolation, isUuid } from '@acme/platform-persistence';
import { User } from '../users/user.entity';

export interface NewUser {
  projectId: string;
  email: string;
  passwordHash: string;
  name: string | null;
}

/** End users; every method takes the project id, so no query crosses projects. */
@Injectable()
export class UserRepository {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  /** The new user, or `'email-taken'` when the project already has a user with this (normalised) email. */
  async insert(user: NewUser): Promise<User | 'email-taken'> {
    try {
      return await this.users.save(this.users.create({ ...user, isVerified: false }));
    } catch (error) {
      if (isUniqueViolation(error)) return 'email-taken';
      throw error;
    }
  }

  async emailExists(projectId: string, email: string): Promise<boolean> {
    return this.users.existsBy({ projectId, email });
  }

  /** With `passwordHash` selected (it is not by default). */
  async findWithPasswordHash(projectId: string, email: string): Promise<User | undefined> {
    const user = await this.users
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('u.projectId = :projectId AND u.email = :email', { projectId, email })
      .getOne();
    return user ?? undefined;
  }

  async findById(projectId: string, userId: string): Promise<User | undefined> {
    if (!isUuid(userId)) return undefined;
    return (await this.users.findOneBy({ projectId, id: userId })) ?? undefined;
  }

  /** Inside the caller's transaction. */
  async markVerified(manager: EntityManager, projectId: string, userId: string): Promise<void> {
    await manager.update(User, { projectId, id: userId }, { isVerified: true });
  }
}
