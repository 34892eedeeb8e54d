"""The changelog: the registry's semantic diff, the dated entries, their rules, new releases."""
