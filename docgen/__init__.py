"""docgen: one YAML registry of vLLM serving profiles, the single source of its docs."""

__version__ = "0.1.0"
