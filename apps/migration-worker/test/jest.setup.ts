// Migrations run on a shared, loaded machine: waits are bounded by each test's own waitFor timeouts.
jest.setTimeout(120000);
