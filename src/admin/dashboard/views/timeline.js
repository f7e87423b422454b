/**
 * The open task's timeline: every event with its seq and clock time; status changes with their
 * message, artifact chunks with their parts, and the messages in and out.
 */
import { badge, byId, h } from './dom.js';
import { clockTime, offset } from './time.js';

export function renderTimeline(/** @type {import('../state.js').OpenTask} */ open) {
  const list = byId('timeline');
  const events = [...open.events.values()].sort((a, b) => a.seq - b.seq);
  const first = events[0];
  /** The chaos faults applied at each event (a drop after it, a duplicate of it), by seq. */
  const faultsAt = new Map();
  for (const fault of open.faults.values()) {
    if (fault.seq === undefined) continue;
    faultsAt.set(fault.seq, [...(faultsAt.get(fault.seq) ?? []), fault.kind]);
  }
  /** Messages already on the timeline: a task snapshot shows only the ones that are new. */
  const shown = new Set();
  list.replaceChildren(
    ...events.map((logged) => {
      const { event } = logged;
      /** @type {(Node | string)[]} */
      const what = [];
      /** @type {(Node | false)[]} */
      const body = [];
      if (event.kind === 'task') {
        what.push(logged.seq === 1 ? 'task created' : 'follow-up', ' ', badge(event.task.status.state));
        for (const message of event.task.history ?? []) {
          if (shown.has(message.messageId)) continue;
          shown.add(message.messageId);
          body.push(messageView(message));
        }
      } else if (event.kind === 'status') {
        what.push('status → ', badge(event.status.state));
        const message = event.status.message;
        if (message && !shown.has(message.messageId)) {
          shown.add(message.messageId);
          body.push(messageView(message));
        }
      } else if (event.kind === 'artifact') {
        const { artifact } = event;
        what.push(`artifact “${artifact.name ?? artifact.artifactId}”`);
        const flags = [event.append && 'append', event.lastChunk && 'last chunk'].filter(Boolean).join(', ');
        if (flags) what.push(' ', h('span', { className: 'flags', text: `(${flags})` }));
        body.push(...artifact.parts.map(partView));
      }
      return h(
        'li',
        { 'data-testid': 'timeline-event', dataset: { seq: logged.seq, kind: event.kind } },
        h(
          'div',
          { className: 'event-head' },
          h('span', { className: 'seq', text: `#${logged.seq}` }),
          h(
            'time',
            { className: 'time', datetime: new Date(logged.atMs).toISOString() },
            clockTime(logged.atMs),
            first !== undefined && logged.seq !== first.seq ? ` (+${offset(logged.atMs - first.atMs)})` : '',
          ),
          h('span', { className: 'what' }, ...what),
          ...(faultsAt.get(logged.seq) ?? []).map((kind) =>
            h('span', { className: 'fault-badge', 'data-testid': 'timeline-fault', text: `fault: ${kind}` }),
          ),
        ),
        ...body,
      );
    }),
  );
  if (!events.length) list.append(h('li', { className: 'none', text: 'No events yet.' }));
}

/** A message in (from the user) or out (from the agent). */
function messageView(/** @type {any} */ message) {
  const direction = message.role === 'user' ? 'in · user' : 'out · agent';
  return h(
    'div',
    { className: 'message', 'data-testid': 'message', dataset: { role: message.role } },
    h('span', { className: 'role', text: direction }),
    ...message.parts.map(partView),
  );
}

function partView(/** @type {any} */ part) {
  if (part.kind === 'text') return h('p', { className: 'part-text', text: part.text });
  if (part.kind === 'data') {
    return h('pre', {
      className: 'part-data',
      'data-testid': 'part-data',
      text: JSON.stringify(part.data, null, 2),
    });
  }
  const name = part.filename ?? part.mediaType ?? 'file';
  if (part.kind === 'url') {
    // Only web links are links: a client may send any URL in a part (javascript: included).
    const link = /^https?:/i.test(part.url)
      ? h('a', { href: part.url, rel: 'noreferrer', target: '_blank', text: part.url })
      : h('code', { text: part.url });
    return h('p', { className: 'part-text' }, `${name}: `, link);
  }
  if (part.kind === 'bytes') {
    const bytes = Math.floor((part.bytes.length * 3) / 4);
    return h('p', { className: 'part-text', text: `${name}: ${bytes} bytes (base64)` });
  }
  return h('pre', { className: 'part-data', text: JSON.stringify(part, null, 2) });
}
