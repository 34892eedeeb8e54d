"""The changelog: the registry's semantic diff, dated entries and their history rules."""
