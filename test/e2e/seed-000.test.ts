/**
 * The HTTP examples of seed 000 (the A2A task lifecycle), sent with their exact headers and bodies
 * (including `Host: agent.example.com` and no A2A-Version), get responses of the shapes shown there.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import { startSim, type TestSim } from '../helpers/sim.js';

const HEADERS = {
  Host: 'agent.example.com',
  'Content-Type': 'application/a2a+json',
  Authorization: 'Bearer token',
};

const WEATHER_BODY = `{
  "message": {
    "role": "ROLE_USER",
    "parts": [{"text": "What is the weather today?"}],
    "messageId": "msg-uuid"
  }
}`;

const BOOK_BODY = `{
  "message": {
    "role": "ROLE_USER",
    "parts": [{"text": "Book me a flight"}],
    "messageId": "msg-1"
  }
}`;

/** The follow-up as seed 000 writes it; "task-uuid" stands for the id the first answer gave. */
const FOLLOW_UP_BODY = `{
  "message": {
    "taskId": "task-uuid",
    "role": "ROLE_USER",
    "parts": [{"text": "From San Francisco to New York"}],
    "messageId": "msg-2"
  }
}`;

let t: TestSim;
beforeAll(async () => {
  t = await startSim();
});
afterAll(() => t.close());

function post(path: string, body: string): Promise<{ status: number; contentType: string; text: string }> {
  const url = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...HEADERS, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, contentType: res.headers['content-type'] ?? '', text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

it('answers "What is the weather today?" with a completed task and its Weather Report', async () => {
  const res = await t.drive(post('/message:send', WEATHER_BODY));
  expect(res.status).toBe(200);
  expect(res.contentType).toMatch(/^application\/a2a\+json/);
  const { task } = JSON.parse(res.text);
  expect(task).toMatchObject({
    id: expect.any(String),
    contextId: expect.any(String),
    status: { state: 'TASK_STATE_COMPLETED' },
    artifacts: [
      {
        artifactId: expect.any(String),
        name: 'Weather Report',
        parts: [{ text: expect.stringMatching(/^Today will be .+ with a high of \d+°F$/) }],
      },
    ],
  });
});

it('answers "Book me a flight" with an interrupted task, and the follow-up completes it', async () => {
  const first = await t.drive(post('/message:send', BOOK_BODY));
  expect(first.status).toBe(200);
  const { task } = JSON.parse(first.text);
  expect(task).toMatchObject({
    id: expect.any(String),
    status: {
      state: 'TASK_STATE_INPUT_REQUIRED',
      message: {
        role: 'ROLE_AGENT',
        parts: [{ text: 'I need more details. Where would you like to fly from and to?' }],
      },
    },
  });

  const second = await t.drive(post('/message:send', FOLLOW_UP_BODY.replace('task-uuid', task.id)));
  expect(second.status).toBe(200);
  const done = JSON.parse(second.text).task;
  expect(done).toMatchObject({
    id: task.id,
    contextId: task.contextId,
    status: { state: 'TASK_STATE_COMPLETED' },
  });
});

it('answers the follow-up with the literal placeholder "task-uuid" with TaskNotFoundError', async () => {
  const res = await post('/message:send', FOLLOW_UP_BODY);
  expect(res.status).toBe(404);
  expect(JSON.parse(res.text).error.details[0].reason).toBe('TASK_NOT_FOUND');
});

it('streams the report as in the spec example: Task, artifact chunks from "# Climate Change Report", then completed', async () => {
  const res = await t.drive(
    post(
      '/message:stream',
      WEATHER_BODY.replace('What is the weather today?', 'Write a long report on climate change'),
    ),
  );
  expect(res.status).toBe(200);
  expect(res.contentType).toMatch(/^text\/event-stream/);
  const events: any[] = [];
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data)) });
  parser.feed(res.text);
  expect(Object.keys(events[0])).toEqual(['task']);
  expect(events[0].task).toMatchObject({
    id: expect.any(String),
    contextId: expect.any(String),
    status: { state: expect.stringMatching(/^TASK_STATE_/) },
  });
  const firstChunk = events.find((e) => e.artifactUpdate);
  expect(firstChunk.artifactUpdate).toMatchObject({
    taskId: events[0].task.id,
    contextId: events[0].task.contextId,
    artifact: { parts: [{ text: '# Climate Change Report\n\n' }] },
  });
  expect(events.at(-1)).toMatchObject({
    statusUpdate: {
      taskId: events[0].task.id,
      contextId: events[0].task.contextId,
      status: { state: 'TASK_STATE_COMPLETED' },
    },
  });
});
