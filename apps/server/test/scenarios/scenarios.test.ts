import { afterEach, describe, expect, it } from 'vitest';
import { outline, type ScenarioDriver, type ScenarioExpect, scenarios } from './conversation-scenarios.js';
import { localDriver, remoteDriver } from './scenario-drivers.js';

const assertions: ScenarioExpect = {
  equal: (actual, expected, what) => expect(actual, what).toEqual(expected),
  waitFor: (predicate, what) =>
    expect
      .poll(predicate, { timeout: 60_000, interval: 10, message: `waiting for ${what}` })
      .toBe(true)
      .then(() => undefined),
};

describe.each([
  ['local Conversation', localDriver],
  ['RemoteConversation over a real server', remoteDriver],
])('conversation scenarios: %s', (_name, makeDriver: () => ScenarioDriver) => {
  let driver: ScenarioDriver;
  afterEach(() => driver.close());

  it.each(scenarios.map((scenario) => [scenario.name, scenario] as const))('%s', async (_scenarioName, scenario) => {
    driver = makeDriver();
    const conversation = await driver.start({
      script: scenario.script,
      ...(scenario.confirmationPolicy === undefined ? {} : { confirmationPolicy: scenario.confirmationPolicy }),
    });
    await scenario.play(conversation, assertions);
    expect(outline(await conversation.events())).toEqual(scenario.outline);
  });
});
