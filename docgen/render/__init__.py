"""Rendering: the Jinja environment, MDX escaping, prose, managed regions and agent variants."""
