import { conformanceCases } from './conformance.cases.js';
import { ALL_DRIVERS } from './drivers.js';

for (const { name, factory, unsupported } of ALL_DRIVERS) conformanceCases(name, factory, unsupported);
