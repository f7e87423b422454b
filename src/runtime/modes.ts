/**
 * The media type checks of a send (§3.2.1), made before anything is created: a part the agent
 * does not take, or a client that accepts none of the forms a scenario offers an artifact or a
 * reply in, is ContentTypeNotSupportedError rather than a task that fails halfway.
 */
import { A2AError } from '../domain/errors.js';
import { accepts } from '../domain/media-type.js';
import type { Message } from '../domain/types.js';
import type { Scenario } from '../scenario/model.js';

/** Every part's media type must be one of the agent's input modes; parts without one pass. */
export function checkInputModes(message: Message, inputModes: readonly string[]): void {
  for (const [i, part] of message.parts.entries()) {
    const type = part.mediaType;
    if (type === undefined || type === '') continue;
    if (!accepts(inputModes, type)) {
      throw new A2AError(
        'ContentTypeNotSupportedError',
        `Failed to accept message.parts[${i}]: media type "${type}" is not one of ${inputModes.join(', ')}.`,
        { metadata: { mediaType: type } },
      );
    }
  }
}

/**
 * The client must accept one variant of each artifact or reply the scenario writes with `variants`,
 * wherever it is in the script: the turn that reaches it may be many steps away. No
 * acceptedOutputModes (or an empty list) accepts anything.
 */
export function checkOutputModes(
  scenario: Scenario,
  acceptedOutputModes: readonly string[] | undefined,
): void {
  if (!acceptedOutputModes?.length) return;
  for (const types of scenario.variantTypes) {
    if (types.some((type) => accepts(acceptedOutputModes, type))) continue;
    throw new A2AError(
      'ContentTypeNotSupportedError',
      `Failed to answer in an accepted media type: scenario "${scenario.id}" offers ${types.join(', ')}, and configuration.acceptedOutputModes accepts only ${acceptedOutputModes.join(', ')}.`,
      {
        metadata: {
          scenario: scenario.id,
          offered: types.join(','),
          accepted: acceptedOutputModes.join(','),
        },
      },
    );
  }
}
