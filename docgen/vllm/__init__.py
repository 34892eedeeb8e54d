"""What docgen knows of `vllm serve` arguments: the catalog, value checks, argv, releases."""
