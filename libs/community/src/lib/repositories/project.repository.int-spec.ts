import { CommunityTestDatabase, startCommunityDatabase } from '../../testing';
import { Project } from '../projects/project.entity';
import { ProjectRepository } from './project.repository';

describe('ProjectRepository', () => {
  let db: CommunityTestDatabase;
  let repository: ProjectRepository;
  beforeAll(async () => {
    db = await startCommunityDatabase('community-projects', [Project]);
    repository = new ProjectRepository(db.dataSource.getRepository(Project));
  }, 60000);
  afterAll(async () => db?.close());

  const insert = (name: string) =>
    repository.insert({
      name,
      bundles: ['push'],
      redirectOrigins: [],
      serviceKeyDigest: `s-${name}`,
      masterKeyDigest: `m-${name}`,
    });

  it('inserts a project and finds it by id; ids that are not UUIDs or unknown find nothing', async () => {
    const project = await insert('one');
    expect(await repository.findById(project.id)).toMatchObject({ id: project.id, name: 'one', bundles: ['push'] });
    expect(await repository.findById('not-a-uuid')).toBeUndefined();
    expect(await repository.findById('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('updates the settings given, of that project only (each project is its own tenant)', async () => {
    const [a, b] = [await insert('a'), await insert('b')];
    expect(await repository.updateSettings(a.id, { bundles: ['spaces', 'files-images'] })).toMatchObject({
      id: a.id,
      bundles: ['spaces', 'files-images'],
      redirectOrigins: [],
    });
    expect(await repository.updateSettings(a.id, { redirectOrigins: ['https://app.example'] })).toMatchObject({
      bundles: ['spaces', 'files-images'],
      redirectOrigins: ['https://app.example'],
    });
    expect(await repository.findById(b.id)).toMatchObject({ bundles: ['push'], redirectOrigins: [] });
    expect(await repository.updateSettings('00000000-0000-4000-8000-000000000000', {})).toBeUndefined();
  });
});
