/** A simulated watch's vitals (the demo simulator's generator, also the patient app's virtual watch). */
export * from './vitals.js';
