// The workspace's own Nx generators (generators.json); `nx g @acme/tools:<generator>`.
