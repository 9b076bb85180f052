/** Types of allocator.cjs for the TypeScript benches. */
export declare function allocatorEnv(): Record<string, string>;
