import { describe, expect, it } from 'vitest';
import { api, type Info, setUpReferenceServer, workspace } from './reference-client.js';

// The reference's /api/bash/bash_events/search takes timestamp__gte and timestamp__lt (pydantic datetimes) beside
// its other filters; shell events carry naive UTC timestamps (its `utc_now()`).
setUpReferenceServer();

async function search(query: string): Promise<{ status: number; items: Info[] }> {
  const { status, json } = await api('GET', `/api/bash/bash_events/search?kind__eq=BashCommand&${query}`);
  return { status, items: (json as { items?: Info[] }).items ?? [] };
}

describe('bash event search by time', () => {
  it('bounds commands by their UTC timestamps, however the bound is spelled, and refuses what is no datetime', async () => {
    for (const command of ['echo first', 'echo second']) {
      const ran = await api('POST', '/api/bash/execute_bash_command', { command, cwd: workspace, timeout: 30 });
      expect(ran.status).toBe(200);
    }
    const all = (await search('')).items;
    const first = all.find((event) => event.command === 'echo first');
    const second = all.find((event) => event.command === 'echo second');
    const at = second?.timestamp as string;
    expect(first?.timestamp as string).not.toBe(at);

    const commands = (items: Info[]) => items.map((event) => event.command).filter((c) => String(c).startsWith('echo'));
    expect(commands((await search(`timestamp__gte=${encodeURIComponent(at)}`)).items)).toEqual(['echo second']);
    expect(commands((await search(`timestamp__lt=${encodeURIComponent(at)}`)).items)).toEqual(['echo first']);
    // The same instant as UTC with a zone, with a + left unencoded (a space once decoded), and two hours east.
    const instant = new Date(`${at.slice(0, 23)}Z`);
    const micros = at.slice(19);
    const east = new Date(instant.getTime() + 2 * 3_600_000).toISOString().slice(0, 19);
    for (const bound of [`${at}Z`, `${at}+00:00`, `${east}${micros}+02:00`]) {
      const found = await search(`timestamp__gte=${bound}`);
      expect({ bound, commands: commands(found.items) }).toEqual({ bound, commands: ['echo second'] });
    }

    for (const bound of ['yesterday', '2024-02-30']) {
      const refused = await search(`timestamp__gte=${bound}`);
      expect({ bound, status: refused.status }).toEqual({ bound, status: 422 });
    }
  });
});

describe('one shell event by id, and clearing them (the reference’s bash_events routes)', () => {
  it('answers an event by id, 404 for an unknown one, and forgets them all on DELETE', async () => {
    const ran = await api('POST', '/api/bash/execute_bash_command', {
      command: 'echo kept',
      cwd: workspace,
      timeout: 30,
    });
    const output = ran.json as Info;
    // execute_bash_command answers the last output with the command's whole output; the event itself keeps its piece.
    const byId = await api('GET', `/api/bash/bash_events/${output.id as string}`);
    expect(byId).toMatchObject({
      status: 200,
      json: { id: output.id, kind: 'BashOutput', command_id: output.command_id },
    });
    const command = (await search('')).items.find((event) => event.id === output.command_id);
    expect((await api('GET', `/api/bash/bash_events/${output.command_id as string}`)).json).toEqual(command);

    const unknown = await api('GET', '/api/bash/bash_events/no-such-event');
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.json)).toContain('no-such-event');

    const kept = (await api('GET', '/api/bash/bash_events/search?limit=100')).json as { items: Info[] };
    const cleared = await api('DELETE', '/api/bash/bash_events');
    expect(cleared).toEqual({ status: 200, json: { cleared_count: kept.items.length } });
    expect(kept.items.length).toBeGreaterThanOrEqual(2);
    expect(((await api('GET', '/api/bash/bash_events/search')).json as { items: Info[] }).items).toEqual([]);
    expect((await api('GET', `/api/bash/bash_events/${output.id as string}`)).status).toBe(404);
  });
});
