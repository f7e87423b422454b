import { conformanceCases } from './conformance.cases.js';
import { ALL_DRIVERS } from './drivers.js';

for (const [name, driver] of ALL_DRIVERS) conformanceCases(name, driver);
