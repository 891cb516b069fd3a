/** The simulator's vitals generator lives in the shared package @rpm/vitals-sim (also used by the patient app's virtual watch). */
export * from '@rpm/vitals-sim';
