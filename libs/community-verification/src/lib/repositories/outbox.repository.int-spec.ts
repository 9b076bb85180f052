import { CommunityTestDatabase, startCommunityDatabase } from '@acme/community/testing';
import { VERIFICATION_MIGRATIONS } from '../..';
import { OutboxMessage } from '../mail/outbox-message.entity';
import { OutboxRepository } from './outbox.repository';

describe('OutboxRepository', () => {
  let db: CommunityTestDatabase;
  let repository: OutboxRepository;
  beforeAll(async () => {
    db = await startCommunityDatabase('verification-outbox', [OutboxMessage], VERIFICATION_MIGRATIONS);
    repository = new OutboxRepository(db.dataSource.getRepository(OutboxMessage));
  }, 60000);
  afterAll(async () => db?.close());

  it("lists a project's messages newest first, never another project's", async () => {
    const [a, b] = [await db.project(), await db.project()];
    const message = (projectId: string, subject: string) => ({
      projectId,
      to: 'u@example.com',
      subject,
      text: 't',
      html: 'h',
      sentAt: new Date(),
    });
    await repository.insert(message(a, 'first'));
    await repository.insert(message(b, 'other'));
    await repository.insert(message(a, 'second'));
    expect((await repository.listNewest(a, 10)).map((row) => row.subject)).toEqual(['second', 'first']);
    expect((await repository.listNewest(a, 1)).map((row) => row.subject)).toEqual(['second']);
    expect((await repository.listNewest(b, 10)).map((row) => row.subject)).toEqual(['other']);
  });
});
