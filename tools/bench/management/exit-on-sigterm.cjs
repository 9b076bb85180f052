// Preloaded only for --profile runs: exit normally on SIGTERM so node writes the --cpu-prof file.
process.prependListener('SIGTERM', () => process.exit(0));
