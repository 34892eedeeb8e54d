"""The verbs a user runs, as core functions: build, check, changelog, serve-command, init."""
