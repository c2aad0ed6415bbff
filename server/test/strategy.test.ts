import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, registerUser, startServer, type TestServer } from './harness';

const template = (name: string) => ({
  name,
  levels: [
    { dropPercent: '1', multiple: '1' },
    { dropPercent: '2.5', multiple: '2' },
    { dropPercent: '4.75', multiple: '4' },
  ],
  takeProfitPercent: '1.5',
  takeProfitCallbackPercent: '0.3',
  replenishCallbackPercent: '0.2',
  stopLossPercent: null,
  cooldownSeconds: 60,
});

describe.each(BACKENDS)('strategy templates (%s)', (backend) => {
  let server: TestServer;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    server = await startServer(backend);
    alice = (await registerUser(server, { email: 'alice@example.com' })).accessToken;
    bob = (await registerUser(server, { email: 'bob@example.com' })).accessToken;
  });
  afterEach(async () => server.close());

  it('offers the system templates to everyone, read-only', async () => {
    const answer = await server.call('GET', '/api/trade/config-templates', undefined, { token: alice });
    expect(answer.body.code).toBe(0);
    expect(answer.body.data.map((t: { name: string }) => t.name)).toEqual(['conservative', 'balanced', 'aggressive']);
    expect(answer.body.data.every((t: { system: boolean }) => t.system)).toBe(true);
    const balanced = answer.body.data[1];
    expect((await server.call('GET', `/api/strategy/detail/${balanced.id}`, undefined, { token: bob })).body.data.name).toBe('balanced');
    expect((await server.call('POST', '/api/strategy/edit', { id: balanced.id, ...template('mine') }, { token: alice })).body.code).toBe(13001);
    expect((await server.call('POST', '/api/strategy/delete', { id: balanced.id }, { token: alice })).body.code).toBe(13001);
  });

  it('creates, lists, reads, changes and deletes a template of ones own', async () => {
    const added = await server.call('POST', '/api/strategy/add', template('Steady'), { token: alice });
    expect(added.body).toMatchObject({ code: 0, data: { name: 'Steady', system: false, takeProfitPercent: '1.5', stopLossPercent: null } });
    const id = added.body.data.id;
    expect(added.body.data.levels).toEqual(template('x').levels);

    const list = await server.call('GET', '/api/strategy/list?page=1&pageSize=10', undefined, { token: alice });
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id, name: 'Steady' }] });

    const edited = await server.call('POST', '/api/strategy/edit', { id, ...template('Steadier'), stopLossPercent: '20' }, { token: alice });
    expect(edited.body.data).toMatchObject({ name: 'Steadier', stopLossPercent: '20' });
    expect((await server.call('GET', `/api/strategy/detail/${id}`, undefined, { token: alice })).body.data.name).toBe('Steadier');

    expect((await server.call('POST', '/api/strategy/delete', { id }, { token: alice })).body.code).toBe(0);
    expect((await server.call('GET', `/api/strategy/detail/${id}`, undefined, { token: alice })).body.code).toBe(13001);
  });

  it('keeps templates private: another user neither sees nor touches them', async () => {
    const id = (await server.call('POST', '/api/strategy/add', template('Secret'), { token: alice })).body.data.id;
    expect((await server.call('GET', '/api/strategy/list', undefined, { token: bob })).body.data).toEqual({ list: [], total: 0 });
    expect((await server.call('GET', `/api/strategy/detail/${id}`, undefined, { token: bob })).body.code).toBe(13001);
    expect((await server.call('POST', '/api/strategy/edit', { id, ...template('Mine now') }, { token: bob })).body.code).toBe(13001);
    expect((await server.call('POST', '/api/strategy/delete', { id }, { token: bob })).body.code).toBe(13001);
    expect((await server.call('GET', `/api/strategy/detail/${id}`, undefined, { token: alice })).body.data.name).toBe('Secret');
    // The same name is fine for another user.
    expect((await server.call('POST', '/api/strategy/add', template('Secret'), { token: bob })).body.code).toBe(0);
  });

  it('refuses a second template of the same name (13000), whatever its case, and changes nothing', async () => {
    await server.call('POST', '/api/strategy/add', template('Steady'), { token: alice });
    expect((await server.call('POST', '/api/strategy/add', template('STEADY'), { token: alice })).body.code).toBe(13000);
    const other = (await server.call('POST', '/api/strategy/add', template('Other'), { token: alice })).body.data.id;
    expect((await server.call('POST', '/api/strategy/edit', { id: other, ...template('steady') }, { token: alice })).body.code).toBe(13000);
    expect((await server.call('GET', '/api/strategy/list', undefined, { token: alice })).body.data.total).toBe(2);
  });

  it('lists in the order asked (the most recently changed first by default) and refuses an order it does not know', async () => {
    const names = ['Bravo', 'alpha', 'Charlie'];
    const ids: string[] = [];
    for (const name of names) ids.push((await server.call('POST', '/api/strategy/add', template(name), { token: alice })).body.data.id);
    // Alpha changed last.
    expect((await server.call('POST', '/api/strategy/edit', { id: ids[1], ...template('alpha') }, { token: alice })).body.code).toBe(0);
    const listed = async (query: string) =>
      ((await server.call('GET', `/api/strategy/list${query}`, undefined, { token: alice })).body.data.list as { name: string }[]).map((t) => t.name);
    expect(await listed('')).toEqual(['alpha', 'Charlie', 'Bravo']);
    expect(await listed('?sort=createdAt&order=ASC')).toEqual(['Bravo', 'alpha', 'Charlie']);
    expect(await listed('?sort=createdAt&order=DESC&page=2&pageSize=1')).toEqual(['alpha']);
    expect(await listed('?sort=updatedAt&order=ASC')).toEqual(['Bravo', 'Charlie', 'alpha']);
    const refused = await server.call('GET', '/api/strategy/list?sort=id', undefined, { token: alice });
    expect(refused.body).toMatchObject({ code: 10008, data: { field: 'sort' } });
  });

  it('stops at 20 templates per user with 11004', async () => {
    for (let i = 0; i < 20; i++) {
      expect((await server.call('POST', '/api/strategy/add', template(`T${i}`), { token: alice })).body.code).toBe(0);
    }
    const refused = await server.call('POST', '/api/strategy/add', template('T20'), { token: alice });
    expect(refused.body).toMatchObject({ code: 11004, data: { limit: 20 } });
    expect((await server.call('GET', '/api/strategy/list?pageSize=100', undefined, { token: alice })).body.data.total).toBe(20);
  });

  it('refuses ladders that make no sense and malformed numbers', async () => {
    const falling = { ...template('Bad'), levels: [{ dropPercent: '3', multiple: '1' }, { dropPercent: '2', multiple: '1' }] };
    expect((await server.call('POST', '/api/strategy/add', falling, { token: alice })).body).toMatchObject({ code: 10008, message: expect.stringMatching(/increase/) });
    expect((await server.call('POST', '/api/strategy/add', { ...template('Bad'), takeProfitPercent: '1,5' }, { token: alice })).body.code).toBe(10003);
    expect((await server.call('POST', '/api/strategy/add', { ...template('Bad'), takeProfitPercent: 1.5 }, { token: alice })).body.code).toBe(10001);
    expect((await server.call('POST', '/api/strategy/add', { ...template('Bad'), cooldownSeconds: -5 }, { token: alice })).body.code).toBe(10002);
    const tooMany = { ...template('Bad'), levels: Array.from({ length: 31 }, (_, i) => ({ dropPercent: String(i + 1), multiple: '1' })) };
    expect((await server.call('POST', '/api/strategy/add', tooMany, { token: alice })).body.code).toBe(10005);
    expect((await server.call('POST', '/api/strategy/add', { ...template('Bad'), extra: 1 }, { token: alice })).body.code).toBe(10008);
    // A take profit that cannot cover a buy's and a sell's fee: refused with the floor.
    expect((await server.call('POST', '/api/strategy/add', { ...template('Thin'), takeProfitPercent: '0.12', takeProfitCallbackPercent: '0' }, { token: alice })).body).toMatchObject({
      code: 10008,
      message: expect.stringContaining('at least 0.25 %'),
      data: { code: 'take_profit_floor', floor: '0.25' },
    });
    expect((await server.call('GET', '/api/strategy/list', undefined, { token: alice })).body.data.total).toBe(0);
  });

  it('keeps several take-profit targets, the stop loss base and arming, the time stop and the break-even, and refuses them when wrong', async () => {
    const exits = {
      takeProfitTargets: [
        { sharePercent: '50', profitPercent: '1.5', trailing: false },
        { sharePercent: '50', profitPercent: '3', trailing: true },
      ],
      stopLossPercent: '5',
      stopLossBase: 'last_level',
      stopLossAfterLastLevel: true,
      timeStopHours: 48,
      breakEven: true,
    };
    const added = await server.call('POST', '/api/strategy/add', { ...template('Targets'), ...exits }, { token: alice });
    expect(added.body).toMatchObject({ code: 0, data: exits });
    const id = added.body.data.id;
    expect((await server.call('GET', `/api/strategy/detail/${id}`, undefined, { token: alice })).body.data).toMatchObject(exits);
    // A template edited without them sells as before: no exit field is answered.
    const plain = (await server.call('POST', '/api/strategy/edit', { id, ...template('Targets') }, { token: alice })).body.data;
    for (const key of ['takeProfitTargets', 'stopLossBase', 'stopLossAfterLastLevel', 'timeStopHours', 'breakEven']) expect(plain).not.toHaveProperty(key);

    const refused = async (body: object, code: string) => {
      const answer = await server.call('POST', '/api/strategy/edit', { id, ...template('Targets'), ...body }, { token: alice });
      expect(answer.body).toMatchObject({ code: 10008, data: { code } });
    };
    await refused({ takeProfitTargets: [{ sharePercent: '100', profitPercent: '1.5', trailing: false }], breakEven: true }, 'break_even_targets');
    await refused({ takeProfitTargets: [{ sharePercent: '60', profitPercent: '1.5', trailing: false }, { sharePercent: '60', profitPercent: '3', trailing: false }] }, 'targets_share_sum');
    await refused({ takeProfitTargets: [{ sharePercent: '50', profitPercent: '3', trailing: false }, { sharePercent: '50', profitPercent: '2', trailing: false }] }, 'target_profit_increase');
    expect((await server.call('POST', '/api/strategy/edit', { id, ...template('Targets'), timeStopHours: 0 }, { token: alice })).body.code).toBe(10002);
    expect((await server.call('POST', '/api/strategy/edit', { id, ...template('Targets'), stopLossBase: 'first' }, { token: alice })).body.code).not.toBe(0);
    // Nothing refused changed the template.
    expect((await server.call('GET', `/api/strategy/detail/${id}`, undefined, { token: alice })).body.data).not.toHaveProperty('takeProfitTargets');
  });

  it('keeps signal conditions, answers none for a template without them, and refuses wrong ones with their problem, changing nothing', async () => {
    const conditions = {
      start: { mode: 'all', conditions: [{ kind: 'rsi', period: 14, timeframe: '1h', op: 'below', value: '30' }, { mode: 'any', conditions: [{ kind: 'alert' }, { kind: 'price_range', min: null, max: '30000' }] }] },
      close: { mode: 'any', conditions: [{ kind: 'bollinger', period: 20, deviations: '2', timeframe: '4h', band: 'upper' }] },
    };
    const added = await server.call('POST', '/api/strategy/add', { ...template('Signals'), conditions }, { token: alice });
    expect(added.body).toMatchObject({ code: 0, data: { conditions } });
    const id = added.body.data.id;
    expect((await server.call('GET', `/api/strategy/detail/${id}`, undefined, { token: alice })).body.data.conditions).toEqual(conditions);

    const refused = async (body: object, expected: object) => {
      const answer = await server.call('POST', '/api/strategy/edit', { id, ...template('Signals'), ...body }, { token: alice });
      expect(answer.body).toMatchObject({ code: 10008, data: expected });
    };
    await refused({ conditions: { start: { mode: 'all', conditions: [] } } }, { code: 'conditions_count', gate: 'start' });
    await refused({ conditions: { replenish: { mode: 'all', conditions: [{ kind: 'rsi', period: 500, timeframe: '1h', op: 'below', value: '30' }] } } }, { code: 'indicator_period', gate: 'replenish', condition: 1 });
    await refused({ conditions: { start: { mode: 'all', conditions: [{ kind: 'price_range', min: '5', max: '1' }] } } }, { code: 'price_range' });
    // Not a condition at all: the schema refuses it.
    const malformed = await server.call('POST', '/api/strategy/edit', { id, ...template('Signals'), conditions: { start: { mode: 'all', conditions: [{ kind: 'macd' }] } } }, { token: alice });
    expect(malformed.body.code).toBeGreaterThanOrEqual(10000);
    expect(malformed.body.code).toBeLessThan(10009);
    expect((await server.call('GET', `/api/strategy/detail/${id}`, undefined, { token: alice })).body.data.conditions).toEqual(conditions);

    const plain = (await server.call('POST', '/api/strategy/edit', { id, ...template('Signals'), conditions: null }, { token: alice })).body.data;
    expect(plain).not.toHaveProperty('conditions');
  });

  it('needs a signed-in user', async () => {
    expect((await server.call('GET', '/api/strategy/list')).status).toBe(401);
    expect((await server.call('GET', '/api/trade/config-templates')).status).toBe(401);
  });
});
