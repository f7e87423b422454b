/**
 * `--error-codes`: the HTTP+JSON binding answers with the statuses of the spec's current error table
 * (1.0.1) or of the v1.0.0 release, body `code` and `status` included; JSON-RPC answers both with
 * HTTP 200 and the same code. Over HTTP against real servers, one per profile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TABLE, type A2AErrorType } from '../../src/domain/errors.js';
import { ERROR_CODE_PROFILES, statusOf, type ErrorCodeProfile } from '../../src/domain/error-codes.js';
import { startSim, type TestSim } from '../helpers/sim.js';
import { callJson, getJson, postForStream, postJson, rpc, v1Send, V1_HEADERS } from '../helpers/wire.js';

/** What each profile answers, as the two editions of §5.4 write it. */
const EXPECTED: Record<ErrorCodeProfile, Partial<Record<A2AErrorType, [number, string]>>> = {
  '1.0.1': {
    TaskNotCancelableError: [400, 'FAILED_PRECONDITION'],
    ContentTypeNotSupportedError: [400, 'INVALID_ARGUMENT'],
    InvalidAgentResponseError: [500, 'INTERNAL'],
    PushNotificationNotSupportedError: [400, 'FAILED_PRECONDITION'],
    UnsupportedOperationError: [400, 'FAILED_PRECONDITION'],
    VersionNotSupportedError: [400, 'FAILED_PRECONDITION'],
    TaskNotFoundError: [404, 'NOT_FOUND'],
  },
  '1.0.0': {
    TaskNotCancelableError: [409, 'FAILED_PRECONDITION'],
    ContentTypeNotSupportedError: [415, 'INVALID_ARGUMENT'],
    InvalidAgentResponseError: [502, 'INTERNAL'],
    PushNotificationNotSupportedError: [400, 'UNIMPLEMENTED'],
    UnsupportedOperationError: [400, 'UNIMPLEMENTED'],
    VersionNotSupportedError: [400, 'UNIMPLEMENTED'],
    TaskNotFoundError: [404, 'NOT_FOUND'],
  },
};

describe('statusOf', () => {
  it('gives every error a status under both profiles, differing only where §5.4 changed', () => {
    const differing = (Object.keys(ERROR_TABLE) as A2AErrorType[]).filter(
      (type) => JSON.stringify(statusOf(type, '1.0.0')) !== JSON.stringify(statusOf(type, '1.0.1')),
    );
    expect(differing.sort()).toEqual(
      [
        'ContentTypeNotSupportedError',
        'InvalidAgentResponseError',
        'PushNotificationNotSupportedError',
        'TaskNotCancelableError',
        'UnsupportedOperationError',
        'VersionNotSupportedError',
      ].sort(),
    );
    expect(statusOf('TaskNotCancelableError')).toEqual({ http: 400, grpc: 'FAILED_PRECONDITION' });
  });
});

describe.each(ERROR_CODE_PROFILES)('--error-codes %s over HTTP+JSON', (profile) => {
  let t: TestSim;
  let completed: string;
  const expected = (type: A2AErrorType) => EXPECTED[profile][type]!;
  const expectStatus = (answer: { status: number; body: any }, type: A2AErrorType) => {
    const [http, status] = expected(type);
    expect(answer.status).toBe(http);
    expect(answer.body.error).toMatchObject({ code: http, status });
    expect(answer.body.error.details[0].reason).toBe(ERROR_TABLE[type].reason);
  };

  beforeAll(async () => {
    t = await startSim({
      speed: 0,
      errorCodes: profile,
      push: { enabled: false },
      scenarios: [
        {
          id: 'garbled',
          match: [{ keywords: ['garbled'] }],
          error: { type: 'InvalidAgentResponseError' },
        },
      ],
    });
    const sent = await t.drive(postJson(t, '/message:send', v1Send('What is the weather today?')));
    completed = sent.body.task.id;
  });
  afterAll(() => t.close());

  it('cancelling an ended task: TaskNotCancelableError', async () => {
    expectStatus(await postJson(t, `/tasks/${completed}:cancel`, {}), 'TaskNotCancelableError');
  });

  it('a body in a media type the agent does not read: ContentTypeNotSupportedError', async () => {
    const answer = await callJson(t, 'POST', '/message:send', {
      body: 'a=b',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectStatus(answer, 'ContentTypeNotSupportedError');
  });

  it('an agent answer the simulator cannot vouch for: InvalidAgentResponseError, also before a stream', async () => {
    expectStatus(await t.drive(postJson(t, '/message:send', v1Send('garbled'))), 'InvalidAgentResponseError');
    const stream = await t.drive(postForStream(t, '/message:stream', v1Send('garbled')));
    expectStatus({ status: stream.status, body: await stream.json() }, 'InvalidAgentResponseError');
  });

  it('subscribing to an ended task, by GET and by POST: UnsupportedOperationError', async () => {
    expectStatus(await getJson(t, `/tasks/${completed}:subscribe`), 'UnsupportedOperationError');
    expectStatus(await postJson(t, `/tasks/${completed}:subscribe`, {}), 'UnsupportedOperationError');
  });

  it('push calls with push turned off: PushNotificationNotSupportedError', async () => {
    expectStatus(
      await getJson(t, `/tasks/${completed}/pushNotificationConfigs`),
      'PushNotificationNotSupportedError',
    );
  });

  it('an undeclared A2A-Version: VersionNotSupportedError', async () => {
    expectStatus(
      await getJson(t, `/tasks/${completed}`, { 'A2A-Version': '9.9' }),
      'VersionNotSupportedError',
    );
  });

  it('an unknown task: TaskNotFoundError, the same in both', async () => {
    expectStatus(await getJson(t, '/tasks/nope'), 'TaskNotFoundError');
  });

  it('JSON-RPC: HTTP 200 and the same code whatever the profile', async () => {
    const answer = await rpc(t, 'CancelTask', { id: completed }, { headers: V1_HEADERS });
    expect(answer.status).toBe(200);
    expect(answer.body.error.code).toBe(-32002);
  });
});
