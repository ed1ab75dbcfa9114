// The install tests alone (`npm run test:install`; .ci/run runs it after `npm test`): the tool packed and installed
// by each route the README gives, into fresh projects, then real commits through the hooks each route wrote.
import { defineConfig } from 'vitest/config';
import { asBundled, shared } from './vitest.config.js';

export default defineConfig({ plugins: [asBundled], test: { ...shared, include: ['test/install/**/*.test.ts'] } });
