/**
 * A problem as `file:line path: message`, without its column: the tests of what a problem says
 * compare these; test/lib/yaml-file.test.ts checks the columns on their own.
 */
import { formatIssue, type ScenarioIssue } from '../../src/scenario/load.js';

export const atLine = (issue: ScenarioIssue): string => formatIssue({ ...issue, column: undefined });
