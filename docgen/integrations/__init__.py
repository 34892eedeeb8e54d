"""docgen inside other tools: MkDocs, pytest and vLLM's own argument parser."""
