/** A yargs habit that costs `a2a-sim serve` a fifth of its startup, and how to skip it. */
import type { Argv } from 'yargs';

/** The part of yargs' internals (yargs 18 `usage.js`) that {@link skipHelpCache} replaces. */
interface YargsInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/**
 * After starting an explicitly named command (`a2a-sim serve`, as the Dockerfile runs it), yargs
 * renders that command's whole help text, ~60 ms of cliui and string-width, so that it could show it
 * should the command fail later. Only `showHelp()`/`getHelp()` after the parse read that text, and our
 * `.fail()` prints the error alone, so the rendering is skipped.
 * @note These are yargs internals: where they differ (another yargs), nothing is changed and false is
 * returned; test/cli/help-cache.test.ts notices.
 * @example skipHelpCache(yargs(hideBin(process.argv)))
 */
export function skipHelpCache(cli: Argv): boolean {
  const usage = (cli as unknown as YargsInternals).getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage !== 'function') return false;
  usage.cacheHelpMessage = () => {};
  return true;
}
