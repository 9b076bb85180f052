import { IMAGE_MODES, parseImageOptions } from '@acme/events';
import openapi from '../../../openapi.json';

const schemas = openapi.components.schemas as Record<string, { properties: Record<string, { enum?: string[] }> }>;
const createEvent = schemas['CreateEventRequest']?.properties as unknown as Record<
  string,
  { oneOf: { $ref: string }[]; example: unknown }
>;

describe('image options in the published contract (apps/community-api/openapi.json)', () => {
  it.each(['cover.options', 'gallery.options'])('%s is one schema per mode, told apart by mode', (field) => {
    const modes = createEvent[field]?.oneOf.flatMap(
      ({ $ref }) => schemas[$ref.replace('#/components/schemas/', '')]?.properties['mode']?.enum ?? [],
    );
    expect(modes?.sort()).toEqual([...IMAGE_MODES].sort());
  });

  it.each(['cover.options', 'gallery.options'])("%s's example is accepted as it is", (field) => {
    expect(() => parseImageOptions(createEvent[field]?.example, field)).not.toThrow();
  });
});
