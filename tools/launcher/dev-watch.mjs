// `npm run dev`: calls `onChange` once per burst of source edits under apps/ and libs/, never two at a time.
import { watch } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './infra.mjs';

const SOURCE = /\.(ts|json)$/;

export function watchSources(onChange, quietMs = 300) {
  let timer;
  let running = false;
  let again = false;
  const run = async () => {
    if (running) return void (again = true);
    running = true;
    try {
      await onChange();
    } finally {
      running = false;
      if (again) {
        again = false;
        void run();
      }
    }
  };
  for (const dir of ['apps', 'libs'])
    watch(join(ROOT, dir), { recursive: true }, (_event, file) => {
      if (!file || !SOURCE.test(file) || file.includes('node_modules')) return;
      clearTimeout(timer);
      timer = setTimeout(run, quietMs);
    });
}
