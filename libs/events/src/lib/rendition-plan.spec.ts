import fc from 'fast-check';
import sharp from 'sharp';
import { IMAGE_FITS, MAX_SIZE } from './image-options';
import { planOriginal, planVariant, RENDITION_FLOOR_PIXELS, renditionCost } from './rendition-plan';
import { RenditionPool } from './rendition-pool';

const side = (max: number) => fc.integer({ min: 1, max });

describe('rendition plans (sizes known before decoding)', () => {
  it('never plans a side over 10000 px, whatever the source and box', () => {
    fc.assert(
      fc.property(
        side(100_000),
        side(100_000),
        side(MAX_SIZE),
        side(MAX_SIZE),
        fc.constantFrom(...IMAGE_FITS),
        (sw, sh, w, h, fit) => {
          const source = { width: sw, height: sh };
          for (const plan of [planOriginal(source), planVariant(source, { name: 'v', width: w, height: h, fit })]) {
            expect(plan.width).toBeLessThanOrEqual(MAX_SIZE);
            expect(plan.height).toBeLessThanOrEqual(MAX_SIZE);
            expect(renditionCost(plan)).toBeGreaterThanOrEqual(RENDITION_FLOOR_PIXELS);
          }
        },
      ),
    );
  });

  it('matches what sharp produces with withoutEnlargement', async () => {
    await fc.assert(
      fc.asyncProperty(
        side(300),
        side(300),
        side(400),
        side(400),
        fc.constantFrom(...IMAGE_FITS),
        async (sw, sh, w, h, fit) => {
          const plan = planVariant({ width: sw, height: sh }, { name: 'v', width: w, height: h, fit });
          const source = sharp({ create: { width: sw, height: sh, channels: 3, background: '#808080' } });
          const { info } = await source
            .resize(plan.resize.width, plan.resize.height, { fit: plan.resize.fit, withoutEnlargement: true })
            .png()
            .toBuffer({ resolveWithObject: true });
          expect({ width: info.width, height: info.height }).toEqual({ width: plan.width, height: plan.height });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('RenditionPool', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('runs at most `concurrency` jobs and starts waiting renditions before waiting decodes', async () => {
    const pool = new RenditionPool(2);
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const job = (name: string) => () =>
      new Promise<void>((resolve) => {
        started.push(name);
        gates.set(name, resolve);
      });
    const all = [
      pool.run('decode', job('d1')),
      pool.run('decode', job('d2')),
      pool.run('decode', job('d3')),
      pool.run('rendition', job('r1')),
    ];
    await tick();
    expect(started).toEqual(['d1', 'd2']);
    expect(pool.active).toBe(2);
    expect(pool.waiting).toBe(2);
    gates.get('d1')?.();
    await tick();
    expect(started).toEqual(['d1', 'd2', 'r1']);
    gates.get('d2')?.();
    await tick();
    expect(started).toEqual(['d1', 'd2', 'r1', 'd3']);
    gates.get('r1')?.();
    gates.get('d3')?.();
    await Promise.all(all);
    expect(pool.active).toBe(0);
  });

  it('frees the slot when a job fails', async () => {
    const pool = new RenditionPool(1);
    await expect(pool.run('rendition', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(pool.run('rendition', async () => 'next')).resolves.toBe('next');
    expect(pool.active).toBe(0);
  });
});
