/**
 * Features of unreleased A2A drafts the simulator can play, each off unless asked for by name
 * (`--preview generation`): a client written against the released spec sees none of them.
 */

/** `generation`: the v1.1 draft's task generation (§3.2.7; docs/generation.md). */
export const PREVIEWS = Object.freeze(['generation'] as const);
export type Preview = (typeof PREVIEWS)[number];
