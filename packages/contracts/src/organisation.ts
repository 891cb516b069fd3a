// Contracts for this domain are added here.
export {};
