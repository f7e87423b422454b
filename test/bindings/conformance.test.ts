import { conformanceCases } from './conformance.cases.js';
import { startSim } from '../helpers/sim.js';
import { ALL_DRIVERS } from './all-drivers.js';

for (const { name, factory, unsupported, options } of ALL_DRIVERS)
  conformanceCases(name, factory, unsupported, () => startSim(options));
