"""The one place that reads and writes project files: root-confined reads, atomic writes, a lock."""
