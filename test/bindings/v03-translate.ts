/**
 * What the raw v0.3 driver translates, so the conformance cases, written in v1.0 ProtoJSON, run
 * over the v0.3 wire: requests from ProtoJSON to v0.3, results back. Strict about `kind`, so a
 * missing or wrong tag fails the case.
 */

/** A v1.0 ProtoJSON SendMessageRequest, as the cases write it, in v0.3 (text parts only). */
export function toV03SendParams(request: any): Record<string, unknown> {
  const { message, configuration } = request;
  const { returnImmediately, ...rest } = configuration ?? {};
  return {
    message: {
      ...message,
      kind: 'message',
      role: message.role === 'ROLE_USER' ? 'user' : 'agent',
      parts: message.parts.map((part: any) => {
        if (part.text === undefined) throw new Error('the v0.3 driver translates text parts only');
        return { kind: 'text', text: part.text };
      }),
    },
    ...(configuration && {
      configuration: { ...rest, ...(returnImmediately !== undefined && { blocking: !returnImmediately }) },
    }),
  };
}

/** `input-required` → `TASK_STATE_INPUT_REQUIRED`; v0.3 `unknown` is v1.0 UNSPECIFIED. */
const fromV03State = (state: string) =>
  state === 'unknown' ? 'TASK_STATE_UNSPECIFIED' : `TASK_STATE_${state.toUpperCase().replace(/-/g, '_')}`;

export function fromV03Task(task: any): any {
  const { kind, status, artifacts, history, ...rest } = task;
  if (kind !== 'task') throw new Error(`expected a v0.3 Task, got kind ${JSON.stringify(kind)}`);
  return {
    ...rest,
    status: fromV03Status(status),
    ...(artifacts && { artifacts: artifacts.map(fromV03Artifact) }),
    ...(history && { history: history.map(fromV03Message) }),
  };
}

function fromV03Status({ state, message, ...rest }: any): any {
  return { ...rest, state: fromV03State(state), ...(message && { message: fromV03Message(message) }) };
}

export function fromV03Message(message: any): any {
  const { kind, role, parts, ...rest } = message;
  if (kind !== 'message') throw new Error(`expected a v0.3 Message, got kind ${JSON.stringify(kind)}`);
  return { ...rest, role: `ROLE_${role.toUpperCase()}`, parts: parts.map(fromV03Part) };
}

function fromV03Artifact(artifact: any): any {
  return { ...artifact, parts: artifact.parts.map(fromV03Part) };
}

function fromV03Part(part: any): any {
  const metadata = part.metadata && { metadata: part.metadata };
  switch (part.kind) {
    case 'text':
      return { text: part.text, ...metadata };
    case 'file': {
      const { bytes, uri, name, mimeType } = part.file;
      return {
        ...(bytes !== undefined ? { raw: bytes } : { url: uri }),
        ...(name && { filename: name }),
        ...(mimeType && { mediaType: mimeType }),
        ...metadata,
      };
    }
    case 'data': {
      const { data_part_compat: wrapped, ...others } = part.metadata ?? {};
      if (!wrapped) return { data: part.data, ...metadata };
      return { data: part.data.value, ...(Object.keys(others).length && { metadata: others }) };
    }
    default:
      throw new Error(`unknown v0.3 part kind ${JSON.stringify(part.kind)}`);
  }
}

/** One v0.3 stream `result` as a v1.0 StreamResponse; `final` has no v1.0 counterpart. */
export function fromV03StreamResult(result: any): any {
  switch (result.kind) {
    case 'task':
      return { task: fromV03Task(result) };
    case 'message':
      return { message: fromV03Message(result) };
    case 'status-update': {
      const { kind: _kind, final: _final, status, ...rest } = result;
      return { statusUpdate: { ...rest, status: fromV03Status(status) } };
    }
    case 'artifact-update': {
      const { kind: _kind, artifact, ...rest } = result;
      return { artifactUpdate: { ...rest, artifact: fromV03Artifact(artifact) } };
    }
    default:
      throw new Error(`unknown v0.3 stream result kind ${JSON.stringify(result.kind)}`);
  }
}
