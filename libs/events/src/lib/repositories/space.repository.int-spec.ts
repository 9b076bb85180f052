import { CommunityTestDatabase, startCommunityDatabase } from '../../../test/event-fixtures';
import { EVENTS_MIGRATIONS } from '../../migrations';
import { Space, SpaceMember } from '../space.entity';
import { SpaceRepository } from './space.repository';

describe('SpaceRepository', () => {
  let db: CommunityTestDatabase;
  let spaces: SpaceRepository;
  beforeAll(async () => {
    db = await startCommunityDatabase('events-spaces', [Space, SpaceMember], EVENTS_MIGRATIONS);
    spaces = new SpaceRepository(db.dataSource.getRepository(Space), db.dataSource.getRepository(SpaceMember));
  }, 60000);
  afterAll(async () => db?.close());

  it('upserts memberships and answers whether one is active', async () => {
    const project = await db.project();
    const alice = await db.user(project);
    const space = await spaces.insert(project, 'Climbers');
    expect(await spaces.findInProject(project, space.id)).toMatchObject({ id: space.id, name: 'Climbers' });
    expect(await spaces.upsertMembership(project, space.id, alice, 'pending')).toMatchObject({ status: 'pending' });
    expect(await spaces.isActiveMember(project, space.id, alice)).toBe(false);
    expect(await spaces.upsertMembership(project, space.id, alice, 'active')).toMatchObject({ status: 'active' });
    expect(await spaces.isActiveMember(project, space.id, alice)).toBe(true);
  });

  it('never finds a space or a membership through another project (nor ids that are not UUIDs)', async () => {
    const [projectA, projectB] = [await db.project(), await db.project()];
    const alice = await db.user(projectA);
    const space = await spaces.insert(projectA, 'Runners');
    await spaces.upsertMembership(projectA, space.id, alice, 'active');
    expect(await spaces.findInProject(projectB, space.id)).toBeUndefined();
    expect(await spaces.findInProject(projectA, 'nope')).toBeUndefined();
    expect(await spaces.isActiveMember(projectB, space.id, alice)).toBe(false);
  });
});
