"""The registry: YAML with positions, the schema, semantic rules and the typed model."""
