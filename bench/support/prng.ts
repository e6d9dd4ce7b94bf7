// A small deterministic PRNG (mulberry32): generated data and sampled cases are the same every run.
// One implementation, shared with the demo store's generated traffic.
export { prng } from '../../src/demo/prng.js';
