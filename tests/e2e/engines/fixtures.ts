import * as fs from 'node:fs';
import { test as base } from '@playwright/test';
import { Reader } from './reader';
import { Driver, type Engine, type Session } from './webdriver';

export interface EngineOptions {
  engine: Engine;
}

interface WorkerFixtures {
  engine: Engine;
  driver: Driver;
  session: Session;
}

/**
 * One driver and one browser session per worker (each worker runs one engine's journeys in
 * turn); every test gets a `reader` on that session and must leave it at the top document.
 */
export const test = base.extend<{ reader: Reader }, WorkerFixtures>({
  engine: ['firefox', { option: true, scope: 'worker' }],
  driver: [
    async ({ engine }, use) => {
      const driver = await Driver.start(engine);
      await use(driver);
      await driver.stop();
    },
    { scope: 'worker' },
  ],
  session: [
    async ({ driver }, use) => {
      const session = await driver.newSession();
      console.log(`${driver.engine}: ${String(session.capabilities.browserName)} ${session.browserVersion}`);
      await use(session);
      await session.close();
    },
    { scope: 'worker' },
  ],
  reader: async ({ session }, use, testInfo) => {
    await session.frame(null);
    await session.setWindowRect(1440, 900);
    await use(new Reader(session, baseUrl()));
    if (testInfo.status !== testInfo.expectedStatus) {
      // What the engine showed when the test failed.
      const file = testInfo.outputPath('failure.png');
      fs.writeFileSync(file, await session.screenshot());
      await testInfo.attach('screenshot', { path: file, contentType: 'image/png' });
    }
  },
});

export function baseUrl(): string {
  const url = process.env.BASE_URL;
  if (!url) {
    throw new Error('BASE_URL is not set: run the cross-engine tests through `cargo xtask test`.');
  }
  return url;
}

export { expect } from '@playwright/test';
